import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// One pipeline file's part of `sluice run`: its requests run, its output written (as it comes,
/// or kept for when the files before it are printed), its results kept for the reports.
struct FileRun {
    /// What the command line asks of every file.
    struct Options: Sendable {
        var selection: RequestSelection
        var requiresMatches: Bool
        var failFast: Bool
        var verbose: Bool
        var dryRun: Bool
        var json: Bool
        /// The load mode's plan, or `nil` to run the file's requests once, in order.
        var load: LoadPlan?
        var terminal: Terminal
        var showsProgress: Bool
        /// `--connect-to`, `--resolve`, `--unix-socket`, `-4`, `-6`: where every connection goes.
        var connection: ConnectionOverrides?
        /// `--header`, `--user`, `--user-agent`: headers for every request of a pipeline file.
        var headers: HeaderInjection?
        /// `--user`, `--user-agent` for a Hurl file's requests (its entries send `--header`
        /// themselves, converted with the file).
        var hurlHeaders: HeaderInjection?
    }

    /// What running the file gave.
    struct Outcome: Sendable {
        /// Standard output not yet written (empty when written live).
        var output = ""
        /// Standard error not yet written.
        var errorOutput = ""
        /// The file's `--format json` document.
        var document: JSONValue?
        /// The results, for the reports (not in a dry run or the load mode).
        var suite: RunReport.Suite?
        /// What the load mode measured.
        var load: LoadResult?
        /// Whether a request failed, or the cookie file could not be written.
        var failed = false
        /// The first request that failed, `FILE: NAME`, for `--fail-fast` to name in the files
        /// after it.
        var firstFailure: String?
    }

    let file: PipelineFile
    let options: Options
    /// Whether output is written as it comes rather than kept in the outcome.
    let live: Bool
    /// The request of an earlier file after whose failure `--fail-fast` stopped the run: this
    /// file's requests are skipped naming it, but those marked `always`.
    var stoppedBy: String? = nil

    func run() async throws -> Outcome {
        var outcome = Outcome()
        // A load run's transport lets --concurrency connections be open at once: no queue inside libcurl.
        var runner = try PipelineRunner(file: file, transport: options.load.map { CurlTransport(configuration: .init().allowing(connections: $0.shardConcurrency)) } ?? CurlTransport.shared)
        runner.recordsExchanges = options.verbose && options.load == nil
        if let connection = options.connection { runner.addedStages.append(ConnectionRouting(connection)) }
        if let headers = file.path.hasSuffix(".hurl") ? options.hurlHeaders : options.headers {
            runner.addedStages.append(headers)
            runner.addedSecrets = headers.derivedSecrets
        }
        var text = TextReport(file: file, terminal: options.terminal, redactor: runner.redactor)
        // A body streamed to standard output (Hurl's --output -) has it to itself, as curl's
        // body has: the result lines go to standard error, and a JSON document cannot share it.
        let bodyRequest = options.dryRun ? nil : file.spec.requests.first(where: FileRun.writesStandardOutput)
        if let bodyRequest, options.json {
            throw SluiceError(kind: .configuration, message: "\(file.path): --format json and the output: \(bodyRequest.output?.scalar ?? "") of request '\(bodyRequest.name)' both write standard output; send the body to a file, or the results with --report json:PATH")
        }
        func write(_ string: String) {
            if bodyRequest != nil {
                writeError(string)
            } else if live {
                Terminal.write(string)
            } else {
                outcome.output += string
            }
        }
        func writeError(_ string: String) {
            if live { Terminal.writeError(string) } else { outcome.errorOutput += string }
        }
        if options.verbose {
            writeError("\(file.path): the chain, top to bottom:\n" + ChainLink.lines(file.chain))
        }
        if options.dryRun {
            let prepared = try await runner.prepare(selection: options.selection, requiresMatches: options.requiresMatches)
            if options.json {
                outcome.document = RunReport.dryRunJSON(pipeline: file.spec.name, prepared: prepared, redactor: runner.redactor)
            } else {
                write(prepared.map(text.dryRun).joined())
            }
            outcome.failed = prepared.contains { if case .failure = $0.result { $0.skipReason == nil } else { false } }
            return outcome
        }
        if let plan = options.load {
            let requests = try runner.requests(selection: options.selection, requiresMatches: options.requiresMatches).count
            let total = plan.totalRequests(requestCount: requests).map(plan.shard.share(of:))
            var result = try await runLoad(LoadRun(runner: runner, plan: plan), total: total)
            result.stoppedBy = Interruption.stoppingSignal.map(Interruption.name(of:))
            outcome.failed = !saveRunFiles(runner.state, writeError) || result.errors > 0 || result.dropped > 0
            if options.json {
                outcome.document = result.json(redactor: runner.redactor)
            } else {
                write(LoadTextReport(terminal: options.terminal, redactor: runner.redactor).text(result, merged: false))
            }
            // A run that measured nothing is no pass: its duration ended before a request was due
            // (a shard whose share is none is said so, and fails nothing).
            if result.requests == 0, result.dropped == 0, result.stoppedBy == nil {
                let duration = plan.duration.map { " (--duration \(DurationText.string($0)))" } ?? ""
                if total == 0, plan.shard.count > 1 {
                    writeError("\(file.path): load: shard \(plan.shard)'s share of the requests is none\n")
                } else {
                    writeError("\(file.path): load: no request was sent: the run ended before the first one started\(duration); give it longer\n")
                    outcome.failed = true
                }
            }
            if let stoppedBy = result.stoppedBy {
                writeError("\(file.path): load: stopped by \(stoppedBy) after \(FixedPointText.string(result.seconds, fractionDigits: 1)) s: the figures are those of the \(result.requests) requests sent until then\n")
            }
            outcome.load = result
            return outcome
        }
        let clock = ContinuousClock()
        let start = clock.now
        let results = try await runner.run(selection: options.selection, requiresMatches: options.requiresMatches, failFast: options.failFast, stoppedBy: stoppedBy) { result in
            // A captured value that holds a secret is one from here on, in this result too.
            text.redactor = text.redactor.adding(result.capturedSecrets)
            guard !options.json else { return }
            write(text.lines(for: result))
            if options.verbose { writeError(text.verbose(for: result)) }
        }
        outcome.failed = !saveRunFiles(runner.state, writeError) || results.contains { !$0.ok }
        outcome.firstFailure = results.first { !$0.ok }.map { "\(file.path): \($0.name)" } ?? (outcome.failed ? file.path : nil)
        if options.json {
            if options.verbose { results.forEach { writeError(text.verbose(for: $0)) } }
            outcome.document = RunReport.json(pipeline: file.spec.name, results: results, redactor: text.redactor)
        } else {
            write(text.summary(results, elapsed: clock.now - start))
        }
        outcome.suite = RunReport.Suite(file: file.path, pipeline: file.spec.name, results: results, elapsed: clock.now - start, chain: file.chain)
        return outcome
    }

    /// Whether the request streams its body to this process's standard output.
    static func writesStandardOutput(_ request: RequestSpec) -> Bool {
        guard let path = request.output?.scalar else { return false }
        return ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].contains { $0.utf8.elementsEqual(path.utf8) }
    }

    /// Writes the run's cookie file and HSTS file, those it has; says why not and returns
    /// `false` when one cannot be written.
    private func saveRunFiles(_ state: PipelineRun, _ writeError: (String) -> Void) -> Bool {
        var saved = true
        do {
            try state.saveCookies()
        } catch {
            writeError("\(file.path): error: \((error as? SluiceError)?.message ?? "cannot write the cookie file: \(error)")\n")
            saved = false
        }
        do {
            try state.saveHSTS()
        } catch {
            writeError("\(file.path): error: \((error as? SluiceError)?.message ?? "cannot write the HSTS file: \(error)")\n")
            saved = false
        }
        return saved
    }

    /// Runs the load mode, with a progress bar on standard error when it is a terminal.
    private func runLoad(_ load: LoadRun, total: Int?) async throws -> LoadResult {
        if let startAt = load.plan.startAt {
            let wait = startAt.timeIntervalSinceNow
            let when = RFC3339Timestamp.string(startAt)
            if wait > 1 {
                Terminal.writeError("\(file.path): load: waiting \(Int(wait.rounded())) s for --start-at \(when)\n")
            } else if wait < -1 {
                Terminal.writeError("\(file.path): load: started \(Int((-wait).rounded())) s after --start-at \(when): \(load.plan.isOpenLoop ? "the requests due before it are dropped, not sent late" : "its window starts now")\n")
            }
        }
        let progress = LoadRun.Progress()
        let bar = options.showsProgress ? Task { await ProgressBar(total: total, duration: load.plan.duration, progress: progress).show() } : nil
        // Ctrl-C or SIGTERM stops the run, which still reports what it sent (Interruption).
        let watcher = Task {
            while !Task.isCancelled, Interruption.stoppingSignal == nil {
                try? await Task.sleep(for: .milliseconds(100))
            }
            if Interruption.stoppingSignal != nil { progress.stop() }
        }
        defer {
            bar?.cancel()
            watcher.cancel()
        }
        let result = try await load.run(selection: options.selection, progress: progress)
        bar?.cancel()
        await bar?.value
        return result
    }
}
