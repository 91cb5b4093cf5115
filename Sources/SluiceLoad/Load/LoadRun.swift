import Foundation
import Synchronization
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

/// The load mode of `sluice run`: the selected requests sent many times, in a closed loop
/// (`--repeat N` or `--duration D`, `--concurrency C` workers) or an open one (`--rate R`, with
/// `--concurrency` as the cap on requests in flight), every response checked against the
/// request's expectations. See ``LoadPlan`` for the two loops.
///
/// Requests are prepared once (variables filled in) and then sent through the pipeline's stages
/// each time, so the figures measure the engine: stages, libcurl, connection reuse. Latencies go
/// into HdrHistograms, so memory stays flat however many requests a run sends, and shards' results
/// merge exactly (``LoadResult``).
public struct LoadRun: Sendable {
    /// Live figures, readable from any thread while the run goes on (for a progress line).
    public final class Progress: Sendable {
        private let recorder = Locked<LoadRecorder?>(nil)
        private let started = Locked<ContinuousClock.Instant?>(nil)
        private let stopped = Atomic<Bool>(false)

        /// Creates figures at zero.
        public init() {}

        /// When the run started (its first request was due), once it has.
        public var start: ContinuousClock.Instant? { started.withLock { $0 } }
        /// Requests ended so far.
        public var done: Int { recorder.withLock { $0 }?.done ?? 0 }
        /// Requests that failed or missed an expectation so far.
        public var errors: Int { recorder.withLock { $0 }?.errors ?? 0 }
        /// Requests of the schedule dropped so far.
        public var dropped: Int { recorder.withLock { $0 }?.dropped ?? 0 }
        /// The 99th percentile of the response times so far, in milliseconds.
        public var p99: Double { recorder.withLock { $0 }?.responseTimeP99 ?? 0 }

        /// Whether ``stop()`` was called.
        public var isStopped: Bool { stopped.load(ordering: .relaxed) }

        /// Stops the run early: no request starts after this, those in flight end and are
        /// recorded, and ``LoadRun/run(selection:progress:)`` returns what was measured.
        public func stop() {
            stopped.store(true, ordering: .relaxed)
        }

        func attach(_ recorder: LoadRecorder, start: ContinuousClock.Instant) {
            self.recorder.withLock { $0 = recorder }
            started.withLock { $0 = start }
        }
    }

    /// A count the loops' tasks share: the closed loop's next request, the open loop's requests
    /// in flight.
    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)

        var current: Int { value.load(ordering: .relaxed) }

        /// Adds `amount` and returns the value before.
        @discardableResult
        func add(_ amount: Int) -> Int {
            value.add(amount, ordering: .relaxed).oldValue
        }
    }

    /// A flag the loops' tasks share, raised once.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)

        var isRaised: Bool { value.load(ordering: .relaxed) }

        func raise() {
            value.store(true, ordering: .relaxed)
        }
    }

    /// One prepared request, sent again and again. A class: a request's spec, request and scope
    /// hold many references, which a copy for every send would retain and release one by one.
    private final class Job: Sendable {
        let spec: RequestSpec
        let request: Request
        let scope: VariableScope

        init(spec: RequestSpec, request: Request, scope: VariableScope) {
            self.spec = spec
            self.request = request
            self.scope = scope
        }
    }

    /// What the loops share.
    private struct Context: Sendable {
        let jobs: [Job]
        let manager: SessionManager
        let jar: CookieJar?
        let recorder: LoadRecorder
        let executors: [any TaskExecutor]
        let progress: Progress
        let gracePeriod: Duration
        /// Raised when the grace period after the planned end is over and what is in flight is cancelled.
        let graceEnded = Flag()

        /// Sends the whole run's request `number` and records how it ended.
        /// - Parameter due: when it was due; `nil` when it is due as it starts (the closed loop).
        nonisolated(nonsending) func send(_ number: Int, due: ContinuousClock.Instant?, slot: Int) async {
            let job = jobs[number % jobs.count]
            let started = ContinuousClock.now
            let outcome = await PipelineRunner.exchange(job.spec, request: job.request, manager: manager, scope: job.scope, jar: jar)
            record(outcome, of: job, due: due ?? started, started: started, slot: slot)
        }

        /// Records how a request that was due at `due` and started at `started` ended: out of
        /// line, so that the frame each request in flight holds keeps none of this work.
        @inline(never)
        private func record(_ outcome: PipelineRunner.Outcome, of job: Job, due: ContinuousClock.Instant, started: ContinuousClock.Instant, slot: Int) {
            let ended = ContinuousClock.now
            var failure: (kind: String, description: String)?
            if outcome.error?.kind == SluiceError.Kind.cancelled.description, graceEnded.isRaised {
                failure = ("interrupted", "\(job.spec.displayName): still in flight \(DurationText.string(gracePeriod)) after the run's planned end; cancelled (--grace-period)")
            } else if outcome.error != nil || !outcome.failures.isEmpty {
                let status = outcome.response.map { " (status \($0.status))" } ?? ""
                let error = outcome.error.map { "\($0.kind): \($0.message)" }
                // A failed status check is the cause, a stage's refusal of the same response after it.
                if let error, let failedStatus = outcome.failures.first(where: \.isStatus) {
                    failure = ("expectation not met", "\(job.spec.displayName)\(status): \(failedStatus.description); \(error)")
                } else {
                    failure = (outcome.error?.kind ?? "expectation not met", "\(job.spec.displayName)\(status): \(error ?? outcome.failures.map(\.description).joined(separator: "; "))")
                }
            }
            // Service time is the server's: from the first exchange's request going on the wire
            // (or, for one that never got there, from the start) to the end.
            let onTheWire = outcome.metrics?.transfers.first?.requestSentAt ?? started
            recorder.record(
                slot: slot, response: ended - due, service: ended - onTheWire, status: outcome.response?.status,
                exchanges: outcome.metrics?.transfers.count ?? 0, failure: failure
            )
        }

        /// The I/O thread for worker or request `index`, spread over all of them: a request then
        /// costs no switch of thread from the worker to the transfer and back.
        func executor(_ index: Int) -> (any TaskExecutor)? {
            executors.isEmpty ? nil : executors[index % executors.count]
        }
    }

    /// The open loop's dispatcher wakes at most once in this time.
    static let tick = Duration.microseconds(500)

    /// The runner whose file and transport are used.
    public let runner: PipelineRunner
    /// What to send, how paced, for how long.
    public let plan: LoadPlan

    /// Creates a load run.
    public init(runner: PipelineRunner, plan: LoadPlan) {
        self.runner = runner
        self.plan = plan
    }

    /// Sends the requests and measures.
    /// - Parameters:
    ///   - selection: the requests to send; all by default.
    ///   - progress: figures to update as requests end.
    /// - Throws: `.configuration` for a plan that cannot run, a selection the runner refuses, a
    ///   request that uses a capture (requests run concurrently here, so captures have no value:
    ///   pass `--var`), empties the jar (`cookie-jar: clear`; its `store-cookies:` are stored
    ///   once, before the run), waits or sends again (`delay:`, `retry:`) or has stages of its own, or a cap the transport or the machine cannot hold: the transport must
    ///   allow the shard's `concurrency` connections to a host (`Transport/connectionsPerHost`;
    ///   for libcurl's, `CurlTransport.Configuration.allowing(connections:)`), and the process must be able to open them (its
    ///   soft limit on file descriptors is raised up to the hard one when needed; a cap above the
    ///   hard limit or the machine's ephemeral ports is refused).
    public func run(selection: RequestSelection = RequestSelection(), progress: Progress = Progress()) async throws(SluiceError) -> LoadResult {
        if let problem = plan.problem { throw SluiceError(kind: .configuration, message: problem) }
        let file = runner.file
        // A Hurl file stops at its first failure by default, which a load run, counting every
        // failure, does not ask of it; a pipeline that says so itself is refused.
        if file.spec.failFast, file.spec.files.first?.isHurl != true {
            throw SluiceError(
                kind: .configuration,
                message: "fail-fast: true stops the file at its first failing request; load mode sends every request it planned and counts each failure: remove it, or run the file without --repeat, --duration or --rate"
            )
        }
        var jobs: [Job] = []
        var skipped: (request: String, condition: String)?
        for spec in try runner.requests(selection: selection) {
            let scope = file.scope.adding(spec.row)
            // Conditions are judged once, before the run: captures have no value here.
            if let condition = spec.conditions.first(where: { !$0.allowsRun(variables: scope.values, environment: scope.environment) }) {
                skipped = skipped ?? (spec.displayName, condition.description)
                continue
            }
            if let name = spec.variableNames.sorted().first(where: { scope.values[$0] == nil }) {
                throw SluiceError(
                    kind: .configuration,
                    message: "request '\(spec.name)' uses \(spec.source.spelling(ofVariable: name)), a capture; load mode sends requests concurrently, so pass it with --var \(name)=VALUE"
                )
            }
            if !spec.stages.isEmpty {
                throw SluiceError(
                    kind: .configuration,
                    message: "request '\(spec.name)' has stages of its own; load mode sends every request through one chain, so list the stage in the file's stages:"
                )
            }
            // One attempt (Hurl's --retry 0) and no pause are what load mode does anyway.
            let retries = (spec.retry?.attempts ?? 1) > 1, waits = (spec.delay ?? .zero) > .zero
            if retries || waits {
                let key = retries ? "retry" : "delay"
                let written = spec.source.isHurl ? "a \(key) (its [Options] \(key), or --\(key) on the command line)" : "\(key):"
                throw SluiceError(
                    kind: .configuration,
                    message: "request '\(spec.name)' has \(written); load mode sends each request once, when it is due, and measures that send: remove it, or run the file without --repeat, --duration or --rate"
                )
            }
            if spec.cookieJar == .clear {
                throw SluiceError(
                    kind: .configuration,
                    message: "request '\(spec.name)' has cookie-jar: clear; load mode sends requests concurrently, so the jar cannot be emptied before one of them (cookie-jar: off sends and keeps none)"
                )
            }
            // Stored once, before the run: the jar every request shares.
            for cookie in try spec.cookiesToStore(scope: scope) { runner.state.cookies.jar.insert(cookie) }
            jobs.append(Job(spec: spec, request: try spec.makeRequest(scope: scope, directory: spec.source.directory), scope: scope))
        }
        if jobs.isEmpty, let skipped {
            throw SluiceError(
                kind: .configuration,
                message: "no request to send: every request selected is skipped by its when: or skip:, which load mode judges once, before the run ('\(skipped.request)': \(skipped.condition))"
            )
        }
        let pipeline = try runner.pipeline(dryRun: false)
        try LoadCapacity.check(connections: plan.shardConcurrency, transport: pipeline.transport)
        let executors = pipeline.transport.executors
        let recorder = LoadRecorder(slots: executors.count)
        let context = Context(jobs: jobs, manager: SessionManager(pipeline: pipeline), jar: runner.state.cookies.jar, recorder: recorder, executors: executors, progress: progress, gracePeriod: plan.gracePeriod)

        // The start, on both clocks: shards given the same --start-at agree on it to within
        // their clocks' agreement.
        let clock = ContinuousClock()
        // A closed loop has no schedule to keep: one that begins after its --start-at starts
        // now, and its window with it.
        let startWall = plan.isOpenLoop ? plan.startAt ?? Date() : max(plan.startAt ?? Date(), Date())
        // Within a year either way: a Duration holds that, where a Date may be anything.
        let start = clock.now + .seconds(min(max(startWall.timeIntervalSinceNow, -3.2e7), 3.2e7))
        // When this shard was ready to send: later than `start` only for one that began after
        // its --start-at (with none, the run starts when it is ready).
        let ready = plan.startAt == nil ? start : clock.now
        progress.attach(recorder, start: start)
        if start > clock.now { try? await clock.sleep(until: start) }
        if !jobs.isEmpty, !progress.isStopped {
            let planned = plan.plannedSeconds(requestCount: jobs.count)
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    if plan.isOpenLoop {
                        await openLoop(context, start: start, ready: ready)
                    } else {
                        await closedLoop(context, start: start)
                    }
                }
                // The grace period: what is still in flight that long after the planned end is
                // cancelled, so that a server that never answers cannot hold the run.
                if let planned {
                    group.addTask {
                        try? await clock.sleep(until: start + .seconds(planned) + plan.gracePeriod)
                        if !Task.isCancelled { context.graceEnded.raise() }
                    }
                }
                _ = await group.next()
                group.cancelAll()
            }
        }
        let tally = recorder.tally()
        // The open loop's window holds its whole schedule, up to when the request after the last
        // would be due: N requests a second apart span N seconds, not the N - 1 between them.
        var elapsed = DurationText.milliseconds(max(.zero, clock.now - start)) / 1000
        if plan.isOpenLoop, !Task.isCancelled, !progress.isStopped, let rate = plan.rate, let total = plan.totalRequests(requestCount: jobs.count), !jobs.isEmpty {
            elapsed = max(elapsed, rate.dueTime(of: total, duration: plan.seconds))
        }
        return LoadResult(
            pipeline: file.spec.name, openLoop: plan.isOpenLoop, askedRate: plan.rate, concurrency: plan.concurrency,
            extent: plan.extent(selection: selection),
            shardCount: plan.shard.count, shards: [plan.shard.index],
            start: startWall, end: startWall.addingTimeInterval(elapsed),
            ok: tally.ok, errorsByKind: tally.errorsByKind, dropped: recorder.dropped, droppedBeforeStart: recorder.droppedBeforeStart, statuses: tally.statuses,
            exchanges: tally.exchanges,
            firstFailure: tally.firstFailure, responseTimes: tally.responseTimes, serviceTimes: tally.serviceTimes
        )
    }

    /// The closed loop: this shard's share of the workers, each sending its next request as soon
    /// as its last one ended, until the shard's share of the requests is sent or the duration is
    /// over.
    private func closedLoop(_ context: Context, start: ContinuousClock.Instant) async {
        let clock = ContinuousClock()
        let total = plan.totalRequests(requestCount: context.jobs.count)
        let deadline = plan.duration.map { start + $0 }
        let shard = plan.shard
        let tickets = Counter()
        await withDiscardingTaskGroup { group in
            for worker in 0..<plan.shardConcurrency {
                group.addTask(executorPreference: context.executor(worker)) {
                    while !Task.isCancelled, !context.progress.isStopped {
                        // This shard's n-th request is the whole run's n·N + I.
                        let number = tickets.add(1) * shard.count + shard.index
                        if let total, number >= total { break }
                        if let deadline, clock.now >= deadline { break }
                        await context.send(number, due: nil, slot: worker)
                    }
                }
            }
        }
    }

    /// The open loop: each of this shard's requests of the schedule started when it is due, or
    /// dropped when this shard's share of `concurrency` is already in flight.
    ///
    /// One dispatcher an executor of the transport's, each taking every E-th request of the
    /// schedule and starting it on its own I/O thread. An executor that keeps time
    /// (`TimedTaskExecutor`, as libcurl's I/O threads do) paces its dispatcher itself: a tick
    /// wakes that thread alone, and the requests it starts go out in the same turn, where a
    /// timer of `Task.sleep` woke a thread of the global executor to hand each tick over to the
    /// I/O thread. With no executors, one dispatcher on the global executor, paced by the clock.
    private func openLoop(_ context: Context, start: ContinuousClock.Instant, ready: ContinuousClock.Instant) async {
        guard let rate = plan.rate, let total = plan.totalRequests(requestCount: context.jobs.count) else { return }
        let inFlight = Counter()
        // A shard that starts after its --start-at keeps the run's schedule: what was due before
        // it was ready is dropped, never sent late in a burst.
        let began = max(start, ready)
        let executors: [(any TaskExecutor)?] = context.executors.isEmpty ? [nil] : context.executors
        await withDiscardingTaskGroup { dispatchers in
            for (slot, executor) in executors.enumerated() {
                let dispatcher = Dispatcher(
                    context: context, rate: rate, total: total, start: start, began: began, seconds: plan.seconds, cap: plan.shardConcurrency,
                    inFlight: inFlight, first: plan.shard.index + slot * plan.shard.count, stride: plan.shard.count * executors.count,
                    slot: slot, executor: executor
                )
                dispatchers.addTask(executorPreference: executor) { await dispatcher.run() }
            }
        }
    }

    /// One dispatcher of the open loop: the requests `first`, `first + stride`, ... of the run,
    /// each started on `executor` when it is due.
    private struct Dispatcher: Sendable {
        let context: Context
        let rate: LoadRate
        let total: Int
        let start: ContinuousClock.Instant
        /// When the loop began: later than ``start`` for a shard that started after its
        /// `--start-at`, which drops the requests due before.
        let began: ContinuousClock.Instant
        let seconds: Double?
        let cap: Int
        let inFlight: Counter
        let first: Int
        let stride: Int
        let slot: Int
        let executor: (any TaskExecutor)?

        func run() async {
            let clock = ContinuousClock()
            let timed = executor as? any TimedTaskExecutor
            await withDiscardingTaskGroup { group in
                var number = first
                var woke = start - LoadRun.tick
                while number < total, !Task.isCancelled, !context.progress.isStopped {
                    let due = start + .seconds(rate.dueTime(of: number, duration: seconds))
                    if due > clock.now {
                        // At most one wake-up a tick: above a thousand requests a second, those
                        // due within a tick start together, each up to a tick late (which its
                        // response time counts), instead of a wake-up for every request.
                        woke = max(due, woke + LoadRun.tick)
                        if let timed {
                            await timed.sleep(until: woke)
                        } else {
                            try? await clock.sleep(until: woke, tolerance: .microseconds(50))
                        }
                    }
                    if context.progress.isStopped { break }
                    if due < began - LoadRun.tick {
                        context.recorder.drop(beforeStart: true)
                    } else if inFlight.current >= cap {
                        context.recorder.drop()
                    } else {
                        inFlight.add(1)
                        let (number, slot, inFlight, context) = (number, slot, inFlight, context)
                        group.addTask(executorPreference: executor) {
                            await context.send(number, due: due, slot: slot)
                            inFlight.add(-1)
                        }
                    }
                    number += stride
                }
            }
        }
    }
}
