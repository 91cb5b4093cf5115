import Foundation

/// A session manager's table of the tasks in flight, `[TaskID: TaskContext]` under a lock.
///
/// It is what transports report to: each report names a task id, and the table hands it to that
/// task's context, the way AFURLSessionManager hands each session callback to its task's delegate.
/// A report for an id no longer in the table is dropped (its trust check fails), so a late callback
/// never reaches a task that has ended.
final class TaskRegistry: TransportEvents, Sendable {
    private struct State {
        var contexts: [TaskID: TaskContext] = [:]
        var invalidated = false
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Adds a task; returns `false`, adding nothing, once the manager is invalidated.
    func insert(_ context: TaskContext) -> Bool {
        state.withLock { state in
            guard !state.invalidated else { return false }
            state.contexts[context.id] = context
            return true
        }
    }

    /// Removes a task that has ended, waking whoever waits for the table to drain.
    func remove(_ id: TaskID) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.contexts[id] = nil
            guard state.contexts.isEmpty else { return [] }
            defer { state.drainWaiters = [] }
            return state.drainWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The context of a task in flight.
    func context(for id: TaskID) -> TaskContext? {
        state.withLock { $0.contexts[id] }
    }

    /// Every task in flight, oldest first.
    var contexts: [TaskContext] {
        state.withLock { Array($0.contexts.values) }.sorted { $0.id < $1.id }
    }

    /// Refuses new tasks from now on.
    func invalidate() {
        state.withLock { $0.invalidated = true }
    }

    /// Whether new tasks are refused.
    var isInvalidated: Bool {
        state.withLock { $0.invalidated }
    }

    /// Returns once no task is in flight.
    func drained() async {
        await withCheckedContinuation { continuation in
            let empty = state.withLock { state in
                if state.contexts.isEmpty { return true }
                state.drainWaiters.append(continuation)
                return false
            }
            if empty { continuation.resume() }
        }
    }

    // MARK: TransportEvents

    func transferStarted(_ task: TaskID, url: URL, control: any TransferControl) {
        context(for: task)?.transferStarted(url: url, control: control)
    }

    func evaluateTrust(_ task: TaskID, connection: ConnectionInfo) -> TrustDecision {
        guard let context = context(for: task) else {
            return .reject(reason: "\(task) is no longer in flight")
        }
        return context.evaluateTrust(connection)
    }

    func requestSent(_ task: TaskID) {
        context(for: task)?.requestSent()
    }

    func responseStarted(_ task: TaskID, status: Int) {
        context(for: task)?.responseStarted(status: status)
    }

    func progressed(_ task: TaskID, _ progress: TaskProgress) {
        context(for: task)?.progress.update(progress)
    }

    func transferFinished(_ task: TaskID, control: any TransferControl, metrics: TransferMetrics?) {
        context(for: task)?.transferFinished(control: control, metrics: metrics)
    }
}
