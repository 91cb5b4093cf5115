import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `sluice curl`: a curl command per request of a pipeline file.
struct CurlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Prints a curl command that reproduces each request of a pipeline file.",
        discussion: """
            Each request runs through the request half of the chain (nothing is sent), and the command carries the method, URL, headers and body as the stages left them, with curl flags for redirects, timeouts, the CA bundle and public-key pins. Secrets print as *** unless --show-secrets. Captures have no value without a run and print as <NAME>.
            """
    )

    @OptionGroup var pipeline: PipelineArguments

    @Option(help: ArgumentHelp("Only the requests whose name matches: a name, or a glob (repeatable).", valueName: "NAME"))
    var only: [String] = []

    @Flag(help: "Print secrets (tokens, passwords, environment values) as they are.")
    var showSecrets = false

    func run() async throws {
        var failed = false
        for file in try pipeline.load() {
            let runner = try PipelineRunner(file: file, transport: CurlTransport.shared)
            let redactor = showSecrets ? Redactor.none : runner.redactor
            let redirects = runner.state.stages.lazy.compactMap { $0 as? Redirection }.first ?? Redirection()
            for prepared in try await runner.prepare(selection: RequestSelection(only: only)) {
                let spec = prepared.spec
                switch prepared.result {
                case .success(let request):
                    let command = CurlExport.command(
                        for: request, parts: prepared.written?.parts ?? [], redirects: prepared.written?.redirection ?? redirects,
                        ownCookies: prepared.written?.ownCookies, redactor: redactor
                    )
                    Terminal.write("# \(spec.displayName)\n\(command)\n")
                case .failure(let error):
                    failed = true
                    Terminal.writeError("\(spec.source.location(spec.mark)): error: \(redactor.redact(error.description))\n")
                }
            }
        }
        if failed { throw ExitCode(1) }
    }
}
