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
            Each request runs through the request half of the chain (nothing is sent), and the command carries the method, URL, headers and body as the stages left them, with curl flags for redirects, timeouts, the CA bundle, the client certificate and revocation checks (public-key pins only beside --insecure; otherwise a comment names them, since curl checks the leaf's key alone). Secrets print as *** unless --show-secrets. Captures have no value without a run and print as <NAME>. A line says when the requests share a cookie jar, which the commands share only through a cookie file (-b FILE -c FILE).
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
            let preparedRequests = try await runner.prepare(selection: RequestSelection(only: only), checksBodyFiles: false)
            Terminal.write(CurlCommand.cookieNote(preparedRequests.map(\.spec), readsCookieFile: file.spec.cookieFile != nil))
            if runner.state.stages.contains(where: { $0.name == "retry" }) {
                Terminal.write("# not exported: the file's retry stage, which sends a request again after a transient failure; curl's --retry N is the nearest, though curl judges for itself what is transient\n")
            }
            for prepared in preparedRequests {
                let spec = prepared.spec
                if let reason = prepared.skipReason {
                    Terminal.write("# \(spec.displayName)\n# skipped, not sent by sluice run: \(redactor.redact(reason))\n")
                    continue
                }
                switch prepared.result {
                case .success(var request):
                    // The file output: names, where the run writes through a part file beside it.
                    if let written = prepared.written?.destination, written.isFile { request.destination = written }
                    let command = CurlExport.command(
                        for: request, parts: prepared.written?.parts ?? [], redirects: prepared.written?.redirection ?? redirects,
                        ownCookies: prepared.written?.ownCookies, placeholders: prepared.placeholders, redactor: redactor
                    )
                    let polling = spec.retry == nil ? "" : "# not exported: retry:, which sends this request again until its checks hold; curl has no such option\n"
                    Terminal.write("# \(spec.displayName)\n" + CurlCommand.placeholderNote(spec.variableNames.intersection(prepared.placeholders)) + polling + "\(command)\n")
                case .failure(let error):
                    failed = true
                    Terminal.writeError("\(spec.source.location(spec.mark)): error: \(redactor.redact(error.description))\n")
                }
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// A comment line saying that a run carries cookies from response to request, which separate
    /// curl commands do only when each is given the same cookie file; nothing when no request
    /// after another uses the jar and no cookie file fills it.
    static func cookieNote(_ specs: [RequestSpec], readsCookieFile: Bool) -> String {
        let users = specs.filter { $0.cookieJar != .off }
        guard users.count > 1 || (readsCookieFile && !users.isEmpty) else { return "" }
        return "# sluice run keeps one cookie jar for these requests (\(readsCookieFile ? "filled from the file's cookie-file: and " : "")the cookies each response sets); to do the same, give every command below -b cookies.txt -c cookies.txt\n"
    }

    /// A comment line naming the placeholders a command holds for `captures`, which only a run
    /// of the file fills in; nothing when it holds none.
    static func placeholderNote(_ captures: Set<String>) -> String {
        guard !captures.isEmpty else { return "" }
        let names = captures.sorted().map { "<\($0)>" }.joined(separator: ", ")
        let said = captures.count == 1
            ? "stands for a value captured from an earlier response when the file runs: put the real one in first"
            : "stand for values captured from earlier responses when the file runs: put the real ones in first"
        return "# \(names) \(said)\n"
    }
}
