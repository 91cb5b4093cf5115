import ArgumentParser
import Foundation
import Sluice

/// `sluice run`: sends every request of pipeline files and checks the expectations.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs pipeline files: sends their requests in order and checks every expectation.",
        discussion: """
            Each request goes through the file's stages; captures flow to later requests. Output is a line per request (mark, name, method, URL, status, duration, size) and, for a failure, what was expected and the pipeline line it is written on; then a summary.

            --dry-run runs the request half of the chain and prints what would be sent. --repeat N --concurrency C is the load mode: each request N times, C in flight, then requests/s and latency percentiles.

            Exit status: 0 all passed; 1 a request failed or an expectation was not met; 2 the pipeline or the command line is invalid.

            Example: sluice run --var base=http://127.0.0.1:8080 pipelines/demo.yaml
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var pipeline: PipelineArguments

    @Option(help: ArgumentHelp("Run only this request (repeatable).", valueName: "NAME"))
    var only: [String] = []

    @Flag(help: "Stop after the first request that fails.")
    var failFast = false

    @Flag(help: "Print each request's and response's start line and headers to standard error, secrets redacted.")
    var verbose = false

    @Flag(help: "No colour, even on a terminal (NO_COLOR is honoured too).")
    var noColor = false

    @Flag(help: "Run the request half of the chain and print what would be sent; send nothing.")
    var dryRun = false

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: .customLong("repeat"), help: "Load mode: send each request this many times.")
    var repetitions: Int?

    @Option(help: "Load mode: how many requests are in flight at once.")
    var concurrency: Int = 1

    @Option(help: ArgumentHelp("Write a report: junit:PATH writes JUnit XML.", valueName: "junit:PATH"))
    var report: String?

    func validate() throws {
        if let repetitions, repetitions < 1 { throw ValidationError("--repeat must be 1 or more") }
        if concurrency < 1 { throw ValidationError("--concurrency must be 1 or more") }
        if concurrency > 1 && repetitions == nil { throw ValidationError("--concurrency needs --repeat (load mode)") }
        if dryRun && repetitions != nil { throw ValidationError("--dry-run and --repeat cannot be combined") }
        if let report, !report.hasPrefix("junit:") || report.count <= 6 {
            throw ValidationError("--report takes junit:PATH, not '\(report)'")
        }
    }

    /// Writes the file's cookie file, if it has one; says why not and returns `false` when it
    /// cannot.
    private func saveCookies(of file: PipelineFile) -> Bool {
        do {
            try file.saveCookies()
            return true
        } catch {
            Terminal.writeError("\(file.path): error: cannot write the cookie file: \(error)\n")
            return false
        }
    }

    func run() async throws {
        let files = try pipeline.load()
        let terminal = Terminal(noColor: noColor)
        var documents: [JSONValue] = []
        var suites: [(file: String, pipeline: String, results: [RequestResult])] = []
        var failed = false
        for file in files {
            let runner = PipelineRunner(file: file)
            var text = TextReport(file: file, terminal: terminal, redactor: runner.redactor)
            if dryRun {
                let prepared = try await runner.prepare(only: only)
                if format == .json {
                    documents.append(RunReport.dryRunJSON(pipeline: file.spec.name, prepared: prepared, redactor: runner.redactor))
                } else {
                    Terminal.write(prepared.map { text.dryRun($0.spec, $0.result) }.joined())
                }
                failed = failed || prepared.contains { if case .failure = $0.result { true } else { false } }
            } else if let repetitions {
                let load = LoadRun(runner: runner, repetitions: repetitions, concurrency: concurrency)
                let summary = try await runLoad(load, requests: try runner.requests(only: only).count * repetitions)
                failed = !saveCookies(of: file) || failed
                if format == .json {
                    documents.append(RunReport.json(pipeline: file.spec.name, load: summary, redactor: runner.redactor))
                } else {
                    Terminal.write(text.load(summary))
                }
                failed = failed || summary.errors > 0
            } else {
                let clock = ContinuousClock()
                let start = clock.now
                let results = try await runner.run(only: only, failFast: failFast) { result in
                    // A captured value that holds a secret is one from here on, in this result too.
                    text.redactor = text.redactor.adding(result.capturedSecrets)
                    guard format == .text else { return }
                    Terminal.write(text.lines(for: result))
                    if verbose { Terminal.writeError(text.verbose(for: result)) }
                }
                failed = !saveCookies(of: file) || failed
                if format == .json {
                    if verbose { results.forEach { Terminal.writeError(text.verbose(for: $0)) } }
                    documents.append(RunReport.json(pipeline: file.spec.name, results: results, redactor: text.redactor))
                } else {
                    Terminal.write(text.summary(results, elapsed: clock.now - start))
                }
                suites.append((file.path, file.spec.name, results))
                failed = failed || results.contains { !$0.ok }
                if failFast && failed { break }
            }
        }
        if format == .json {
            let document = documents.count == 1 ? documents[0] : .array(documents)
            Terminal.write((try JSONWriter(prettyPrinted: true).string(from: document)) + "\n")
        }
        if let report {
            let path = String(report.dropFirst(6))
            let redactor = Redactor(secrets: files.flatMap(\.secrets) + suites.flatMap { $0.results.flatMap(\.capturedSecrets) })
            do {
                try RunReport.junit(suites, redactor: redactor).write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw ValidationError("cannot write the report \(path): \((error as NSError).localizedDescription)")
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// Runs the load mode, with a progress bar on standard error when it is a terminal.
    private func runLoad(_ load: LoadRun, requests: Int) async throws -> LoadRun.Summary {
        let progress = LoadRun.Progress()
        let bar = Terminal.standardErrorIsTerminal && !noColor ? Task { await ProgressBar(total: requests, progress: progress).show() } : nil
        defer { bar?.cancel() }
        let summary = try await load.run(only: only, progress: progress)
        bar?.cancel()
        await bar?.value
        return summary
    }
}
