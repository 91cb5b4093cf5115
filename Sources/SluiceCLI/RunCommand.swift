import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `sluice run`: sends every request of pipeline files and checks the expectations.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs pipeline files: sends their requests in order and checks every expectation.",
        discussion: """
            Each request goes through the file's stages; captures flow to later requests. Output is a line per request (mark, name, method, URL, status, duration, size) and, for a failure, what was expected and the pipeline line it is written on; then a summary.

            --jobs N runs N files at once, each with its own variables, captures and cookies; their output is printed in the order the files were given. A folder runs every pipeline under it.

            --dry-run runs the request half of the chain and prints what would be sent.

            Load mode, closed loop: --repeat N and/or --duration D with --concurrency C workers, each sending as soon as its last response is in. Open loop: --rate R (or a ramp R1:R2 over --duration) sends on a schedule whatever the server does, at most C in flight; requests due when C are in flight are dropped and counted. Latency is measured from when each request was due. The summary gives the achieved rate, dropped requests, errors by kind and p50/p90/p99/p99.9/max.

            Several machines: --shard I/N runs shard I (from 0) of N, each sending its share of the requests or of the rate; --start-at TIME makes shards start together; --report histogram:PATH writes the shard's result, and `sluice report merge` combines them.

            Exit status: 0 all passed; 1 a request failed or an expectation was not met (in load mode, also: a request of the schedule was dropped), or the cookie or HSTS file could not be written; 2 the pipeline or the command line is invalid; 23 standard output or a --report file could not be written (curl's status for output not written); 128 and a signal's number when one stopped the run (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).

            Example: sluice run --var base=http://127.0.0.1:8080 pipelines/demo.yaml
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var pipeline: PipelineArguments

    @OptionGroup(title: "Connections (every request of every file)") var connection: SendConnectionOptions

    @Option(name: [.customShort("H"), .long], help: ArgumentHelp("A header for every request, NAME: VALUE, as Hurl's -H (repeatable); sent after a request's own header of that name, not in its place.", valueName: "NAME: VALUE"))
    var header: [String] = []

    @Option(name: [.customShort("u"), .long], help: ArgumentHelp("Basic credentials for every request, as Hurl's and curl's -u; redacted in every output.", valueName: "USER:PASSWORD"))
    var user: String?

    @Option(name: [.customShort("A"), .customLong("user-agent")], help: ArgumentHelp("The User-Agent of every request, as Hurl's and curl's -A (an empty TEXT sends none).", valueName: "TEXT"))
    var userAgent: String?

    /// The header-injection stage `--header`, `--user` and `--user-agent` ask for, or `nil`.
    /// - Parameter hurl: for a Hurl file, whose entries send `--header` themselves (converted
    ///   with the file, where Hurl sends it: after the entry's headers, before its options).
    private func headerInjection(hurl: Bool) throws -> HeaderInjection? {
        // With Hurl's --digest, -u is each entry's credential instead (HurlDefaults.user).
        let user = pipeline.hurl.digest ? nil : user
        let lines = hurl ? [] : try HurlCommandLineOptions.headerLines(header)
        guard !lines.isEmpty || user != nil || userAgent != nil else { return nil }
        var headers = HTTPHeaders()
        for line in lines.compactMap(HeaderLine.init) {
            headers.add(name: line.name, value: line.value)
        }
        var authorization: HeaderInjection.Authorization?
        if let user {
            guard let colon = user.firstIndex(of: ":") else { throw ValidationError("--user \(user.prefix(while: { $0 != ":" })): write USER:PASSWORD") }
            authorization = .basic(username: String(user[..<colon]), password: String(user[user.index(after: colon)...]))
        }
        // Hurl's --header goes beside a request's own header of the same name, not in its place.
        return HeaderInjection(
            headers: headers, userAgent: userAgent.map { .custom($0) } ?? .none, acceptLanguage: .none, authorization: authorization,
            appendsToRequestHeaders: true
        )
    }

    @Option(help: ArgumentHelp("Run only the requests whose name matches: a name, or a glob with *, ? and [...] (repeatable).", valueName: "NAME"))
    var only: [String] = []

    @Option(help: ArgumentHelp("Run only requests with this tag, their own or their file's (repeatable: any of them).", valueName: "TAG"))
    var tag: [String] = []

    @Option(name: .customLong("skip-tag"), help: ArgumentHelp("Leave out requests with this tag (repeatable).", valueName: "TAG"))
    var skipTag: [String] = []

    @Option(help: "How many files run at once.")
    var jobs: Int = 1

    @Flag(help: "Stop after the first request that fails (requests marked always: still run); not in load mode.")
    var failFast = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Print each request's and response's start line and headers to standard error, secrets redacted (-v as curl's and Hurl's).")
    var verbose = false

    @Flag(help: "No colour, even on a terminal (NO_COLOR is honoured too).")
    var noColor = false

    @Flag(help: "Run the request half of the chain and print what would be sent; send nothing.")
    var dryRun = false

    @Option(help: "Output format.")
    var format: Format = .text

    // The plan's numbers are read whatever they start with: `--rate -5` is a rate the plan's
    // check refuses by name, not a missing value followed by an unknown option.
    @Option(name: .customLong("repeat"), parsing: .unconditional, help: "Load mode: send each request this many times.")
    var repetitions: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Load mode: how long to send, 30s, 5m, 1h30m (with --repeat, whichever ends first).", valueName: "DURATION"))
    var duration: String?

    @Option(name: .customLong("grace-period"), parsing: .unconditional, help: ArgumentHelp("Load mode: how long requests still in flight at the planned end (--duration, or the --rate schedule) may take before they are cancelled and counted as interrupted, as k6's gracefulStop; 30s by default.", valueName: "DURATION"))
    var gracePeriod: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Load mode, open loop: requests per second, whatever the responses do, or a ramp FROM:TO over --duration.", valueName: "R|FROM:TO"))
    var rate: String?

    @Option(parsing: .unconditional, help: "Load mode: how many requests are in flight at once (in the open loop, at most).")
    var concurrency: Int = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("Load mode: run shard I (from 0) of N; each sends its share of the requests or of the rate.", valueName: "I/N"))
    var shard: String?

    @Option(name: .customLong("start-at"), help: ArgumentHelp("Load mode: start at this time, RFC 3339 (2026-11-23T09:00:00Z) or Unix seconds, so that shards overlap.", valueName: "TIME"))
    var startAt: String?

    @Option(help: ArgumentHelp("Write a report: json:PATH, tap:PATH, junit:PATH or html:PATH; in load mode json:PATH, junit:PATH or histogram:PATH (repeatable: several at once). Checked before the first request; written through as curl's -o writes: /dev/stdout, a device or a FIFO as it is, an existing file in place (its hard links, mode and owner kept).", valueName: "KIND:PATH"))
    var report: [String] = []

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
        let plan = try loadPlan()
        if let plan {
            if let problem = plan.problem { throw ValidationError(problem) }
            if dryRun { throw ValidationError("--dry-run and load mode (--repeat, --duration, --rate) cannot be combined") }
            if gracePeriod != nil, duration == nil, rate == nil {
                throw ValidationError("--grace-period needs a planned end, --duration or --rate: a run that --repeat alone bounds waits for every response")
            }
            if failFast {
                throw ValidationError("--fail-fast and load mode (--repeat, --duration, --rate) cannot be combined: a load run sends every request it planned and counts each failure")
            }
            if jobs > 1 {
                throw ValidationError("--jobs and load mode (--repeat, --duration, --rate) cannot be combined: load runs at the same time would each measure the other's load; give the files one at a time, or shard one run with --shard")
            }
        } else {
            if concurrency != 1 { throw ValidationError("--concurrency needs load mode: --repeat, --duration or --rate") }
            if gracePeriod != nil { throw ValidationError("--grace-period needs load mode: --duration or --rate") }
            if shard != nil || startAt != nil { throw ValidationError("--\(shard != nil ? "shard" : "start-at") needs load mode: --repeat, --duration or --rate") }
        }
        let loadMode = plan != nil
        for request in try reports() where !request.kind.fits(loadMode: loadMode) {
            throw ValidationError(loadMode ? "--report \(request.kind.rawValue): load mode writes json, junit or histogram reports" : "--report histogram: needs load mode (--repeat, --duration or --rate)")
        }
    }

    /// The load mode's plan from the command line, or `nil` when none of `--repeat`,
    /// `--duration` and `--rate` is given.
    func loadPlan() throws -> LoadPlan? {
        guard repetitions != nil || duration != nil || rate != nil else { return nil }
        var plan = LoadPlan(repetitions: repetitions, concurrency: concurrency)
        if let duration {
            guard let parsed = DurationText.parse(duration) else { throw ValidationError("--duration takes a duration such as 30s, 1.5m, 1h30m or 500ms, not '\(duration)'") }
            plan.duration = parsed
        }
        if let gracePeriod {
            guard let parsed = DurationText.parse(gracePeriod) else { throw ValidationError("--grace-period takes a duration such as 30s, 500ms or 0s, not '\(gracePeriod)'") }
            plan.gracePeriod = parsed
        }
        if let rate {
            guard let parsed = LoadRate(rate) else {
                throw ValidationError("--rate takes requests per second, R or FROM:TO (at most \(Int(LoadRate.maximum))), not '\(rate)'")
            }
            plan.rate = parsed
        }
        if let shard {
            guard let parsed = LoadShard(shard) else { throw ValidationError("--shard takes I/N with 0 ≤ I < N, such as 0/4, not '\(shard)'") }
            plan.shard = parsed
        }
        if let startAt {
            let seconds = startAt.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } ? Double(startAt) : nil
            guard let date = seconds.map({ Date(timeIntervalSince1970: $0) }) ?? RFC3339Timestamp.date(startAt) else {
                throw ValidationError("--start-at takes an RFC 3339 time (2026-11-23T09:00:00Z) or Unix seconds, not '\(startAt)'")
            }
            guard abs(date.timeIntervalSinceNow) <= 7 * 86_400 else {
                throw ValidationError("--start-at \(RFC3339Timestamp.string(date)) is more than a week from now; is the time or this machine's clock wrong?")
            }
            plan.startAt = date
        }
        return plan
    }

    /// The `--report` arguments, checked.
    func reports() throws -> [RunReportRequest] {
        let requests = try report.map { argument in
            guard let request = RunReportRequest(argument) else {
                throw ValidationError("--report takes KIND:PATH with KIND one of \(RunReportRequest.Kind.allCases.map(\.rawValue).joined(separator: ", ")), not '\(argument)'")
            }
            return request
        }
        try RunReportRequest.checkDistinct(requests)
        // The run's JSON document is standard output's too: one of the two would be lost.
        if format == .json, let shared = requests.first(where: \.isStandardOutput) {
            throw ValidationError("--format json and --report \(shared.kind.rawValue):\(shared.path) both write standard output, where one would hide the other: write the report to a file")
        }
        return requests
    }

    func run() async throws {
        let files: [PipelineFile]
        do {
            files = try pipeline.load(user: user, headers: header)
        } catch let error as PipelineFileError {
            writeReports(unloaded: error.diagnostics)
            throw error
        }
        let plan = try loadPlan()
        // A load run takes the first Ctrl-C or SIGTERM its own way.
        Interruption.install(stopsLoadFirst: plan != nil)
        if plan != nil, files.count > 1, try !reports().isEmpty {
            throw ValidationError("--report in load mode writes one run's result: give one pipeline file")
        }
        let reportFiles = try reports().map { ($0, try $0.open()) }
        let selection = RequestSelection(only: only, tags: tag, skipTags: skipTag)
        if files.count > 1 {
            // Across several files a pattern need only match in one of them.
            let unmatched = selection.unmatchedPatterns(in: files.flatMap(\.spec.requests))
            if let pattern = unmatched.first { throw ValidationError("--only \(pattern): no request of the \(files.count) files has that name") }
            if let unknown = selection.unknownTag(in: files.flatMap(\.spec.requests)) {
                throw ValidationError(RequestSelection.unknownTagMessage(unknown, in: "the \(files.count) files"))
            }
        }
        let options = FileRun.Options(
            selection: selection, requiresMatches: files.count == 1, failFast: failFast, verbose: verbose, dryRun: dryRun,
            json: format == .json, load: plan,
            terminal: Terminal(noColor: noColor), showsProgress: Terminal.standardErrorIsTerminal && !noColor && jobs == 1,
            connection: try connection.overrides(beside: nil), headers: try headerInjection(hurl: false), hurlHeaders: try headerInjection(hurl: true)
        )
        let outcomes = try await runAll(files, options: options)
        if format == .json {
            let documents = outcomes.compactMap(\.document)
            let document = documents.count == 1 ? documents[0] : .array(documents)
            Terminal.write((try JSONWriter(prettyPrinted: true).string(from: document)) + "\n")
        }
        let suites = outcomes.compactMap(\.suite)
        let redactor = Redactor(secrets: files.flatMap(\.secrets) + (options.headers?.derivedSecrets ?? []) + (options.hurlHeaders?.derivedSecrets ?? []) + suites.flatMap { $0.results.flatMap(\.capturedSecrets) })
        let loads = outcomes.compactMap(\.load)
        let written = RunReportRequest.writeEach(reportFiles) { request, file in
            if let load = loads.first {
                try request.write(load, redactor: redactor, merged: false, to: file)
            } else {
                try request.write(RunReport.Run(suites: suites), redactor: redactor, to: file)
            }
        }
        // A load run stopped by a signal printed and wrote what it measured, and exits as stopped.
        if let signal = Interruption.stoppingSignal { throw ExitCode(128 + signal) }
        if outcomes.contains(where: \.failed) { throw ExitCode(1) }
        // curl's status for output it could not write, as for standard output (SluiceCommand).
        if !written { throw ExitCode(23) }
    }

    /// The reports of a run whose files did not load: each file an error with its problems, so that
    /// CI reads a failed run where it would find no report. A histogram, the result of a load run
    /// for `sluice report merge`, is not written: no load ran. A report that cannot be written is
    /// said, beside the problems that are the run's error.
    private func writeReports(unloaded problems: [PipelineDiagnostic]) {
        guard let requests = try? reports() else { return }
        let run = RunReport.Run(suites: RunReport.Suite.unloaded(problems))
        let opened = requests.filter { $0.kind != .histogram }.compactMap { request in
            do {
                return (request, try request.open())
            } catch {
                Terminal.writeError("sluice: --report \(request.kind.rawValue): \(error)\n")
                return nil
            }
        }
        _ = RunReportRequest.writeEach(opened) { request, file in try request.write(run, redactor: Redactor(secrets: []), to: file) }
    }

    /// Runs the files, `jobs` at a time, printing each one's output in file order: with one job
    /// as it comes, with more when the file and every file before it are done.
    private func runAll(_ files: [PipelineFile], options: FileRun.Options) async throws -> [FileRun.Outcome] {
        // After a failure with --fail-fast the files after it still run their `always` requests
        // (teardowns), and report the others as skipped, naming the request that failed.
        var stoppedBy: String?
        if jobs == 1 {
            var outcomes: [FileRun.Outcome] = []
            for file in files {
                let outcome = try await FileRun(file: file, options: options, live: true, stoppedBy: stoppedBy).run()
                outcomes.append(outcome)
                if failFast, outcome.failed, stoppedBy == nil { stoppedBy = outcome.firstFailure }
            }
            return outcomes
        }
        return try await withThrowingTaskGroup(of: (Int, FileRun.Outcome).self) { group in
            var done: [Int: FileRun.Outcome] = [:]
            var outcomes: [FileRun.Outcome] = []
            var started = 0
            func start() {
                let index = started
                let file = files[index]
                let stoppedBy = stoppedBy
                group.addTask { (index, try await FileRun(file: file, options: options, live: false, stoppedBy: stoppedBy).run()) }
                started += 1
            }
            while started < min(jobs, files.count) { start() }
            while let (index, outcome) = try await group.next() {
                done[index] = outcome
                if failFast, outcome.failed, stoppedBy == nil { stoppedBy = outcome.firstFailure }
                while let next = done.removeValue(forKey: outcomes.count) {
                    Terminal.write(next.output)
                    Terminal.writeError(next.errorOutput)
                    outcomes.append(next)
                }
                if started < files.count { start() }
            }
            return outcomes
        }
    }
}
