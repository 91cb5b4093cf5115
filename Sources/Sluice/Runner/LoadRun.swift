import Foundation
internal import Histogram
import Synchronization

/// The load mode of `sluice run --repeat N --concurrency C`: each selected request N times, C in
/// flight at once, every response checked against the request's expectations.
///
/// Requests are prepared once (variables filled in) and then sent through the pipeline's stages
/// each time, so the figures measure the engine: stages, libcurl, connection reuse. Latencies go
/// into one HdrHistogram (microseconds, three significant digits), so memory stays flat however
/// many requests a run sends.
public struct LoadRun: Sendable {
    /// Live counts, readable from any thread while the run goes on (for a progress bar).
    public final class Progress: Sendable {
        private let doneCount = Atomic<Int>(0)
        private let errorCount = Atomic<Int>(0)
        /// When the run started.
        public let start = ContinuousClock.now

        /// Creates counters at zero.
        public init() {}

        /// Requests finished so far.
        public var done: Int { doneCount.load(ordering: .relaxed) }
        /// Requests that failed or missed an expectation so far.
        public var errors: Int { errorCount.load(ordering: .relaxed) }

        func record(ok: Bool) {
            doneCount.add(1, ordering: .relaxed)
            if !ok { errorCount.add(1, ordering: .relaxed) }
        }
    }

    /// What a load run measured.
    public struct Summary: Sendable, Hashable {
        /// Requests sent.
        public var requests: Int
        /// Requests that completed and met their expectations.
        public var ok: Int
        /// Requests that failed or missed an expectation.
        public var errors: Int
        /// Wall-clock time of the whole run.
        public var seconds: Double
        /// Requests per second.
        public var rps: Double
        /// Latency percentiles and maximum, in milliseconds, over every request.
        public var latency: Latency
        /// The first failure seen, to say why errors happened, with the status of its response
        /// when one arrived.
        public var firstFailure: String?
        /// How many responses arrived with each status, whatever a stage or an expectation then
        /// made of them; requests that got no response are not counted here.
        public var statuses: [Int: Int] = [:]
    }

    /// Latency figures in milliseconds.
    public struct Latency: Sendable, Hashable {
        /// The median.
        public var p50: Double
        /// The 90th percentile.
        public var p90: Double
        /// The 99th percentile.
        public var p99: Double
        /// The slowest.
        public var max: Double

        /// Percentiles of a histogram of latencies in microseconds.
        init(_ histogram: Histogram<UInt64>) {
            func milliseconds(_ microseconds: UInt64) -> Double { Double(microseconds) / 1000 }
            p50 = milliseconds(histogram.valueAtPercentile(50))
            p90 = milliseconds(histogram.valueAtPercentile(90))
            p99 = milliseconds(histogram.valueAtPercentile(99))
            max = milliseconds(histogram.max)
        }
    }

    /// Hands out job numbers 0, 1, 2, ... to the workers.
    private final class Tickets: Sendable {
        private let counter = Atomic<Int>(0)

        func next() -> Int {
            counter.add(1, ordering: .relaxed).oldValue
        }
    }

    /// The runner whose file and transport are used.
    public let runner: PipelineRunner
    /// How many times each request is sent.
    public let repetitions: Int
    /// How many requests are in flight at once.
    public let concurrency: Int

    /// Creates a load run.
    public init(runner: PipelineRunner, repetitions: Int, concurrency: Int) {
        self.runner = runner
        self.repetitions = max(1, repetitions)
        self.concurrency = max(1, concurrency)
    }

    /// Sends the requests and measures.
    /// - Parameters:
    ///   - selection: the requests to send; all by default.
    ///   - progress: counters to update as requests finish.
    /// - Throws: `.configuration` for a selection the runner refuses, or a request that uses a
    ///   capture (requests run concurrently here, so captures have no value: pass `--var`).
    public func run(selection: RequestSelection = RequestSelection(), progress: Progress = Progress()) async throws(SluiceError) -> Summary {
        let specs = try runner.requests(selection: selection)
        let file = runner.file
        var prepared: [(RequestSpec, Request, VariableScope)] = []
        for spec in specs {
            let scope = file.scope.adding(spec.row)
            // Conditions are judged once, before the run: captures have no value here.
            guard spec.conditions.allSatisfy({ $0.allowsRun(variables: scope.values, environment: scope.environment) }) else { continue }
            if let name = spec.variableNames.sorted().first(where: { scope.values[$0] == nil }) {
                throw SluiceError(
                    kind: .configuration,
                    message: "request '\(spec.name)' uses ${\(name)}, a capture; load mode sends requests concurrently, so pass it with --var \(name)=VALUE"
                )
            }
            prepared.append((spec, try spec.makeRequest(scope: scope, directory: spec.source.directory), scope))
        }
        let pipeline = try runner.pipeline(dryRun: false)
        let manager = SessionManager(pipeline: pipeline)
        let executors = pipeline.transport.executors
        let total = prepared.count * repetitions
        let tickets = Tickets()
        let jobs = prepared
        let jar = file.cookies.jar
        let workers = min(concurrency, max(total, 1))
        let clock = ContinuousClock()
        let start = clock.now
        let longest: UInt64 = 3_600_000_000
        // One histogram per I/O thread, so that workers on different threads never contend for a
        // lock; merged at the end.
        let latencies = (0..<max(1, executors.count)).map { _ in
            Locked(Histogram<UInt64>(highestTrackableValue: longest, numberOfSignificantValueDigits: .three))
        }
        let outcomes = await withTaskGroup(of: (failure: String?, statuses: [Int: Int]).self) { group in
            for worker in 0..<workers {
                // On the transport's I/O threads when it has them, spread over all of them: a
                // request then costs no switch of thread from the worker to the transfer and back.
                let executor = executors.isEmpty ? nil : executors[worker % executors.count]
                let shard = latencies[worker % latencies.count]
                group.addTask(executorPreference: executor) {
                    var failure: String?
                    var statuses: [Int: Int] = [:]
                    while true {
                        let index = tickets.next()
                        guard index < total else { break }
                        let (spec, request, scope) = jobs[index % jobs.count]
                        let outcome = await PipelineRunner.exchange(spec, request: request, manager: manager, scope: scope, jar: jar)
                        let microseconds = min(UInt64(max(0, DurationText.milliseconds(outcome.duration) * 1000)), longest)
                        shard.withLock { _ = $0.record(microseconds) }
                        if let status = outcome.response?.status { statuses[status, default: 0] += 1 }
                        let ok = outcome.error == nil && outcome.failures.isEmpty
                        if !ok, failure == nil {
                            let status = outcome.response.map { " (status \($0.status))" } ?? ""
                            failure = "\(spec.displayName)\(status): " + (outcome.error.map { "\($0.kind): \($0.message)" } ?? outcome.failures.map(\.description).joined(separator: "; "))
                        }
                        progress.record(ok: ok)
                    }
                    return (failure, statuses)
                }
            }
            var failures: [String] = []
            var statuses: [Int: Int] = [:]
            for await outcome in group {
                if let failure = outcome.failure { failures.append(failure) }
                statuses.merge(outcome.statuses, uniquingKeysWith: +)
            }
            return (failures: failures, statuses: statuses)
        }
        let seconds = DurationText.milliseconds(clock.now - start) / 1000
        var histogram = latencies[0].withLock { $0 }
        for shard in latencies.dropFirst() {
            histogram.add(shard.withLock { $0 })
        }
        let requests = Int(histogram.totalCount)
        return Summary(
            requests: requests,
            ok: requests - progress.errors,
            errors: progress.errors,
            seconds: seconds,
            rps: seconds > 0 ? Double(requests) / seconds : 0,
            latency: Latency(histogram),
            firstFailure: outcomes.failures.first,
            statuses: outcomes.statuses
        )
    }
}
