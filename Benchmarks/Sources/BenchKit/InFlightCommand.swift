import ArgumentParser
import Foundation
import Sluice
import Synchronization

/// `sluice-bench in-flight`: starts many tasks against an endpoint that answers slowly, waits
/// until every one has its exchange under way in the transport, and prints resident memory then.
/// The tasks are then cancelled, which must end every one of them.
struct InFlightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "in-flight",
        abstract: "Holds N tasks in flight against a slow URL and prints resident memory."
    )

    @Option(help: "The slow URL.")
    var url: String

    @Option(help: "How many tasks to hold in flight.")
    var tasks = 10_000

    @Option(help: "The most connections to the host at once (0: no limit, one connection per task).")
    var connections = 0

    @Option(help: "The longest to wait for every task to reach the transport, in seconds.")
    var timeout = 60.0

    @Flag(help: "Hold the tasks in an in-memory transport that never answers instead (no URL needed): the Swift side's share.")
    var inMemory = false

    /// Counts the exchanges the transport has started.
    final class StartCounter: EventMonitor {
        let started = Atomic<Int>(0)

        func receive(_ event: TaskEvent) {
            if case .transferStarted = event.kind {
                started.add(1, ordering: .relaxed)
            }
        }
    }

    func run() async throws {
        guard let target = URL(string: url) else { throw ValidationError("not a URL: \(url)") }
        let curl = CurlTransport(configuration: .init(maxConnectionsPerHost: connections, maxIdleConnections: tasks))
        let never = InMemoryTransport { _ in
            try await Task.sleep(for: .seconds(86_400))
            return Response(status: 200)
        }
        let counter = StartCounter()
        let manager = SessionManager(pipeline: try Pipeline(transport: inMemory ? never : curl), monitors: [counter])
        let before = ProcessMemory.resident
        let clock = ContinuousClock()
        let start = clock.now
        var handles: [TaskHandle] = []
        let counts = try await AllocationCounter.count {
            handles = (0..<tasks).map { _ in manager.task(Request(url: target)) }
            let deadline = start + .seconds(timeout)
            while counter.started.load(ordering: .relaxed) < tasks, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let reached = counter.started.load(ordering: .relaxed)
        try await Task.sleep(for: .seconds(1))
        let inFlight = manager.tasks.count
        let resident = ProcessMemory.resident
        manager.cancelAll()
        var cancelled = 0
        var completed = 0
        var failed = 0
        for handle in handles {
            do {
                _ = try await handle.value
                completed += 1
            } catch let error as SluiceError where error.kind == .cancelled {
                cancelled += 1
            } catch {
                failed += 1
            }
        }
        await curl.shutdown()
        report([
            "tasks": tasks,
            "reachedTransport": reached,
            "inFlight": inFlight,
            "completed": completed,
            "cancelled": cancelled,
            "failed": failed,
            "residentBeforeMiB": before.mebibytes,
            "allocatedBytesPerTask": counts.map { $0.liveBytes / tasks } ?? -1,
            "allocationsPerTask": counts.map { Double($0.liveAllocations) / Double(tasks) } ?? -1,
            "residentInFlightMiB": resident.mebibytes,
            "peakResidentMiB": ProcessMemory.peakResident.mebibytes,
        ])
    }
}
