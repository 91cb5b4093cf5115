import Foundation
import Synchronization
import Testing
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

#if canImport(Glibc)
import Glibc
#endif

/// The libcurl transport's I/O thread as a task executor: a task that prefers it runs its stages,
/// starts its transfer and gets its response on that one thread; shutting the transport down
/// ends such tasks instead of stranding them. Runs under the thread sanitizer too.
@Suite("The transport's I/O thread as a task executor", .timeLimit(.minutes(1)))
struct IOExecutorTests {
    /// The threads a request saw: in its stage before and after the exchange, and where libcurl
    /// reported its first byte (always the I/O thread).
    final class ThreadLog: EventMonitor, Stage {
        let name = "thread-log"
        // NSLock, not `Mutex`: the thread sanitizer sees pthread mutexes, not `Mutex`'s futex.
        private let lock = NSLock()
        nonisolated(unsafe) private var seen: [String: [UInt]] = [:]

        func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
            record("stage before")
            let response = try await next(request, context)
            record("stage after")
            return response
        }

        func receive(_ event: TaskEvent) {
            if case .firstByte = event.kind { record("first byte") }
        }

        private func record(_ place: String) {
            let thread = UInt(pthread_self())
            lock.withLock { seen[place, default: []].append(thread) }
        }

        /// The threads `place` was passed on, from its `start`-th passing on.
        func threads(_ place: String, from start: Int = 0) -> Set<UInt> {
            lock.withLock { Set(seen[place, default: []].dropFirst(start)) }
        }

        /// How many times `place` was passed.
        func count(_ place: String) -> Int {
            lock.withLock { seen[place, default: []].count }
        }
    }

    /// Counts the requests handed to their connections.
    final class RequestsSent: EventMonitor {
        private let sent = Atomic<Int>(0)

        var count: Int { sent.load(ordering: .relaxed) }

        func receive(_ event: TaskEvent) {
            if case .requestSent = event.kind { sent.add(1, ordering: .relaxed) }
        }
    }

    @Test("a caller on the executor: stages, transfer and response all on the I/O thread, one request or 32 at once")
    func callerOnTheExecutor() async throws {
        let servers = try TestServers.load()
        let transport = servers.trustingTransport()
        let (log, manager) = try loggedManager(over: transport)
        let executor = try #require(transport.executor)
        try await withTaskExecutorPreference(executor) { () async throws in
            for _ in 0..<10 {
                #expect(try await manager.send(Request(url: servers.nginx("data.json"))).status == 200)
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<32 {
                group.addTask(executorPreference: executor) { () async throws in
                    let url = index.isMultiple(of: 2) ? servers.nginx("data.json") : servers.nginxTLS("data.json")
                    #expect(try await manager.send(Request(url: url)).status == 200)
                }
            }
            try await group.waitForAll()
        }
        let ioThread = log.threads("first byte")
        #expect(ioThread.count == 1)
        #expect(log.threads("stage before") == ioThread)
        #expect(log.threads("stage after") == ioThread)
        await transport.shutdown()
    }

    @Test("a caller elsewhere: its task runs on the first I/O thread, stages and exchange, whether sent or started for a handle")
    func callerElsewhere() async throws {
        let servers = try TestServers.load()
        let transport = servers.trustingTransport()
        let (log, manager) = try loggedManager(over: transport)
        for _ in 0..<10 {
            #expect(try await manager.send(Request(url: servers.nginx("data.json"))).status == 200)
        }
        let ioThread = log.threads("first byte")
        #expect(ioThread.count == 1)
        #expect(log.threads("stage before") == ioThread && log.threads("stage after") == ioThread)
        let (before, after) = (log.count("stage before"), log.count("stage after"))
        let handle = manager.task(Request(url: servers.nginx("data.json")))
        #expect(try await handle.value.status == 200)
        #expect(log.threads("stage before", from: before) == ioThread)
        #expect(log.threads("stage after", from: after) == ioThread)
        await transport.shutdown()
    }

    @Test("several I/O threads, named for the system: a task stays on the one it runs on; a caller on none uses the first; shutdown stops them all")
    func severalThreads() async throws {
        let servers = try TestServers.load()
        let transport = servers.trustingTransport(.init(ioThreads: 3))
        let (log, manager) = try loggedManager(over: transport)
        #expect(try await manager.send(Request(url: servers.nginx("data.json"))).status == 200)
        let first = log.threads("first byte")
        #expect(first.count == 1, "a caller on the global executor uses the first thread only")
        #expect(log.threads("stage before") == first && log.threads("stage after") == first)
        let (before, after) = (log.count("stage before"), log.count("stage after"))
        let executors = transport.executors
        #expect(executors.count == 3)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<30 {
                group.addTask(executorPreference: executors[index % 3]) { () async throws in
                    let url = index.isMultiple(of: 2) ? servers.nginx("data.json") : servers.nginxTLS("data.json")
                    #expect(try await manager.send(Request(url: url)).status == 200)
                }
            }
            try await group.waitForAll()
        }
        let all = log.threads("first byte")
        #expect(all.count == 3 && all.isSuperset(of: first))
        #expect(log.threads("stage before", from: before) == all)
        #expect(log.threads("stage after", from: after) == all)
        // The names the system shows (`top -H`, `perf`, gdb), not only Foundation's.
        var names: [String] = []
        for executor in executors {
            names.append(await Task(executorPreference: executor) { () -> String in
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                return comm.trimmingCharacters(in: .newlines)
            }.value)
        }
        #expect(names == ["sluice.curl", "sluice.curl.1", "sluice.curl.2"])
        await transport.shutdown()
        #expect(await kindOfFailure(manager, servers.nginx("data.json"), on: executors[2]) == .invalidated)
    }

    /// A task's listener that names an executor and notes the thread each response started on.
    final class ExecutorEvents: TransportEvents {
        let executor: (any TaskExecutor)?
        private let threads = Mutex<[UInt]>([])

        init(executor: (any TaskExecutor)?) {
            self.executor = executor
        }

        var responseThreads: [UInt] { threads.withLock { $0 } }

        func transferStarted(url: URL, control: any TransferControl) {}
        func evaluateTrust(_ connection: ConnectionInfo, for request: Request) -> TrustDecision { .proceed }
        func requestSent() {}
        func responseStarted(status: Int) {
            let thread = UInt(pthread_self())
            threads.withLock { $0.append(thread) }
        }
        func progressed(_ progress: TaskProgress) {}
        func transferFinished(control: any TransferControl, metrics: TransferMetrics?) {}
    }

    @Test("the exchange goes to the I/O thread the task's events name, wherever the caller runs; another transport's executor is not used")
    func exchangeOnTheNamedExecutor() async throws {
        let servers = try TestServers.load()
        let transport = servers.trustingTransport(.init(ioThreads: 3))
        let other = servers.trustingTransport()
        let executors = transport.executors
        let third = await Task(executorPreference: executors[2]) { UInt(pthread_self()) }.value
        let first = await Task(executorPreference: executors[0]) { UInt(pthread_self()) }.value
        #expect(first != third)
        let named = ExecutorEvents(executor: executors[2])
        #expect(try await transport.execute(Request(url: servers.nginx("data.json")), events: named).status == 200)
        #expect(named.responseThreads == [third])
        let foreign = ExecutorEvents(executor: other.executor)
        #expect(try await transport.execute(Request(url: servers.nginx("data.json")), events: foreign).status == 200)
        #expect(foreign.responseThreads == [first], "a caller on none of this transport's threads uses the first")
        await transport.shutdown()
        await other.shutdown()
    }

    @Test("shutdown with tasks in flight on the executor (a server that never answers): each ends cancelled; later tasks end invalidated")
    func shutdownEndsTasksOnTheExecutor() async throws {
        let servers = try TestServers.load()
        let transport = servers.trustingTransport()
        let sent = RequestsSent()
        let manager = SessionManager(pipeline: try Pipeline(transport: transport), monitors: [sent])
        let executor = try #require(transport.executor)
        let outcomes = Task(executorPreference: executor) {
            await withTaskGroup(of: SluiceError.Kind?.self) { group in
                for _ in 0..<20 {
                    group.addTask(executorPreference: executor) {
                        do {
                            _ = try await manager.send(Request(url: URL(string: "silent", relativeTo: servers.fault)!.absoluteURL))
                            return nil
                        } catch {
                            return (error as? SluiceError)?.kind
                        }
                    }
                }
                var kinds: [SluiceError.Kind?] = []
                for await kind in group { kinds.append(kind) }
                return kinds
            }
        }
        while sent.count < 20 {
            try await Task.sleep(for: .milliseconds(20))
        }
        await transport.shutdown()
        #expect(await outcomes.value == Array(repeating: .cancelled, count: 20))
        #expect(await kindOfFailure(manager, servers.nginx("data.json"), on: executor) == .invalidated)
    }

    /// A manager over `transport` whose pipeline and monitors log the threads each request saw.
    @Test("a task sleeping on an I/O thread: resumed there, at or after its deadline, earliest first; at once when cancelled or shut down")
    func sleepOnTheLoop() async throws {
        let transport = CurlTransport()
        let executor = try #require(transport.executor as? any TimedTaskExecutor)
        let ioThread = await Task(executorPreference: executor) { UInt(pthread_self()) }.value
        let clock = ContinuousClock()

        // Three sleepers posted latest deadline first wake earliest first, each on the I/O thread.
        let woken = Locked<[(delay: Int, late: Bool, thread: UInt)]>([])
        let start = clock.now
        await withDiscardingTaskGroup { group in
            for delay in [30, 10, 20] {
                group.addTask(executorPreference: executor) {
                    let deadline = start + .milliseconds(delay)
                    await executor.sleep(until: deadline)
                    let now = clock.now
                    woken.withLock { $0.append((delay, now < deadline, UInt(pthread_self()))) }
                }
            }
        }
        let order = woken.withLock { $0 }
        #expect(order.map(\.delay) == [10, 20, 30])
        #expect(order.allSatisfy { !$0.late }, "no sleeper wakes before its deadline")
        #expect(order.allSatisfy { $0.thread == ioThread })

        // A deadline already past returns at once; an hour's sleep ends when its task is cancelled.
        await executor.sleep(until: clock.now - .seconds(1))
        let sleeper = Task(executorPreference: executor) { await executor.sleep(until: clock.now + .seconds(3600)) }
        try await Task.sleep(for: .milliseconds(20))
        sleeper.cancel()
        await sleeper.value
        let cancelledFirst = Task(executorPreference: executor) {
            withUnsafeCurrentTask { $0?.cancel() }
            await executor.sleep(until: clock.now + .seconds(3600))
        }
        await cancelledFirst.value

        // Shut down: a sleeper under way and a later one both return.
        let pending = Task(executorPreference: executor) { await executor.sleep(until: clock.now + .seconds(3600)) }
        try await Task.sleep(for: .milliseconds(20))
        await transport.shutdown()
        await pending.value
        await executor.sleep(until: clock.now + .seconds(3600))
    }

    private func loggedManager(over transport: CurlTransport) throws -> (ThreadLog, SessionManager) {
        let log = ThreadLog()
        return (log, SessionManager(pipeline: try Pipeline(stages: [log], transport: transport), monitors: [log]))
    }

    /// How a request sent from a task on `executor` fails; `nil` when it succeeds.
    private func kindOfFailure(_ manager: SessionManager, _ url: URL, on executor: any TaskExecutor) async -> SluiceError.Kind? {
        await Task(executorPreference: executor) {
            do {
                _ = try await manager.send(Request(url: url))
                return nil
            } catch {
                return (error as? SluiceError)?.kind
            }
        }.value
    }
}
