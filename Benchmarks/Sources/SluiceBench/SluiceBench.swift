import ArgumentParser

/// `sluice-bench`: the measurements behind `scripts/bench`. Each subcommand measures one thing and
/// prints one JSON object on standard output; the script runs them, takes medians and prints the
/// table.
@main
struct SluiceBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sluice-bench",
        abstract: "Measures Sluice and its peers; prints one JSON object per run.",
        subcommands: [
            ThroughputCommand.self,
            ChainCommand.self,
            DownloadCommand.self,
            InFlightCommand.self,
        ]
    )
}
