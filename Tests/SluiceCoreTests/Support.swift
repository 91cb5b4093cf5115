import Foundation
import Synchronization
import Testing
@testable import SluiceCore

/// Records every event it receives, in order.
final class EventRecorder: EventMonitor {
    private let events = Locked<[TaskEvent]>([])

    func receive(_ event: TaskEvent) {
        events.withLock { $0.append(event) }
    }

    /// The kinds recorded for one task, as short names.
    func names(for task: TaskID) -> [String] {
        events.withLock { $0 }.filter { $0.taskID == task }.map(\.kind.shortName)
    }
}

extension TaskEvent.Kind {
    /// The case name with its stage where there is one: `stageEntered(A)`.
    var shortName: String {
        switch self {
        case .created: "created"
        case .stageEntered(let name): "stageEntered(\(name))"
        case .stageLeft(let name, _): "stageLeft(\(name))"
        case .transferStarted: "transferStarted"
        case .requestSent: "requestSent"
        case .firstByte: "firstByte"
        case .transferFinished: "transferFinished"
        case .note(let note): "note(\(note.stage).\(note.name))"
        case .completed: "completed"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

/// A placement as a type, for a test stage that runs where a test says: a stage's placement
/// belongs to its type.
protocol TestPlacement {
    static var placement: StagePlacement { get }
}

/// ``StagePlacement/call``.
enum AtCall: TestPlacement {
    static var placement: StagePlacement { .call }
}

/// ``StagePlacement/hop``.
enum AtHop: TestPlacement {
    static var placement: StagePlacement { .hop }
}

/// Appends `name` to a shared log on the way out and `name'` on the way back; runs at `At`'s
/// placement.
struct Tracer<At: TestPlacement>: Stage {
    let name: String
    let log: Log

    static var placement: StagePlacement { At.placement }

    init(name: String, log: Log, at _: At.Type) {
        self.name = name
        self.log = log
    }

    func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        log.append(name)
        var request = request
        request.headers.add(name: "X-Trace", value: name)
        var response = try await next(request, context)
        log.append(name + "'")
        response.headers.add(name: "X-Trace-Back", value: name)
        return response
    }
}

extension Tracer where At == AtCall {
    /// A call stage, as a custom stage is by default.
    init(name: String, log: Log) {
        self.init(name: name, log: log, at: AtCall.self)
    }
}

/// A thread-safe list of strings.
final class Log: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    @discardableResult func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    var count: Int { value.load(ordering: .relaxed) }
}

let exampleURL = URL(string: "http://example.test/path")!

/// A transport that answers 200 with the request's `X-Trace` headers joined as the body.
func echoTransport(calls: Counter = Counter()) -> InMemoryTransport {
    InMemoryTransport { request in
        calls.increment()
        let trace = request.headers.values(for: "X-Trace").joined(separator: ",")
        return Response(status: 200, body: Data(trace.utf8), url: request.url)
    }
}

/// Records the requests a transport receives and answers each with `response`.
final class RequestRecorder: Sendable {
    private let requests = Locked<[Request]>([])

    /// The requests received, in order.
    var all: [Request] { requests.withLock { $0 } }

    /// A transport that records each request and answers with `respond`.
    func transport(_ respond: @escaping @Sendable (Request) -> Response = { Response(status: 200, url: $0.url) }) -> InMemoryTransport {
        InMemoryTransport { request in
            self.requests.withLock { $0.append(request) }
            return respond(request)
        }
    }
}

/// The request as it reaches the transport after `stages`, and the response the chain returns.
func send(_ request: Request, through stages: [any Stage], respond: @escaping @Sendable (Request) -> Response = { Response(status: 200, url: $0.url) }) async throws -> (sent: Request, response: Response) {
    let recorder = RequestRecorder()
    let manager = SessionManager(pipeline: try Pipeline(stages: stages, transport: recorder.transport(respond)))
    let response = try await manager.send(request)
    return (try #require(recorder.all.last), response)
}
