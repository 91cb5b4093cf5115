import Foundation
import Logging
import Synchronization

/// Everything that belongs to one task while it runs: its id, the request it was created with,
/// cancellation and suspension, progress, metrics, a logger, and typed storage for stages.
///
/// The session manager creates one per task and keeps it in its `[TaskID: TaskContext]` table
/// until the task ends; every stage and every transport report for the task reaches this object.
/// Safe to use from any thread.
public final class TaskContext: Sendable {
    /// The task's id.
    public let id: TaskID
    /// The request the task was created with (its timeouts filled from the pipeline's).
    public let request: Request
    /// A logger whose metadata carries the task id.
    public var logger: Logger {
        var logger = managerLogger
        logger[metadataKey: "task-id"] = "\(id.rawValue)"
        return logger
    }

    /// Whether the task logs at `level`: a check that costs nothing, before building a message.
    func logs(at level: Logger.Level) -> Bool {
        managerLogger.logLevel <= level
    }

    /// Upload and download progress.
    public let progress: ProgressReporter
    /// Typed per-task storage for stages.
    public let storage: TaskStorage
    /// The transport of the pipeline the task runs through: what a stage that sends requests of
    /// its own (a token fetch) sends them with, so that they take the task's routes and trust.
    public let transport: any Transport
    /// The transport's executor the task runs on, chosen once when it started; `nil` for the
    /// global executor. Handed to the transport with every exchange (``TransportEvents/executor``).
    let executor: (any TaskExecutor)?

    /// Where the transport's reports for this task go: straight to this context.
    var transportEvents: TaskTransportEvents { TaskTransportEvents(context: self) }
    /// The manager's logger; ``logger`` adds the task id to it when asked, not for every task.
    private let managerLogger: Logger
    private let monitors: [any EventMonitor]
    private let state: Mutex<State>

    private struct State {
        var cancelled = false
        var suspended = false
        /// The Swift task that runs the chain, kept itself rather than a closure that cancels it:
        /// one allocation a task fewer.
        var runningTask: Task<Response, any Error>?
        var transfers: [any TransferControl] = []
        var resumeWaiters: [CheckedContinuation<Void, Never>] = []
        var metrics: TaskMetrics
        var afterResponse: [Request] = []
        /// The time the handlers of the chain have spent since the handler they run under began:
        /// each adds its whole time here as it ends, so that the handler above them can take it
        /// from its own (see ``handlerStarted()``).
        var below = Duration.zero
    }

    init(
        id: TaskID,
        request: Request,
        stageNames: [String],
        logger: Logger,
        monitors: [any EventMonitor],
        transport: any Transport,
        executor: (any TaskExecutor)?
    ) {
        self.transport = transport
        self.executor = executor
        self.id = id
        self.request = request
        managerLogger = logger
        self.monitors = monitors
        progress = ProgressReporter()
        storage = TaskStorage()
        state = Mutex(State(metrics: TaskMetrics(stageNames: stageNames)))
    }

    // MARK: Metrics

    /// What the task has measured so far: time inside each stage, wire metrics of each exchange.
    public var metrics: TaskMetrics {
        state.withLock { $0.metrics }
    }

    /// What the stages reported about this task so far (``TaskMetrics/notes``), without copying
    /// the rest of the metrics.
    package var notes: [StageNote] {
        state.withLock { $0.metrics.notes }
    }

    /// Records something a stage wants seen about this task: it is kept in ``metrics`` and sent
    /// to event monitors.
    /// - Parameters:
    ///   - name: a short name for what happened, the same for every note of its kind (`attempt`).
    ///   - detail: a sentence for people.
    ///   - stage: the reporting stage's name.
    public func note(_ name: String, _ detail: String, stage: String) {
        note(StageNote(stage: stage, name: name, detail: detail))
    }

    /// Sends `request` through the pipeline once this task has its response, as a task of its own
    /// whose response nobody waits for: a cache's revalidation in the background
    /// (`stale-while-revalidate`, RFC 5861). The manager starts it when this task ends with a
    /// response, not when it fails or is cancelled; monitors see it as any task, and cancelling
    /// or invalidating the manager reaches it.
    public func sendAfterResponse(_ request: Request) {
        state.withLock { $0.afterResponse.append(request) }
    }

    /// The requests ``sendAfterResponse(_:)`` left, taken once.
    func takeAfterResponse() -> [Request] {
        state.withLock { state in
            defer { state.afterResponse = [] }
            return state.afterResponse
        }
    }

    /// Records a note, its typed values included, and changes the task's metrics in the same step
    /// (a stage's own measures, in ``TaskMetrics/stageValues``).
    /// - Parameters:
    ///   - note: the note, kept in ``metrics`` and sent to event monitors.
    ///   - update: what changes in the metrics with it.
    public func note(_ note: StageNote, updating update: (inout TaskMetrics) -> Void = { _ in }) {
        state.withLock { state in
            update(&state.metrics)
            state.metrics.notes.append(note)
        }
        emit(.note(note))
    }

    // MARK: Cancellation

    /// Whether the task was cancelled.
    public var isCancelled: Bool {
        state.withLock { $0.cancelled }
    }

    /// Cancels the task: the running stage sees Swift task cancellation, the exchange under way
    /// ends at once, and the task ends with a `.cancelled` error. Cancelling twice does nothing more.
    public func cancel() {
        let (runningTask, waiters) = state.withLock { state in
            guard !state.cancelled else { return (nil as Task<Response, any Error>?, [CheckedContinuation<Void, Never>]()) }
            state.cancelled = true
            defer { state.resumeWaiters = [] }
            return (state.runningTask, state.resumeWaiters)
        }
        runningTask?.cancel()
        for waiter in waiters { waiter.resume() }
    }

    /// Connects the context to the Swift task that runs the chain, so `cancel()` reaches it;
    /// does nothing once the task has ended.
    func attach(_ runningTask: Task<Response, any Error>) {
        let cancelledAlready = state.withLock { state in
            guard state.metrics.finished == nil else { return false }
            state.runningTask = runningTask
            return state.cancelled
        }
        if cancelledAlready { runningTask.cancel() }
    }

    // MARK: Suspension

    /// Whether the task is suspended.
    public var isSuspended: Bool {
        state.withLock { $0.suspended }
    }

    /// Pauses the task: an exchange under way stops moving bytes, and a new one waits before it
    /// starts, until `resume()`. Timeouts keep running.
    public func suspend() {
        let transfers = state.withLock { state -> [any TransferControl] in
            guard !state.suspended, !state.cancelled else { return [] }
            state.suspended = true
            return state.transfers
        }
        for transfer in transfers { transfer.suspend() }
    }

    /// Lets a suspended task go on.
    public func resume() {
        let (transfers, waiters) = state.withLock { state in
            guard state.suspended else { return ([any TransferControl](), [CheckedContinuation<Void, Never>]()) }
            state.suspended = false
            defer { state.resumeWaiters = [] }
            return (state.transfers, state.resumeWaiters)
        }
        for transfer in transfers { transfer.resume() }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the task is not suspended; throws `CancellationError` if it was cancelled.
    func waitWhileSuspended() async throws {
        if state.withLock({ $0.suspended && !$0.cancelled }) {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let mustWait = state.withLock { state in
                        guard state.suspended, !state.cancelled, !Task.isCancelled else { return false }
                        state.resumeWaiters.append(continuation)
                        return true
                    }
                    if !mustWait { continuation.resume() }
                }
            } onCancel: {
                cancel()
            }
        }
        if isCancelled || Task.isCancelled { throw CancellationError() }
    }

    // MARK: Transport reports (through ``TaskTransportEvents``)

    func transferStarted(url: URL, control: any TransferControl) {
        let suspended = state.withLock { state in
            state.transfers.append(control)
            return state.suspended
        }
        if suspended { control.suspend() }
        emit(.transferStarted(url))
    }

    func requestSent() {
        emit(.requestSent)
    }

    func responseStarted(status: Int) {
        emit(.firstByte(status: status))
    }

    func transferFinished(control: any TransferControl, metrics: TransferMetrics?) {
        state.withLock { state in
            state.transfers.removeAll { $0 === control }
            if let metrics { state.metrics.transfers.append(metrics) }
        }
        emit(.transferFinished(metrics))
    }

    // MARK: Chain instrumentation
    // Called from the chain's async handlers, and out of line: an event built inline would take
    // room in the frame of every handler, which every task in flight holds.

    // A handler's own time is its whole time less the whole times of the handlers it called,
    // which they report here as they end: the clock is kept in the context, not in a closure
    // wrapped around `next` that every task in flight would hold a frame of.

    @inline(never)
    func stageEntered(name: String) {
        emit(.stageEntered(name))
    }

    /// Starts a handler of the chain: returns the time already reported under the handler above
    /// it, which ``stageLeft(_:name:started:saved:)`` or ``handlerEnded(started:saved:)`` puts
    /// back, and counts what is reported under this one from zero.
    @inline(never)
    func handlerStarted() -> Duration {
        state.withLock { state in
            defer { state.below = .zero }
            return state.below
        }
    }

    /// Ends a handler that is not a stage (a run of one-sided stages, the transport's): its whole
    /// time, since `started`, reported to the handler above it.
    @inline(never)
    func handlerEnded(started: ContinuousClock.Instant, saved: Duration) {
        let whole = ContinuousClock.now - started
        state.withLock { $0.below = saved + whole }
    }

    /// Ends the stage at `index`, started at `started` (`saved` from ``handlerStarted()``): its
    /// own time, the whole less what the handlers it called reported, is added to its metrics,
    /// and its whole time reported to the handler above it.
    @inline(never)
    func stageLeft(_ index: Int, name: String, started: ContinuousClock.Instant, saved: Duration) {
        let whole = ContinuousClock.now - started
        let spent = state.withLock { state in
            let spent = whole - state.below
            state.metrics.stages[index].duration += spent
            state.metrics.stages[index].invocations += 1
            state.below = saved + whole
            return spent
        }
        emit(.stageLeft(name, spent))
    }

    /// Records that one-sided stages were left, innermost first in the events (`stages` is in
    /// pipeline order): their times in one update of the metrics, and the run's whole time, since
    /// `started` (`saved` from ``handlerStarted()``), reported to the handler above it.
    func stagesLeft(
        _ stages: some BidirectionalCollection<(index: Int, name: String)>, spent: [Duration], started: ContinuousClock.Instant, saved: Duration
    ) {
        let whole = ContinuousClock.now - started
        state.withLock { state in
            for (position, stage) in stages.enumerated() {
                state.metrics.stages[stage.index].duration += spent[position]
                state.metrics.stages[stage.index].invocations += 1
            }
            state.below = saved + whole
        }
        guard !monitors.isEmpty else { return }
        for (position, stage) in stages.enumerated().reversed() {
            emit(.stageLeft(stage.name, spent[position]))
        }
    }

    /// Records the end of the task, lets go of the running Swift task (which holds this context)
    /// and closes the progress streams.
    func finish() {
        state.withLock { state in
            state.metrics.finished = .now
            state.runningTask = nil
        }
        progress.finish()
    }

    // MARK: Events

    @inline(never)
    func emit(_ kind: TaskEvent.Kind) {
        guard !monitors.isEmpty else { return }
        let event = TaskEvent(taskID: id, request: request, kind: kind)
        for monitor in monitors { monitor.receive(event) }
    }
}
