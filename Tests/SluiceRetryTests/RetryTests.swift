import Foundation
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import Testing
@testable import SluiceRetry

/// Values shared between a test and the closures it hands to a stage.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func update(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}

@Suite("retry")
struct RetryTests {
    /// A pipeline of `retry` over a transport that answers from `answers` in turn (the last one
    /// again once they run out), recording the waits instead of sleeping.
    private func run(
        _ answers: [Result<Response, SluiceError>],
        retry: (Shared<[Duration]>) -> Retry = { waits in Retry(jitter: { $0 }, sleep: { d in waits.update { $0.append(d) } }) },
        method: HTTPMethod = .get
    ) async throws -> (result: Result<Response, SluiceError>, calls: Int, waits: [Duration], metrics: TaskMetrics) {
        let calls = Shared(0)
        let waits = Shared<[Duration]>([])
        let transport = InMemoryTransport { request in
            let index = min(calls.value, answers.count - 1)
            calls.update { $0 += 1 }
            return try answers[index].map { response in
                var response = response
                response.url = request.url
                return response
            }.get()
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [retry(waits)], transport: transport, redirects: nil))
        let handle = manager.task(Request(method: method, url: URL(string: "http://a.test/x")!, body: method == .post ? .data(Data("b".utf8)) : .none))
        let result: Result<Response, SluiceError>
        do {
            result = .success(try await handle.value)
        } catch let error as SluiceError {
            result = .failure(error)
        }
        return (result, calls.value, waits.value, handle.context.metrics)
    }

    private static func status(_ code: Int, headers: HTTPHeaders = [:]) -> Result<Response, SluiceError> {
        .success(Response(status: code, headers: headers))
    }

    private static func failure(_ kind: SluiceError.Kind) -> Result<Response, SluiceError> {
        .failure(SluiceError(kind: kind, stage: "transport", message: "\(kind)"))
    }

    @Test("a retryable status is sent again until it succeeds; each attempt is a note and a transfer")
    func statuses() async throws {
        let run = try await run([Self.status(503), Self.status(502), Self.status(200)])
        #expect(try run.result.get().status == 200)
        #expect(run.calls == 3)
        #expect(run.metrics.transfers.count == 3)
        #expect(run.metrics.notes.map(\.name) == ["attempt", "attempt"])
        #expect(run.metrics.notes.map(\.detail) == [
            "attempt 2 of 3 after status 503, waiting 200 ms", "attempt 3 of 3 after status 502, waiting 400 ms",
        ])
        #expect(run.metrics.notes.allSatisfy { $0.stage == "retry" })
        #expect(run.waits == [.milliseconds(200), .milliseconds(400)])
    }

    @Test("after the last attempt the last response is returned, and the note says so")
    func givesUp() async throws {
        let run = try await run([Self.status(500)])
        #expect(try run.result.get().status == 500)
        #expect(run.calls == 3)
        #expect(run.metrics.notes.last?.name == "gave-up")
        #expect(run.metrics.notes.last?.detail == "gave up after 3 attempts; the last ended with status 500")
    }

    @Test("statuses outside the list are returned at once")
    func otherStatuses() async throws {
        for code in [200, 201, 400, 401, 404, 501] {
            let run = try await run([Self.status(code), Self.status(200)])
            #expect(try run.result.get().status == code)
            #expect(run.calls == 1)
        }
    }

    @Test("only idempotent methods are retried unless methods says otherwise")
    func methods() async throws {
        let post = try await run([Self.status(503), Self.status(200)], method: .post)
        #expect(try post.result.get().status == 503)
        #expect(post.calls == 1)
        let allowed = try await run(
            [Self.status(503), Self.status(200)],
            retry: { waits in Retry(methods: [.post], jitter: { $0 }, sleep: { d in waits.update { $0.append(d) } }) },
            method: .post
        )
        #expect(try allowed.result.get().status == 200)
        #expect(allowed.calls == 2)
    }

    @Test("connection refused, lost, timed out: retried", arguments: [SluiceError.Kind.connect, .connectTimeout, .connectionLost, .timeout])
    func transientErrors(kind: SluiceError.Kind) async throws {
        let run = try await run([Self.failure(kind), Self.status(200)])
        #expect(try run.result.get().status == 200)
        #expect(run.calls == 2)
        #expect(run.metrics.notes.first?.detail == "attempt 2 of 3 after \(kind), waiting 200 ms")
    }

    @Test(
        "trust, TLS, DNS, cancellation, configuration and other errors: never retried",
        arguments: [SluiceError.Kind.trustEvaluation, .tls, .dns, .cancelled, .configuration, .invalidRequest, .protocolError, .stage]
    )
    func permanentErrors(kind: SluiceError.Kind) async throws {
        let run = try await run([Self.failure(kind), Self.status(200)])
        guard case .failure(let error) = run.result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.kind == kind)
        #expect(run.calls == 1)
        #expect(run.metrics.notes.isEmpty)
    }

    @Test("a status refused by response decoding below the stage is retried like the status")
    func unacceptableStatus() async throws {
        let refused = SluiceError(kind: .unacceptableStatus, stage: "response-decoding", message: "503", response: Response(status: 503))
        let run = try await run([.failure(refused), Self.status(200)])
        #expect(try run.result.get().status == 200)
        #expect(run.calls == 2)
    }

    @Test("Retry-After in seconds and as an HTTP-date sets the wait; one longer than max-delay is not retried")
    func retryAfter() async throws {
        let seconds = try await run([Self.status(503, headers: ["Retry-After": "2"]), Self.status(200)])
        #expect(seconds.waits == [.seconds(2)])
        #expect(seconds.calls == 2)

        let now = Date(timeIntervalSince1970: 784_111_774)  // Sun, 06 Nov 1994 08:49:34 GMT
        let dated = try await run(
            [Self.status(429, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"]), Self.status(200)],
            retry: { waits in Retry(jitter: { $0 }, sleep: { d in waits.update { $0.append(d) } }, now: { now }) }
        )
        #expect(dated.waits == [.seconds(3)])
        #expect(try dated.result.get().status == 200)

        let tooLong = try await run([Self.status(503, headers: ["Retry-After": "60"]), Self.status(200)])
        #expect(try tooLong.result.get().status == 503)
        #expect(tooLong.calls == 1)
        #expect(tooLong.metrics.notes.map(\.detail) == ["status 503 asks to retry after 60000 ms, more than max-delay 10000 ms"])
        // Past what an Int of milliseconds holds: said in seconds, never a trap (a hostile server's).
        let huge = try await run([Self.status(503, headers: ["Retry-After": "99999999999999999999"]), Self.status(200)])
        #expect(try huge.result.get().status == 503)
        #expect(huge.metrics.notes.map(\.detail) == ["status 503 asks to retry after \(Int.max) s, more than max-delay 10000 ms"])

        let garbage = try await run([Self.status(503, headers: ["Retry-After": "soon"]), Self.status(200)])
        #expect(garbage.waits == [.milliseconds(200)])
    }

    @Test("Retry-After's three date forms, and what is not a date")
    func httpDates() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(RetryAfter.httpDate("Sun Nov  6 08:49:37 1994") == expected)
        for text in ["", "tomorrow", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"] {
            #expect(RetryAfter.httpDate(text) == nil, "\(text)")
        }
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: expected.addingTimeInterval(5)) == .zero)
        #expect(RetryAfter.delay(" 7 ", now: expected) == .seconds(7))
        #expect(RetryAfter.delay("-1", now: expected) == nil)
    }

    @Test("backoff: full jitter under a ceiling that doubles up to max-delay")
    func backoff() {
        let highest = Retry(baseDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: { $0 })
        #expect((1...6).map { highest.backoff(beforeRetry: $0) } == [100, 200, 400, 800, 1000, 1000].map { .milliseconds($0) })
        let lowest = Retry(jitter: { _ in 0 })
        #expect(lowest.backoff(beforeRetry: 3) == .zero)
        let random = Retry(baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        for retry in 1...80 {
            let wait = random.backoff(beforeRetry: retry)
            #expect(wait >= .zero && wait <= .seconds(1))
        }
    }

    /// The wait is an hour, so a cancellation that did not end it would run into the time limit;
    /// no tighter clock is read, since a loaded CI machine can delay the cancelled task by many
    /// seconds (it took 16 s once while other suites were blocking the thread pool).
    @Test("cancelling the task ends a wait at once with .cancelled", .timeLimit(.minutes(1)))
    func cancellation() async throws {
        let calls = Shared(0)
        let transport = InMemoryTransport { _ in
            calls.update { $0 += 1 }
            return Response(status: 503)
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [Retry(baseDelay: .seconds(3_600), maxDelay: .seconds(3_600), jitter: { $0 })], transport: transport, redirects: nil))
        let handle = manager.task(Request(url: URL(string: "http://a.test/x")!))
        while handle.context.metrics.notes.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        handle.cancel()
        await #expect(throws: SluiceError.self) { try await handle.value }
        do {
            _ = try await handle.value
        } catch let error as SluiceError {
            #expect(error.kind == .cancelled)
        }
        #expect(calls.value == 1)
    }

    @Test("event monitors receive each retry as a note")
    func events() async throws {
        final class Notes: EventMonitor, @unchecked Sendable {
            let seen = Shared<[StageNote]>([])
            func receive(_ event: TaskEvent) {
                if case .note(let note) = event.kind { seen.update { $0.append(note) } }
            }
        }
        let monitor = Notes()
        let calls = Shared(0)
        let transport = InMemoryTransport { _ in
            calls.update { $0 += 1 }
            return Response(status: calls.value < 3 ? 503 : 200)
        }
        let manager = SessionManager(
            pipeline: try Pipeline(stages: [Retry(jitter: { _ in 0 })], transport: transport, redirects: nil),
            monitors: [monitor]
        )
        _ = try await manager.send(Request(url: URL(string: "http://a.test/x")!))
        #expect(monitor.seen.value.map(\.name) == ["attempt", "attempt"])
    }

    @Test("the descriptor: defaults, and options it refuses at their line")
    func descriptor() throws {
        var registry = StageRegistry.builtIn
        try registry.register(RetryModule.self)
        let file = try PipelineFile.load(
            text: "stages:\n  - retry: { attempts: 5, base-delay: 50ms, max-delay: 2s, statuses: [503, 5xx], methods: [get, post] }\nrequests: []\n",
            path: "r.yaml", environment: [:], registry: registry
        )
        let retry = try #require(file.stages.first as? Retry)
        #expect(retry.attempts == 5)
        #expect(retry.baseDelay == .milliseconds(50))
        #expect(retry.maxDelay == .seconds(2))
        #expect(retry.statuses.contains(599) && !retry.statuses.contains(429))
        #expect(retry.methods == [.get, .post])
        let defaults = try PipelineFile.load(text: "stages: [retry]\nrequests: []\n", path: "r.yaml", environment: [:], registry: registry)
        let standard = try #require(defaults.stages.first as? Retry)
        #expect(standard.attempts == 3 && standard.statuses == Retry.defaultStatuses && standard.methods == Retry.idempotentMethods)

        for (text, message) in [
            ("attempts: 0", "r.yaml:2:14: error: attempts must be at least 1"),
            ("base-delay: 5s, max-delay: 1s", "r.yaml:2:30: error: max-delay must be at least base-delay"),
            ("statuses: [abc]", "r.yaml:2:25: error: statuses must be a status code, range or class (200, 200-299, 2xx), not 'abc'"),
        ] {
            #expect(throws: PipelineFileError.self) {
                try PipelineFile.load(text: "stages:\n  - retry: { \(text) }\nrequests: []\n", path: "r.yaml", environment: [:], registry: registry)
            }
            do {
                _ = try PipelineFile.load(text: "stages:\n  - retry: { \(text) }\nrequests: []\n", path: "r.yaml", environment: [:], registry: registry)
            } catch {
                #expect(error.description == message)
            }
        }
    }
}
