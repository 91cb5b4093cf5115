import ArgumentParser

/// `sluice-bench` and `sluice-bench-allocs`: the measurements behind `scripts/bench`. Each
/// subcommand measures one thing and prints one JSON object on standard output; the script runs
/// them, takes medians and prints the table.
public struct SluiceBenchCommand: AsyncParsableCommand {
    /// The subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "sluice-bench",
        abstract: "Measures Sluice and its peers; prints one JSON object per run.",
        subcommands: [
            ThroughputCommand.self,
            PlainAsyncHTTPClientCommand.self,
            ChainCommand.self,
            DownloadCommand.self,
            InFlightCommand.self,
            FirstCookieCommand.self,
            HopCommand.self,
        ]
    )

    /// Creates the command (ArgumentParser calls it).
    public init() {}

    /// Parses the process's arguments and runs the subcommand they name, as ArgumentParser's
    /// `@main` entry does (an executable's top-level code cannot reach that entry's async form).
    public static func runFromCommandLine() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
