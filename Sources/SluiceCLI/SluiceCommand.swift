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
            Exit status: 0 when every request passed, 1 when a request failed or an expectation was not met, 2 when a pipeline or the command line is invalid.
            """,
        version: SluiceVersion.current,
        subcommands: [RunCommand.self, ValidateCommand.self, StagesCommand.self, CurlCommand.self, SendCommand.self, ReachabilityCommand.self, ReportCommand.self]
    )

    /// Runs the command, mapping errors to the exit statuses the pipeline format names:
    /// 1 for a failed request, 2 for an invalid command line.
    ///
    /// `SIGPIPE` is ignored, as curl ignores it: a reader that goes away (`sluice send URL | head`)
    /// ends the write with an error that is reported, instead of killing the process unannounced.
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as PipelineFileError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            Foundation.exit(2)
        } catch let error as SluiceError where error.kind == .configuration {
            FileHandle.standardError.write(Data("sluice: error: \(error.message)\n".utf8))
            Foundation.exit(2)
        } catch let failure as RequestFailure {
            if !failure.quiet { FileHandle.standardError.write(Data("sluice: error: \(failure.error)\n".utf8)) }
            Foundation.exit(failure.exitStatus)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            // An ExitCode thrown after its message was written (or with none, as under -s) has no text.
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(code == .failure ? 1 : 2)
        }
    }
}

/// A request that ended in an error: exit status 1, or curl's status for a trust failure.
struct RequestFailure: Error {
    let error: SluiceError
    /// Whether no message is written (`-s` without `-S`): the exit status alone says.
    var quiet = false

    /// curl's exit status where curl has one for a trust failure, 1 otherwise: 60 for a
    /// certificate that does not verify (a revoked one by a CRL included), 90 for a pin that does
    /// not match, 58 for a client certificate that cannot be used, 91 for a stapled OCSP answer
    /// that is not good or missing (`--cert-status`).
    var exitStatus: Int32 {
        if error.kind == .trustEvaluation { return 90 }
        if error.kind == .tls, let code = error.curlCode, [58, 60, 91].contains(code) { return Int32(code) }
        return 1
    }
}
