import Foundation
import Testing
@testable import SluiceCore

/// Suspends its task, then sends on: the exchange waits until the task is resumed.
private struct SuspendFirst: Stage {
    func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        context.suspend()
        return try await next(request, context)
    }
}

/// Counts the requests it has seen begin, as soon as each reaches it.
private final class BeginCounter: Stage, @unchecked Sendable {
    private let count = Locked(0)
    var seen: Int { count.withLock { $0 } }

    func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        count.withLock { $0 += 1 }
        return try await next(request, context)
    }
}

@Suite("The session manager", .timeLimit(.minutes(1)))
struct SessionManagerTests {
    /// A transport that waits until cancelled.
    static let hanging = InMemoryTransport { _ in
        try await Task.sleep(for: .seconds(3600))
        return Response(status: 200)
    }

    @Test("task(_:startsImmediately:) runs the chain on the calling thread up to its first suspension before it returns; task(_:) starts it elsewhere")
    func startsImmediately() async throws {
        let counter = BeginCounter()
        let manager = SessionManager(pipeline: try Pipeline(stages: [counter], transport: Self.hanging))
        let immediate = manager.task(Request(url: exampleURL), startsImmediately: true)
        #expect(counter.seen == 1, "the stage ran before task(_:startsImmediately:) returned")
        immediate.cancel()
        _ = try? await immediate.value
    }

    @Test("every task gets a fresh id and its own context")
    func uniqueIDs() async throws {
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: echoTransport()))
        let handles = (0..<50).map { _ in manager.task(Request(url: exampleURL)) }
        #expect(Set(handles.map(\.id)).count == 50)
        #expect(Set(handles.map { ObjectIdentifier($0.context) }).count == 50)
        for handle in handles { _ = try await handle.value }
    }

    @Test("the task table holds tasks in flight and drops them however they end")
    func tableEntriesRemoved() async throws {
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: Self.hanging))
        let first = manager.task(Request(url: exampleURL))
        let second = manager.task(Request(url: exampleURL))
        #expect(manager.tasks.map(\.id) == [first.id, second.id])
        first.cancel()
        await #expect(throws: SluiceError.self) { try await first.value }
        #expect(manager.tasks.map(\.id) == [second.id])
        second.cancel()
        _ = try? await second.value

        let failing = SessionManager(pipeline: try Pipeline(stages: [], transport: InMemoryTransport { _ in throw URLError(.badServerResponse) }))
        _ = try? await failing.send(Request(url: exampleURL))
        let succeeding = SessionManager(pipeline: try Pipeline(stages: [], transport: echoTransport()))
        _ = try await succeeding.send(Request(url: exampleURL))
        #expect(manager.tasks.isEmpty)
        #expect(failing.tasks.isEmpty)
        #expect(succeeding.tasks.isEmpty)
    }

    @Test("monitors see the task's life in order, each stage entered and left")
    func eventOrder() async throws {
        let recorder = EventRecorder()
        let log = Log()
        let manager = SessionManager(
            pipeline: try Pipeline(stages: [Tracer(name: "A", log: log), Tracer(name: "B", log: log)], transport: echoTransport()),
            monitors: [recorder]
        )
        let handle = manager.task(Request(url: exampleURL))
        _ = try await handle.value
        #expect(recorder.names(for: handle.id) == [
            "created", "stageEntered(A)", "stageEntered(B)", "stageEntered(redirects)", "transferStarted", "requestSent",
            "firstByte", "transferFinished", "stageLeft(redirects)", "stageLeft(B)", "stageLeft(A)", "completed",
        ])
    }

    @Test("a failed task and a cancelled task end with their own events")
    func failureAndCancellationEvents() async throws {
        let recorder = EventRecorder()
        let failing = SessionManager(
            pipeline: try Pipeline(stages: [], transport: InMemoryTransport { _ in throw SluiceError(kind: .connect, message: "refused") }),
            monitors: [recorder]
        )
        let failed = failing.task(Request(url: exampleURL))
        _ = try? await failed.value
        #expect(recorder.names(for: failed.id).last == "failed")

        let hanging = SessionManager(pipeline: try Pipeline(stages: [], transport: Self.hanging), monitors: [recorder])
        let cancelled = hanging.task(Request(url: exampleURL))
        cancelled.cancel()
        let error = await #expect(throws: SluiceError.self) { try await cancelled.value }
        #expect(error?.kind == .cancelled)
        #expect(recorder.names(for: cancelled.id).last == "cancelled")
    }

    @Test("cancelAll ends every task in flight with .cancelled")
    func cancelAll() async throws {
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: Self.hanging))
        let handles = (0..<20).map { _ in manager.task(Request(url: exampleURL)) }
        manager.cancelAll()
        for handle in handles {
            let error = await #expect(throws: SluiceError.self) { try await handle.value }
            #expect(error?.kind == .cancelled)
        }
        #expect(manager.tasks.isEmpty)
    }

    @Test("cancelling the caller of send cancels the request")
    func sendFollowsCallerCancellation() async throws {
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: Self.hanging))
        let caller = Task { try await manager.send(Request(url: exampleURL)) }
        while manager.tasks.isEmpty { await Task.yield() }
        caller.cancel()
        let error = await #expect(throws: SluiceError.self) { try await caller.value }
        #expect(error?.kind == .cancelled)
    }

    @Test("invalidate refuses new tasks and waits for the ones in flight")
    func invalidateWaits() async throws {
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: InMemoryTransport { _ in
            try await Task.sleep(for: .milliseconds(200))
            return Response(status: 200)
        }))
        let running = manager.task(Request(url: exampleURL))
        await manager.invalidate(cancelingTasks: false)
        #expect(manager.tasks.isEmpty)
        #expect(try await running.value.status == 200)
        let error = await #expect(throws: SluiceError.self) { try await manager.send(Request(url: exampleURL)) }
        #expect(error?.kind == .invalidated)
        #expect(manager.isInvalidated)
    }

    @Test("invalidate(cancelingTasks: true) cancels what runs")
    func invalidateCancels() async throws {
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: Self.hanging))
        let running = (0..<5).map { _ in manager.task(Request(url: exampleURL)) }
        await manager.invalidate(cancelingTasks: true)
        for handle in running {
            await #expect(throws: SluiceError.self) { try await handle.value }
        }
    }

    @Test("a task suspended before its exchange waits, then goes on when resumed")
    func suspendBeforeTransfer() async throws {
        let calls = Counter()
        let manager = SessionManager(pipeline: try Pipeline(stages: [SuspendFirst()], transport: echoTransport(calls: calls)))
        let handle = manager.task(Request(url: exampleURL))
        while !handle.context.isSuspended { await Task.yield() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(calls.count == 0)
        handle.resume()
        #expect(try await handle.value.status == 200)
        #expect(calls.count == 1)
    }

    @Test("a suspended task can still be cancelled")
    func cancelWhileSuspended() async throws {
        let manager = SessionManager(pipeline: try Pipeline(stages: [SuspendFirst()], transport: echoTransport()))
        let handle = manager.task(Request(url: exampleURL))
        while !handle.context.isSuspended { await Task.yield() }
        handle.cancel()
        let error = await #expect(throws: SluiceError.self) { try await handle.value }
        #expect(error?.kind == .cancelled)
    }

    @Test("stages keep per-task state in typed storage")
    func typedStorage() async throws {
        enum Seen: TaskStorageKey { typealias Value = [String] }
        struct Remember: Stage {
            let label: String
            func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                context.storage.update(Seen.self) { $0 = ($0 ?? []) + [label] }
                return try await next(request, context)
            }
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [Remember(label: "a"), Remember(label: "b")], transport: echoTransport()))
        let one = manager.task(Request(url: exampleURL))
        let two = manager.task(Request(url: exampleURL))
        _ = try await (one.value, two.value)
        #expect(one.context.storage[Seen.self] == ["a", "b"])
        #expect(two.context.storage[Seen.self] == ["a", "b"])
        one.context.storage[Seen.self] = nil
        #expect(one.context.storage[Seen.self] == nil)
    }

    @Test("progress streams report and finish when the task ends")
    func progressStream() async throws {
        let body = Data(repeating: 7, count: 1000)
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: InMemoryTransport { _ in Response(status: 200, body: body) }))
        let handle = manager.task(Request(url: exampleURL))
        let updates = handle.progress.updates()
        _ = try await handle.value
        var last = TaskProgress()
        for await progress in updates { last = progress }
        #expect(last.download == TransferProgress(completed: 1000, expected: 1000))
        #expect(last.download.fractionCompleted == 1)
    }
}
