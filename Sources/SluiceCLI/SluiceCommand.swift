import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// The `sluice` command line.
@main
struct SluiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sluice",
        abstract: "Sends HTTP requests through Sluice's stage chain over libcurl.",
        discussion: """
            Exit status: 0 when every request passed, 1 when a request failed or an expectation was not met, 2 when a pipeline or the command line is invalid. sluice send exits with curl's statuses instead (sluice send --help).
            """,
        version: SluiceVersion.current,
        subcommands: [RunCommand.self, ValidateCommand.self, ConvertCommand.self, StagesCommand.self, CurlCommand.self, SendCommand.self, ReachabilityCommand.self, ReportCommand.self]
    )

    /// Runs the command, mapping errors to the exit statuses the pipeline format names:
    /// 1 for a failed request, 2 for an invalid command line.
    ///
    /// `sluice send`'s arguments are first read as curl reads its own (``CurlArguments``).
    ///
    /// `SIGPIPE` is ignored, as curl ignores it: a reader that goes away (`sluice send URL | head`)
    /// ends the write with an error that is reported, instead of killing the process unannounced.
    /// A command whose standard output went away (`sluice run FILE | head -1`) still runs to its
    /// end, writing its reports, and exits 23, curl's status for output not written, unless it
    /// fails otherwise.
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "send" {
            arguments = ["send"] + CurlArguments.normalized(Array(arguments.dropFirst()))
        }
        // The subcommand parsed, whose usage a command line it refuses only when it runs is told.
        var parsed: (any ParsableCommand.Type)?
        do {
            var command = try parseAsRoot(arguments)
            parsed = type(of: command)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            if let failure = Terminal.standardOutputFailure {
                Terminal.writeError("sluice: error: standard output could not be written (\(failure)); what came after was dropped\n")
                Foundation.exit(23)
            }
        } catch let error as ValidationError where parsed != nil && parsed != SluiceCommand.self {
            // ArgumentParser would show the root's usage for an error thrown from run().
            let command = parsed!
            let name = command.configuration.commandName ?? ""
            let message = "Error: \(error.message)\nUsage: \(usageString(for: command))\n  See 'sluice \(name) --help' for more information.\n"
            Terminal.writeError(message)
            Foundation.exit(2)
        } catch let error as PipelineFileError {
            Terminal.writeError(error.description + "\n")
            Foundation.exit(2)
        } catch let error as SluiceError where error.kind == .configuration {
            Terminal.writeError("sluice: error: \(Terminal.printable(error.message))\n")
            Foundation.exit(2)
        } catch let failure as RequestFailure {
            if !failure.quiet { Terminal.writeError("sluice: error: \(Terminal.printable(failure.error.description))\n") }
            Foundation.exit(failure.exitStatus)
        } catch let status as ExitCode where status.rawValue > 2 {
            // curl's own statuses (22 for --fail), as they are.
            Foundation.exit(status.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            // An ExitCode thrown after its message was written (or with none, as under -s) has no text.
            if !message.isEmpty { Terminal.writeError(message + "\n") }
            Foundation.exit(code == .failure ? 1 : 2)
        }
    }
}

/// A request that ended in an error, with curl's exit status for it.
struct RequestFailure: Error {
    let error: SluiceError
    /// Whether no message is written (`-s` without `-S`): the exit status alone says.
    var quiet = false
    /// The exit status, where the caller knows it (3 for a URL that cannot be read, 26 for a
    /// file that cannot be read); else ``exitStatus`` derives it from the error.
    var status: Int32?

    /// curl's exit status for the error (the table in the CLI README): libcurl's own code where
    /// the transport failed (6 DNS, 7 connect, 28 timeout, 35 TLS, 52 empty reply, 56 receive,
    /// 60 certificate, 58 client certificate, 91 OCSP staple..., 61 for a body whose content coding
    /// cannot be undone), 90 for a pin that does not
    /// match, 47 for too many redirects (or a loop, found before the limit), 63 for a body over --max-filesize, 23 for output that
    /// cannot be written, 26 for a file to send that cannot be read, 28 for a timeout (a wait for a route included), 7 for no route to the
    /// host (curl's connect() fails so), and 1 for what curl has no code for.
    var exitStatus: Int32 {
        if let status { return status }
        if error.kind == .trustEvaluation { return 90 }
        if error.kind == .tooManyRedirects || error.kind == .redirectLoop { return 47 }
        if error.kind == .responseTooLarge { return 63 }
        if error.kind == .fileIO { return error.stage == "output" ? 23 : 26 }
        if let code = error.curlCode, code > 0, code < 100 { return Int32(code) }
        // CURLE_BAD_CONTENT_ENCODING, as `curl --compressed` exits on a damaged body.
        if error.underlying is ContentDecodingError { return 61 }
        if error.kind == .timeout || error.kind == .connectTimeout { return 28 }
        if error.kind == .dns { return 6 }
        if error.kind == .connect || error.kind == .notReachable { return 7 }
        return 1
    }
}
