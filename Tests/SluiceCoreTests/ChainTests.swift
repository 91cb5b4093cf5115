import Foundation
import Testing
@testable import SluiceCore

@Suite("The stage chain")
struct ChainTests {
    @Test("requests flow top to bottom and responses bottom to top")
    func order() async throws {
        let log = Log()
        let pipeline = try Pipeline(stages: [Tracer(name: "A", log: log), Tracer(name: "B", log: log), Tracer(name: "C", log: log)], transport: echoTransport())
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: exampleURL))
        #expect(log.all == ["A", "B", "C", "C'", "B'", "A'"])
        #expect(String(decoding: response.body, as: UTF8.self) == "A,B,C")
        #expect(response.headers.values(for: "X-Trace-Back") == ["C", "B", "A"])
    }

    @Test("a stage that does not call next short-circuits the stages below and the transport")
    func shortCircuit() async throws {
        struct Cached: Stage {
            func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                Response(status: 203, body: Data("cached".utf8))
            }
        }
        let calls = Counter()
        let log = Log()
        let pipeline = try Pipeline(stages: [Tracer(name: "A", log: log), Cached(), Tracer(name: "B", log: log)], transport: echoTransport(calls: calls))
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: exampleURL))
        #expect(response.status == 203)
        #expect(calls.count == 0)
        #expect(log.all == ["A", "A'"])
    }

    @Test("a stage may call next twice: a retry re-runs every stage below it")
    func retryByCallingNextTwice() async throws {
        struct RetryOnce: Stage {
            func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                let first = try await next(request, context)
                guard first.status == 503 else { return first }
                return try await next(request, context)
            }
        }
        let calls = Counter()
        let transport = InMemoryTransport { _ in
            Response(status: calls.increment() == 1 ? 503 : 200)
        }
        let log = Log()
        let manager = SessionManager(pipeline: try Pipeline(stages: [RetryOnce(), Tracer(name: "B", log: log)], transport: transport))
        let handle = manager.task(Request(url: exampleURL))
        let response = try await handle.value
        #expect(response.status == 200)
        #expect(calls.count == 2)
        #expect(log.all == ["B", "B'", "B", "B'"])
        let metrics = handle.context.metrics
        #expect(metrics.stages.map(\.invocations) == [1, 2, 2], "RetryOnce, B, and the pipeline's redirect stage")
        #expect(metrics.transfers.count == 2)
    }

    @Test("an error thrown by a stage names the stage and reaches the caller as a SluiceError")
    func stageError() async throws {
        struct Refuse: RequestStage {
            struct Refused: Error {}
            var name: String { "refuse" }
            func prepare(_ request: Request, context: TaskContext) async throws -> Request { throw Refused() }
        }
        let calls = Counter()
        let log = Log()
        let manager = SessionManager(pipeline: try Pipeline(stages: [Tracer(name: "A", log: log), Refuse()], transport: echoTransport(calls: calls)))
        let error = await #expect(throws: SluiceError.self) {
            try await manager.send(Request(url: exampleURL))
        }
        #expect(error?.kind == .stage)
        #expect(error?.stage == "refuse")
        #expect(error?.url == exampleURL)
        #expect(error?.underlying is Refuse.Refused)
        #expect(calls.count == 0)
        #expect(log.all == ["A"])
    }

    @Test("a transport error keeps naming the transport as it passes up through the stages")
    func transportErrorKeepsItsSource() async throws {
        let transport = InMemoryTransport { request in
            throw SluiceError(kind: .connect, url: request.url, message: "refused")
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [Tracer(name: "A", log: Log())], transport: transport))
        let error = await #expect(throws: SluiceError.self) {
            try await manager.send(Request(url: exampleURL))
        }
        #expect(error?.kind == .connect)
        #expect(error?.stage == "transport")
    }

    @Test("each stage's own time is recorded, without the time spent below it")
    func perStageTiming() async throws {
        struct Sleep: Stage {
            let name: String
            let duration: Duration
            func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                try await Task.sleep(for: duration)
                return try await next(request, context)
            }
        }
        // The outer stage has no suspension point of its own, so its time is synchronous code only
        // and stays far below the inner stage's sleep however loaded the machine is.
        let manager = SessionManager(pipeline: try Pipeline(
            stages: [Tracer(name: "outer", log: Log()), Sleep(name: "inner", duration: .milliseconds(300))],
            transport: echoTransport(),
            redirects: nil
        ))
        let handle = manager.task(Request(url: exampleURL))
        _ = try await handle.value
        let stages = handle.context.metrics.stages
        #expect(stages.map(\.name) == ["outer", "inner"])
        #expect(stages[1].duration >= .milliseconds(300))
        #expect(stages[0].duration < .milliseconds(300))
        #expect(stages.allSatisfy { $0.invocations == 1 })
    }

    @Test("a stage's own time leaves out a one-sided run below it, and the transport however often it is called")
    func ownTimeLeavesOutEverythingBelow() async throws {
        struct SlowPrepare: RequestStage {
            var name: String { "slow" }
            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                try await Task.sleep(for: .milliseconds(300))
                return request
            }
        }
        struct SendTwice: Stage {
            var name: String { "twice" }
            func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                _ = try await next(request, context)
                return try await next(request, context)
            }
        }
        let transport = InMemoryTransport { request in
            try await Task.sleep(for: .milliseconds(150))
            return Response(status: 200, url: request.url)
        }
        // Neither the outer stage nor the one that sends twice has a suspension point of its own:
        // their times are synchronous code only, far below what they would be with the 300 ms
        // below each of them counted in.
        let manager = SessionManager(pipeline: try Pipeline(
            stages: [Tracer(name: "outer", log: Log()), SlowPrepare(), SendTwice()], transport: transport, redirects: nil
        ))
        let handle = manager.task(Request(url: exampleURL))
        _ = try await handle.value
        let stages = handle.context.metrics.stages
        #expect(stages.map(\.name) == ["outer", "slow", "twice"])
        #expect(stages[0].duration < .milliseconds(300))
        #expect(stages[1].duration >= .milliseconds(300))
        #expect(stages[2].duration < .milliseconds(300))
        #expect(stages.allSatisfy { $0.invocations == 1 })
    }

    @Test("request-only and response-only stages write one method")
    func helperProtocols() async throws {
        struct AddHeader: RequestStage {
            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                var request = request
                request.headers.add(name: "X-Trace", value: "added")
                return request
            }
        }
        struct Uppercase: ResponseStage {
            func process(_ response: Response, for request: Request, context: TaskContext) async throws -> Response {
                var response = response
                response.body = Data(String(decoding: response.body, as: UTF8.self).uppercased().utf8)
                return response
            }
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [Uppercase(), AddHeader()], transport: echoTransport()))
        let response = try await manager.send(Request(url: exampleURL))
        #expect(String(decoding: response.body, as: UTF8.self) == "ADDED")
    }

    /// Which of the one-sided stages of the folding test are synchronous.
    enum Synchrony: CaseIterable {
        case none, all, alternate
    }

    @Test(
        "runs of one-sided stages, folded into one handler, behave exactly as the same stages nested one by one, synchronous or not",
        arguments: Synchrony.allCases
    )
    func foldedStagesBehaveAsNested(synchrony: Synchrony) async throws {
        let log = Log()
        func synchronous(_ position: Int) -> Bool {
            switch synchrony {
            case .none: false
            case .all: true
            case .alternate: position.isMultiple(of: 2)
            }
        }
        func mark(_ name: String, at position: Int, failing: String?) -> any Stage {
            synchronous(position) ? MarkNow(name: name, fails: failing == name) : Mark(name: name, fails: failing == name)
        }
        func note(_ name: String, at position: Int, failing: String?) -> any Stage {
            synchronous(position) ? NoteNow(name: name, fails: failing == name) : Note(name: name, fails: failing == name)
        }
        func chain(failing: String?) -> [any Stage] {
            [
                mark("A", at: 0, failing: failing), note("B", at: 1, failing: failing), Tracer(name: "T", log: log),
                mark("C", at: 3, failing: failing), note("D", at: 4, failing: failing), note("E", at: 5, failing: failing),
                mark("F", at: 6, failing: failing),
            ]
        }
        for failing in [nil, "A", "B", "C", "D", "E", "F", "transport"] {
            let stages = chain(failing: failing)
            let folded = try await outcome(stages, transportFails: failing == "transport")
            let nested = try await outcome(stages.map { $0 is Tracer<AtCall> ? $0 : Nested(inner: $0) }, transportFails: failing == "transport")
            #expect(folded == nested, "failing: \(failing ?? "none")")
            #expect(folded.events.count == 14 || failing != nil)
        }
        let clean = try await outcome(chain(failing: nil), transportFails: false)
        #expect(clean.body == "A,T,C,F")
        #expect(clean.seen == ["E:A+T+C", "D:A+T+C", "B:A"])
        #expect(clean.invocations == [1, 1, 1, 1, 1, 1, 1])
        let refused = try await outcome(chain(failing: "transport"), transportFails: true)
        #expect(refused.error == "stage failure in transport: transport refused")
        let refusedByC = try await outcome(chain(failing: "C"), transportFails: false)
        #expect(refusedByC.error == "stage failure in C: C refused")
        #expect(refusedByC.events == ["enter A", "enter B", "enter T", "enter C", "leave C", "leave T", "leave B", "leave A"])
    }

    @Test("the result builder keeps order and takes if, if/else and for; the redirect stage goes last")
    func resultBuilder() async throws {
        let log = Log()
        let verbose = true
        let quiet = false
        let pipeline = try Pipeline(transport: echoTransport()) {
            Tracer(name: "first", log: log)
            if verbose { Tracer(name: "verbose", log: log) }
            if quiet { Tracer(name: "quiet", log: log) }
            if quiet { Tracer(name: "then", log: log) } else { Tracer(name: "else", log: log) }
            for index in 1...2 { Tracer(name: "loop\(index)", log: log) }
        }
        #expect(pipeline.stageNames == ["first", "verbose", "else", "loop1", "loop2", "redirects"])
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: exampleURL))
        #expect(String(decoding: response.body, as: UTF8.self) == "first,verbose,else,loop1,loop2")
    }

    @Test("the pipeline's timeouts fill what a request leaves unset")
    func timeoutsFilled() async throws {
        let seen = Log()
        let transport = InMemoryTransport { request in
            seen.append("\(request.timeouts.connect.map { "\($0)" } ?? "nil") \(request.timeouts.total.map { "\($0)" } ?? "nil")")
            return Response(status: 200)
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: transport, timeouts: Timeouts(total: .seconds(5))))
        _ = try await manager.send(Request(url: exampleURL))
        _ = try await manager.send(Request(url: exampleURL, timeouts: Timeouts(connect: .seconds(1), total: .seconds(2))))
        #expect(seen.all == ["10.0 seconds 5.0 seconds", "1.0 seconds 2.0 seconds"])
    }
}

// MARK: One-sided stages, folded and nested

private struct SampleFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
/// Adds its name to `X-Trace`; throws when told to.
private struct Mark: RequestStage {
    let name: String
    let fails: Bool
    func prepare(_ request: Request, context: TaskContext) async throws -> Request {
        try MarkNow(name: name, fails: fails).prepare(request, context: context)
    }
}
/// Records on the response what it saw of the request it sent on; throws when told to.
private struct Note: ResponseStage {
    let name: String
    let fails: Bool
    func process(_ response: Response, for request: Request, context: TaskContext) async throws -> Response {
        try NoteNow(name: name, fails: fails).process(response, for: request, context: context)
    }
}
/// ``Mark``, never suspending: the pipeline calls it with no async frame.
private struct MarkNow: SynchronousRequestStage {
    let name: String
    let fails: Bool
    func prepare(_ request: Request, context: TaskContext) throws -> Request {
        if fails { throw SampleFailure(message: "\(name) refused") }
        var request = request
        request.headers.add(name: "X-Trace", value: name)
        return request
    }
}
/// ``Note``, never suspending: the pipeline calls it with no async frame.
private struct NoteNow: SynchronousResponseStage {
    let name: String
    let fails: Bool
    func process(_ response: Response, for request: Request, context: TaskContext) throws -> Response {
        if fails { throw SampleFailure(message: "\(name) refused") }
        var response = response
        response.headers.add(name: "X-Seen", value: "\(name):" + request.headers.values(for: "X-Trace").joined(separator: "+"))
        return response
    }
}
/// The stage it wraps, with a `handle` of its own, so the pipeline cannot fold it.
private struct Nested: Stage {
    let inner: any Stage
    var name: String { inner.name }
    func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        try await inner.handle(request, context: context, next: next)
    }
}
private final class Events: EventMonitor {
    private let log = Locked<[String]>([])
    func receive(_ event: TaskEvent) {
        switch event.kind {
        case .stageEntered(let name): log.withLock { $0.append("enter " + name) }
        case .stageLeft(let name, _): log.withLock { $0.append("leave " + name) }
        default: break
        }
    }
    var all: [String] { log.withLock { $0 } }
}
private struct FoldOutcome: Equatable {
    var body: String?
    var seen: [String]
    var error: String?
    var events: [String]
    var invocations: [Int]
}
private func outcome(_ stages: [any Stage], transportFails: Bool) async throws -> FoldOutcome {
    let events = Events()
    let transport = InMemoryTransport { request in
        if transportFails { throw SampleFailure(message: "transport refused") }
        return Response(status: 200, body: Data(request.headers.values(for: "X-Trace").joined(separator: ",").utf8), url: request.url)
    }
    let manager = SessionManager(pipeline: try Pipeline(stages: stages, transport: transport, redirects: nil), monitors: [events])
    let handle = manager.task(Request(url: exampleURL))
    var result = FoldOutcome(seen: [], events: [], invocations: [])
    do {
        let response = try await handle.value
        result.body = String(decoding: response.body, as: UTF8.self)
        result.seen = response.headers.values(for: "X-Seen")
    } catch let error as SluiceError {
        result.error = "\(error.kind) in \(error.stage ?? "?"): \(error.message)"
    }
    result.events = events.all
    result.invocations = handle.context.metrics.stages.map(\.invocations)
    return result
}
