import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceJSONPath

/// A request of a dry run: as the file writes it, and as the request-side stages leave it.
public struct PreparedRequest: Sendable {
    /// The request's entry in the file.
    public var spec: RequestSpec
    /// The request with its variables filled in, before any stage; `nil` when that failed.
    public var written: Request?
    /// The request as it would reach the transport, or why it cannot be prepared.
    public var result: Result<Request, SluiceError>
    /// The captures that have no value before the file runs, each standing in the request as its
    /// ``CapturePlaceholder``.
    public var placeholders: [String] = []
    /// Why a run would not send the request: its `when:` or `skip:` says so, judged on what is
    /// known before the run (a condition that reads a capture is left to the run); `nil` when it
    /// would be sent.
    public var skipReason: String?
}

/// Runs a pipeline file's requests: in file order, each through the file's stages, captures
/// flowing forward, expectations checked.
///
/// ```swift
/// let file = try PipelineFile.load(path: path, variables: ["base": base])   // such as "pipelines/chain.yaml", "http://127.0.0.1:8080"
/// let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
/// ```
///
/// A runner is one run: it makes the run's stages, with their cookie jar and HSTS store, when
/// it is created (see ``PipelineRun``).
public struct PipelineRunner: Sendable {
    /// The file.
    public let file: PipelineFile
    /// The transport requests go through.
    public let transport: any Transport
    /// The run's stages and state: its cookie jar, its HSTS store.
    public let state: PipelineRun
    /// Stages the command line adds to the file's, each put in its place as the file's are
    /// (`sluice run --connect-to`'s `connection` stage), ahead of the file's stages of the same
    /// rank (so `-A` goes over a `header-injection` stage's `User-Agent`); one that claims what a
    /// stage of the file claims is refused, naming both.
    public var addedStages: [any Stage] = []
    /// Secrets the command line brought (`--user`'s credentials), redacted as the file's are.
    public var addedSecrets: [String] = []
    /// Whether each result keeps every exchange on the wire (``RequestResult/exchanges``), as
    /// `--verbose` shows them: each redirect hop, a revalidation's 304.
    public var recordsExchanges = false

    /// Creates a runner, making the run's stages.
    /// - Throws: `.configuration` when a stage can no longer be made (a file it reads has gone
    ///   since the file was loaded).
    public init(file: PipelineFile, transport: any Transport) throws(SluiceError) {
        self.file = file
        self.transport = transport
        state = try PipelineRun(file: file)
    }

    /// The requests a selection picks, in run order.
    /// - Parameters:
    ///   - selection: `--only`, `--tag`, `--skip-tag`.
    ///   - requiresMatches: whether an `--only` pattern that matches no request of this file is an
    ///     error (a run of several files checks that across them instead).
    ///   - requiresCaptures: whether a selected request that uses a capture of a request left out
    ///     is an error (a dry run shows the capture's placeholder instead).
    /// - Throws: `.configuration` for a pattern that matches nothing, or, when `requiresCaptures`,
    ///   a selected request that uses a capture of a request left out.
    public func requests(selection: RequestSelection, requiresMatches: Bool = true, requiresCaptures: Bool = true) throws(SluiceError) -> [RequestSpec] {
        let all = file.spec.requests
        guard !selection.selectsAll else { return all }
        if requiresMatches, let pattern = selection.unmatchedPatterns(in: all).first {
            throw SluiceError(kind: .configuration, message: "--only \(pattern): \(file.path) has no request of that name (requests: \(PipelineRunner.names(all)))")
        }
        if requiresMatches, let unknown = selection.unknownTag(in: all) {
            throw SluiceError(kind: .configuration, message: RequestSelection.unknownTagMessage(unknown, in: file.path))
        }
        let chosen = all.map(selection.selects)
        // Every capture the selection leaves out, at once, each name once: a compiler's list,
        // not one --var at a time.
        var missing: [(capture: String, from: String, for: String, spelled: String)] = []
        for (position, request) in all.enumerated() where chosen[position] && requiresCaptures {
            let rowNames = Set(request.row?.values.map(\.name) ?? [])
            // A condition's `exists NAME` judges a missing capture itself: only what it compares is needed.
            let needed = request.variableNames.union(request.conditions.flatMap(\.comparedVariables)).subtracting(rowNames)
            for (index, earlier) in all[..<position].enumerated() where !chosen[index] {
                for capture in earlier.captures where needed.contains(capture.name) && file.scope.values[capture.name] == nil {
                    guard !missing.contains(where: { $0.capture.utf8.elementsEqual(capture.name.utf8) }) else { continue }
                    missing.append((capture.name, earlier.displayName, request.displayName, earlier.source.spelling(ofVariable: capture.name)))
                }
            }
        }
        if let first = missing.first {
            let vars = missing.map { "--var \($0.capture)=VALUE" }.joined(separator: " ")
            let message = missing.count == 1
                ? "the selection leaves out request '\(first.from)', which captures \(first.spelled) for '\(first.for)'; select it too, or pass \(vars)"
                : "the selection leaves out requests whose captures the selected ones use: "
                    + missing.map { "'\($0.from)' captures \($0.spelled) for '\($0.for)'" }.joined(separator: "; ")
                    + "; select them too, or pass \(vars)"
            throw SluiceError(kind: .configuration, message: message)
        }
        return zip(all, chosen).filter(\.1).map(\.0)
    }

    /// The requests' names for a message, the first few of them.
    private static func names(_ requests: [RequestSpec]) -> String {
        let names = requests.map(\.displayName)
        return names.prefix(12).joined(separator: ", ") + (names.count > 12 ? ", and \(names.count - 12) more" : "")
    }

    /// A redactor for this file's secrets.
    public var redactor: Redactor { Redactor(secrets: file.secrets + addedSecrets) }

    /// The file's pipeline as the runner sends through it: the run's ``RunInfo`` put in each
    /// task's storage at the top (its redactor read from `redactor` as each task starts), the
    /// file's stages, and `extra` (the runner's recorder at the bottom).
    package func pipeline(dryRun: Bool, redactor: Locked<Redactor>? = nil, adding extra: [any Stage] = []) throws(SluiceError) -> Pipeline {
        let info = RunInfoStage(isDryRun: dryRun, redactor: redactor ?? Locked(self.redactor))
        // The command line's stages ahead of the file's of the same rank: `-A` over the file's
        // User-Agent, as a command line goes over a configuration.
        return try file.makePipeline(of: addedStages + state.stages, transport: transport, adding: [info] + extra)
    }

    /// Sends the requests one after another. A request whose `when:`/`skip:` says so is skipped;
    /// one with `delay:` waits first; one with `retry:` is sent again until it passes. After a
    /// failure with `failFast`, or in a file that says `fail-fast: true` (a Hurl file unless
    /// `--continue-on-error`), only the requests marked `always` still run; the others are
    /// skipped, each with a reason that names the request that failed.
    /// - Parameters:
    ///   - selection: the requests to run; all by default.
    ///   - requiresMatches: whether an `--only` pattern must match a request of this file.
    ///   - failFast: stop after the first request that fails.
    ///   - stoppedBy: the request (in an earlier file) after whose failure `--fail-fast` stopped
    ///     the run before this file began: only the requests marked `always` run, the others are
    ///     skipped naming it.
    ///   - onResult: called with each result as it is known, for live output.
    /// - Returns: the results, in order.
    /// - Throws: `.configuration` for a selection that
    ///   ``requests(selection:requiresMatches:requiresCaptures:)`` refuses or stages that cannot
    ///   form a pipeline.
    public func run(
        selection: RequestSelection = RequestSelection(),
        requiresMatches: Bool = true,
        failFast: Bool = false,
        stoppedBy: String? = nil,
        onResult: (RequestResult) -> Void = { _ in }
    ) async throws(SluiceError) -> [RequestResult] {
        let selected = try requests(selection: selection, requiresMatches: requiresMatches)
        let redactor = Locked(self.redactor)
        let recorder = SentRequestRecorder(stops: false, recordsExchanges: recordsExchanges)
        let manager = SessionManager(pipeline: try pipeline(dryRun: false, redactor: redactor, adding: [recorder]))
        // A request with stages of its own goes through a chain of its own.
        var managers: [Int: SessionManager] = [:]
        for (index, spec) in selected.enumerated() where !spec.stages.isEmpty {
            managers[index] = SessionManager(pipeline: try pipeline(dryRun: false, redactor: redactor, adding: try spec.makeOwnStages() + [recorder]))
        }
        // On the transport's I/O thread when it has one: each exchange then costs no thread switch.
        return await withTaskExecutorPreference(manager.pipeline.transport.executor) {
            var scope = file.scope
            var missing: [String: String] = [:]
            var results: [RequestResult] = []
            var stoppedBy = stoppedBy
            // The file's own fail-fast stops this file alone; its reason says which stopped it.
            var stoppedHere: String?
            for (index, spec) in selected.enumerated() {
                if let stopped = stoppedBy ?? stoppedHere, !spec.always {
                    // Counted and reported as skipped, never left out: every report says what did not run.
                    var result = PipelineRunner.unsent(spec)
                    result.skipReason = stoppedBy != nil
                        ? "--fail-fast stopped the run after '\(stopped)' failed"
                        : "the file stops after '\(stopped)' failed (fail-fast: true, a Hurl file's default; --continue-on-error runs on)"
                    results.append(result)
                    onResult(result)
                    continue
                }
                let result = await send(spec, manager: managers[index] ?? manager, scope: scope, missing: missing, redactor: redactor.withLock { $0 })
                redactor.withLock { $0 = $0.adding(result.capturedSecrets) }
                for capture in spec.captures {
                    if let value = result.captured[capture.name] {
                        scope.assign(capture.name, value, kind: result.capturedKinds[capture.name], received: true)
                        missing[capture.name] = nil
                    } else {
                        missing[capture.name] = spec.name
                    }
                }
                // A request's variables: hold for the requests after it too, as Hurl's do.
                for pair in spec.variables {
                    guard let name = pair.key.scalar, let value = result.captured[name] else { continue }
                    scope.assign(name, value, received: scope.readsReceivedValue(pair.value))
                    missing[name] = nil
                }
                results.append(result)
                onResult(result)
                if failFast, !result.ok, stoppedBy == nil { stoppedBy = result.name }
                if file.spec.failFast, !result.ok, stoppedHere == nil { stoppedHere = result.name }
            }
            return results
        }
    }

    /// Runs each request through the request half of the chain without sending it.
    /// - Parameters:
    ///   - selection: `--only`, `--tag`, `--skip-tag`; a capture of a request it leaves out shows
    ///     as its placeholder.
    ///   - requiresMatches: whether an `--only` pattern that matches no request of this file is an
    ///     error.
    ///   - checksBodyFiles: whether a body file that the transport could not send (gone,
    ///     unreadable, a directory) makes the request's result an error, as it would in a run; a
    ///     curl command, which names the file, is written without reading it.
    /// - Returns: for each selected request, the request as it would be sent, or why it could
    ///   not be prepared. Captures have no value in a dry run and show as `<NAME>`.
    public func prepare(
        selection: RequestSelection = RequestSelection(), requiresMatches: Bool = true, checksBodyFiles: Bool = true
    ) async throws(SluiceError) -> [PreparedRequest] {
        // A capture of a request left out stands as its placeholder, as every capture does here.
        let selected = try requests(selection: selection, requiresMatches: requiresMatches, requiresCaptures: false)
        let manager = SessionManager(pipeline: try pipeline(dryRun: true, adding: [SentRequestRecorder(stops: true)]))
        var scope = file.scope
        var placeholders: [String] = []
        for capture in file.spec.requests.flatMap(\.captures) where scope.values[capture.name] == nil {
            scope.values[capture.name] = CapturePlaceholder.text(for: capture.name)
            scope.standIns.insert(capture.name)
            placeholders.append(capture.name)
        }
        var prepared: [PreparedRequest] = []
        for spec in selected {
            var written: Request?
            // The request's own `variables:`, set as a run sets them: for it, and for the
            // requests after it.
            var requestScope = scope.adding(spec.row)
            for pair in spec.variables {
                guard let name = pair.key.scalar, let value = try? requestScope.jsonValue(of: pair.value) else { continue }
                requestScope.assign(name, value)
                scope.assign(name, value)
            }
            // A condition that reads only what is known now is judged as the run judges it; one
            // that reads a capture is the run's to judge.
            if let condition = spec.conditions.first(where: { condition in
                condition.variables.allSatisfy { !requestScope.standIns.contains($0) }
                    && !condition.allowsRun(variables: requestScope.values, environment: requestScope.environment)
            }) {
                prepared.append(PreparedRequest(
                    spec: spec, written: nil, result: .failure(SluiceError(kind: .configuration, message: condition.skipReason)), placeholders: placeholders,
                    skipReason: condition.skipReason
                ))
                continue
            }
            do {
                written = try spec.makeRequest(scope: requestScope, directory: spec.source.directory)
                let own = spec.stages.isEmpty ? manager : SessionManager(pipeline: try pipeline(dryRun: true, adding: try spec.makeOwnStages() + [SentRequestRecorder(stops: true)]))
                let handle = own.task(written!)
                do {
                    _ = try await handle.value
                } catch let error as SluiceError where !(error.underlying is SentRequestRecorder.Stop) {
                    throw error
                } catch {}
                guard let request = handle.context.storage[SentRequestRecorder.Key.self] else {
                    throw SluiceError(kind: .invalidRequest, message: "the request did not reach the transport")
                }
                // The body's files, checked as the transport checks them before it sends: a file
                // that a run could not send is this request's error, not an empty body.
                if checksBodyFiles { _ = try UploadSource(request.body, url: request.url) }
                prepared.append(PreparedRequest(spec: spec, written: written, result: .success(request), placeholders: placeholders))
            } catch {
                prepared.append(PreparedRequest(
                    spec: spec, written: written, result: .failure(SluiceError.wrapping(error, stage: nil, url: nil)), placeholders: placeholders
                ))
            }
        }
        return prepared
    }

    /// The result of `spec` before it is sent: its name, place, tags and the checks it holds.
    private static func unsent(_ spec: RequestSpec) -> RequestResult {
        var result = RequestResult(
            name: spec.displayName, mark: spec.mark, method: spec.method, url: spec.path.scalar ?? "", sent: nil, response: nil,
            duration: .zero, error: nil, failures: [], captured: [:]
        )
        result.file = spec.source.path
        result.tags = spec.tags
        result.expectations = checkedItems(spec.expectations) + checkedItems(spec.captures)
        return result
    }

    /// Expectations as a result lists them.
    private static func checkedItems(_ expectations: [Expectation]) -> [RequestResult.CheckedItem] {
        expectations.map { RequestResult.CheckedItem(label: $0.label, mark: $0.mark) }
    }

    /// Captures as a result lists them: `capture NAME`.
    private static func checkedItems(_ captures: [Capture]) -> [RequestResult.CheckedItem] {
        captures.map { RequestResult.CheckedItem(label: "capture \($0.name)", mark: $0.mark) }
    }

    /// Runs one request of the file: checks its conditions, waits its `delay`, sends it (again,
    /// as `retry` allows, until it passes) and checks it; `redactor` says which captured values
    /// hold a secret.
    private func send(_ spec: RequestSpec, manager: SessionManager, scope: VariableScope, missing: [String: String], redactor: Redactor) async -> RequestResult {
        var scope = scope.adding(spec.row)
        // The request's own `variables:`, in order, each seeing those before it; later requests
        // see them as they see its captures.
        var assigned: [(name: String, value: JSONValue)] = []
        for pair in spec.variables {
            guard let name = pair.key.scalar, let value = try? scope.jsonValue(of: pair.value) else { continue }
            scope.assign(name, value, received: scope.readsReceivedValue(pair.value))
            assigned.append((name, value))
        }
        var result = PipelineRunner.unsent(spec)
        if let condition = spec.conditions.first(where: { !$0.allowsRun(variables: scope.values, environment: scope.environment) }) {
            result.skipReason = condition.skipReason
            return result
        }
        if let name = spec.variableNames.sorted().first(where: { scope.values[$0] == nil }) {
            let source = missing[name].map { "request '\($0)' did not capture it" } ?? "nothing supplied it"
            // Skipped, as a condition skips: one outcome in every report; the request that did not
            // capture the value has failed already, so the run still fails.
            result.skipReason = "\(spec.source.spelling(ofVariable: name)) has no value: \(source)"
            return result
        }
        let began = ContinuousClock.now
        if let delay = spec.delay { try? await Task.sleep(for: delay) }
        let attempts = spec.retry?.attempts ?? 1
        // A FIFO that several attempts may write to is held open across them, so that its reader
        // sees one stream with one end, as curl keeps its output open across --retry.
        let heldFIFO = attempts > 1 ? openedFIFO(spec, scope: scope) : nil
        defer { if let heldFIFO { close(heldFIFO) } }
        var history: [RequestResult.Attempt] = []
        for number in 1...attempts {
            if number > 1, let interval = spec.retry?.interval {
                do { try await Task.sleep(for: interval) } catch { break }
            }
            result = await attempt(spec, into: result, manager: manager, scope: scope, redactor: redactor)
            for (name, value) in assigned where result.captured[name] == nil { result.captured[name] = value }
            if spec.retry != nil {
                history.append(RequestResult.Attempt(number: number, status: result.status, duration: result.duration, error: result.error, failures: result.failures))
                result.attempts = history
            }
            if result.ok || Task.isCancelled { break }
        }
        if spec.delay != nil || spec.retry != nil { result.totalDuration = ContinuousClock.now - began }
        return result
    }

    /// A descriptor of the request's `output:` when it names a FIFO, opened for writing (waiting
    /// for its reader); `nil` for any other output, or none.
    private func openedFIFO(_ spec: RequestSpec, scope: VariableScope) -> Int32? {
        guard spec.output != nil, let request = try? spec.makeRequest(scope: scope, directory: spec.source.directory),
            case .file(let url) = request.destination,
            let target = try? OutputTarget(path: url.path, role: "the output", stage: "output"), target.kind == .fifo
        else { return nil }
        return try? target.openSpecial()
    }

    /// Sends the request once and checks it: what `result` holds of an earlier attempt is replaced.
    private func attempt(_ spec: RequestSpec, into result: RequestResult, manager: SessionManager, scope: VariableScope, redactor: Redactor) async -> RequestResult {
        var result = result
        result.error = nil
        result.failures = []
        result.captured = [:]
        result.capturedKinds = [:]
        result.notJudged = nil
        if spec.cookieJar == .clear { state.cookies.jar.removeAll() }
        let request: Request
        do {
            for cookie in try spec.cookiesToStore(scope: scope) { state.cookies.jar.insert(cookie) }
            request = try spec.makeRequest(scope: scope, directory: spec.source.directory)
        } catch {
            result.error = RequestResult.Failure(error)
            if !result.expectations.isEmpty {
                result.notJudged = RequestResult.NotJudged(reason: "the request was not sent", items: result.expectations)
            }
            return result
        }
        let jar = state.cookies.jar
        let outcome = await PipelineRunner.exchange(spec, request: request, manager: manager, scope: scope, jar: jar)
        result.sent = outcome.sent
        result.exchanges = outcome.exchanges
        // A cache hit sends nothing: the first hop the redirect stage followed, or else the stored
        // response, says what was asked for.
        result.url = outcome.sent?.url.absoluteString ?? outcome.requestedURL?.absoluteString ?? outcome.response?.url?.absoluteString ?? request.url.absoluteString
        result.response = outcome.response
        result.duration = outcome.duration
        result.error = outcome.error
        result.failures = outcome.failures
        result.notJudged = outcome.notJudged
        result.notes = outcome.notes
        result.metrics = outcome.metrics
        // The values of HttpOnly cookies are credentials: hidden from here on, in this result too.
        result.capturedSecrets += jar.credentials.filter { credential in !redactor.secrets.contains { $0.hasSameCodePoints(as: credential) } }
        for (name, value, kind) in outcome.captured {
            result.captured[name] = value
            result.capturedKinds[name] = kind
            let text = VariableScope.text(of: value)
            if redactor.reveals(text) || redactor.isPieceOfSecret(text) { result.capturedSecrets.append(text) }
        }
        return result
    }

    /// What one exchange gave: the request as sent, the response, the time, and what failed.
    package struct Outcome {
        var sent: Request?
        package var response: Response?
        var duration: Duration
        package var error: RequestResult.Failure?
        package var failures: [ExpectationFailure]
        /// Whether the expectations are judged although ``error`` is set: response decoding
        /// refused a response that arrived, and the user's checks are reported beside its verdict.
        var judgesBesideError = false
        /// The checks and captures the error kept from being judged, and why.
        var notJudged: RequestResult.NotJudged?
        /// The body as JSON, read once when an expectation or a capture needs it.
        var body: JSONValue?
        /// The cookies the run's jar holds for the response's URL after the exchange, when an
        /// expectation or a capture reads them.
        var cookies: [Cookie] = []
        /// What the captures took, in the order they are written, with the kind of a date or
        /// bytes.
        var captured: [(name: String, value: JSONValue, kind: VariableScope.Kind?)] = []
        /// The redirects the request followed.
        var redirects: [RedirectHop] = []
        /// Every exchange on the wire, when the runner records them.
        var exchanges: [RequestResult.Exchange] = []
        /// The URL of the first hop, when a redirect was followed: what was asked for, where a
        /// cache answered the first hop and `sent` is `nil`.
        var requestedURL: URL?
        /// What the stages reported (retries, token refreshes).
        var notes: [StageNote] = []
        /// The time in each stage and the wire metrics of each exchange.
        package var metrics: TaskMetrics?
    }

    /// Sends a prepared request through `manager` and checks the expectations. A response that
    /// arrived is kept even when a stage refused it, so every output shows its status, headers and
    /// size. When response decoding refused a response that arrived, the expectations are judged
    /// all the same and reported beside its verdict, never hidden behind it. A status failure
    /// yields to the request's own `expect.status`, which then decides; a content-type or
    /// decoding failure behind it stands, unless `expect.status` accepts a status outside 2xx
    /// (Hurl's `HTTP 404`): an error page is not failed for its type.
    nonisolated(nonsending) package static func exchange(_ spec: RequestSpec, request: Request, manager: SessionManager, scope: VariableScope, jar: CookieJar? = nil) async -> Outcome {
        if let reading = spec.events {
            return await exchangeEvents(reading, spec: spec, request: request, manager: manager, scope: scope, jar: jar)
        }
        var request = request
        // A body both checked and written to `output:` is kept to be checked, then written, as
        // Hurl checks a body it writes (memory bounded by max-response-size then); so is one
        // whose status a stage may refuse and `expect.status` overrule, since a refused
        // response's streamed file is discarded.
        var output: URL?
        if spec.readsBody || spec.acceptsStatusOutsideSuccess, case .file(let url) = request.destination {
            output = url
            request.destination = .memory
        }
        let start = ContinuousClock.now
        // Started here and run on this thread until the exchange: the clock covers the stages.
        let handle = manager.task(request, startsImmediately: true)
        let ended: Result<Response, any Error>
        do {
            // Cancelling the caller (a load run's grace period over) cancels the exchange.
            ended = .success(try await withTaskCancellationHandler { try await handle.value } onCancel: { handle.cancel() })
        } catch {
            ended = .failure(error)
        }
        return outcome(of: handle, ended: ended, start: start, spec: spec, request: request, output: output, scope: scope, jar: jar)
    }

    /// What a task that ended as `ended` gave, its expectations checked and its body written to
    /// `output`. Out of line: the exchange's frame, which every request in flight holds, keeps
    /// none of what this builds.
    @inline(never)
    private static func outcome(
        of handle: TaskHandle, ended: Result<Response, any Error>, start: ContinuousClock.Instant,
        spec: RequestSpec, request: Request, output: URL?, scope: VariableScope, jar: CookieJar?
    ) -> Outcome {
        var outcome = Outcome(duration: ContinuousClock.now - start, failures: [])
        // The response whose body `output:` gets: one no stage refused, or one a stage refused
        // and the request's own `expect.status` accepts.
        var kept: Response?
        switch ended {
        case .success(let response):
            outcome.response = response
            kept = response
        case .failure(let error as SluiceError):
            outcome.response = error.response
            if let response = error.response, [.unacceptableStatus, .unacceptableContentType, .decoding].contains(error.kind) {
                outcome.judgesBesideError = true
                var verdict: SluiceError? = error
                if error.kind == .unacceptableStatus, spec.expectsStatus {
                    verdict = error.underlying as? SluiceError
                }
                if verdict?.kind != .unacceptableStatus, !(200..<300).contains(response.status), spec.acceptsStatus(response.status) {
                    verdict = nil
                }
                outcome.error = verdict.map(RequestResult.Failure.init)
                if verdict == nil, spec.acceptsStatus(response.status) { kept = response }
            } else {
                outcome.error = RequestResult.Failure(error)
            }
        case .failure(let error):
            outcome.error = RequestResult.Failure(stage: nil, kind: "stage failure", message: "\(error)")
        }
        outcome.sent = handle.context.storage[SentRequestRecorder.Key.self]
        outcome.exchanges = handle.context.storage[SentRequestRecorder.Exchanges.self] ?? []
        let followed = handle.context.storage[Redirection.Followed.self] ?? []
        outcome.redirects = followed.map { RedirectHop(status: $0.status, location: $0.to.absoluteString) }
        outcome.requestedURL = followed.first?.from
        outcome.notes = handle.context.notes
        outcome.metrics = handle.context.metrics
        check(&outcome, spec: spec, request: request, scope: scope, jar: jar)
        if let output, let response = kept {
            do {
                try OutputFile.write(response.body, to: output.path, role: "the output")
            } catch {
                outcome.error = outcome.error ?? RequestResult.Failure(error)
            }
        }
        return outcome
    }

    /// The exchange of a request that reads a stream of server-sent events.
    private static func exchangeEvents(
        _ reading: EventReading, spec: RequestSpec, request: Request, manager: SessionManager, scope: VariableScope, jar: CookieJar?
    ) async -> Outcome {
        let start = ContinuousClock.now
        var outcome = Outcome(sent: request, duration: .zero, failures: [])
        switch await readEvents(reading, request: request, manager: manager) {
        case .success(let response):
            outcome.response = response
            // The URL the stages resolved, which the response names: `request` is as the
            // file wrote it.
            if let url = response.url { outcome.sent?.url = url }
        case .failure(let error):
            outcome.response = error.response
            outcome.error = RequestResult.Failure(error)
            if let url = error.response?.url ?? error.url { outcome.sent?.url = url }
        }
        outcome.duration = ContinuousClock.now - start
        check(&outcome, spec: spec, request: request, scope: scope, jar: jar)
        return outcome
    }

    /// Takes the outcome's captures and then checks its expectations (which may read those
    /// captures, as in Hurl), when a response arrived and no stage failed. In place: an outcome
    /// holds the request, the response and the metrics, and every copy retains each of them.
    ///
    /// After a failure the checks are still reported: with no response, each as not judged; with
    /// a response whose transfer failed after its head (a body cut short, a timeout mid-body),
    /// the checks of the head are judged and the others, and the captures, are not.
    private static func check(_ outcome: inout Outcome, spec: RequestSpec, request: Request, scope: VariableScope, jar: CookieJar?) {
        if outcome.error != nil, !outcome.judgesBesideError {
            judgeHead(&outcome, spec: spec, scope: scope)
            return
        }
        guard let response = outcome.response else { return }
        outcome.body = spec.readsJSONBody ? response.jsonBody : nil
        if spec.readsCookies, let jar {
            outcome.cookies = jar.cookies(for: response.url ?? outcome.sent?.url ?? request.url)
        }
        let exchange = CheckedExchange(
            response: response, body: outcome.body, duration: outcome.duration, cookies: outcome.cookies, redirects: outcome.redirects, scope: scope
        )
        var failures: [ExpectationFailure] = []
        let checksReadCaptures = spec.checksMayReadVariables
        for capture in spec.captures {
            do {
                if let (value, kind) = try capture.value(in: exchange) {
                    outcome.captured.append((capture.name, value, kind))
                    if checksReadCaptures { exchange.scope.assign(capture.name, value, kind: kind, received: true) }
                } else {
                    failures.append(ExpectationFailure(label: "capture \(capture.name)", mark: capture.mark, expected: "a value to capture", actual: "none in the response"))
                }
            } catch {
                failures.append(ExpectationFailure(label: "capture \(capture.name)", mark: capture.mark, expected: "a value to capture", actual: error.message))
            }
        }
        outcome.failures = spec.expectations.compactMap { $0.evaluate(in: exchange) } + failures
    }

    /// The checks of an exchange that failed: those of the head judged when a head came, every
    /// other one, and every capture, listed as not judged. A failed request captures nothing:
    /// the requests that use its captures are skipped, naming it.
    private static func judgeHead(_ outcome: inout Outcome, spec: RequestSpec, scope: VariableScope) {
        guard !spec.expectations.isEmpty || !spec.captures.isEmpty else { return }
        guard let response = outcome.response else {
            outcome.notJudged = RequestResult.NotJudged(reason: "no response came", items: checkedItems(spec.expectations) + checkedItems(spec.captures))
            return
        }
        let exchange = CheckedExchange(
            response: response, body: nil, duration: outcome.duration, cookies: [], redirects: outcome.redirects, scope: scope
        )
        let (head, rest) = (spec.expectations.filter(\.readsHeadOnly), spec.expectations.filter { !$0.readsHeadOnly })
        outcome.failures = head.compactMap { $0.evaluate(in: exchange) }
        let unjudged = checkedItems(rest) + checkedItems(spec.captures)
        if !unjudged.isEmpty {
            outcome.notJudged = RequestResult.NotJudged(reason: "the exchange failed after the response head came", items: unjudged)
        }
    }
}
