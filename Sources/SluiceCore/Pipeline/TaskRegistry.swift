import Foundation

/// A session manager's table of the tasks in flight, `[TaskID: TaskContext]` under a lock.
///
/// It lists the tasks in flight (``SessionManager/tasks``), cancels them all on invalidation and
/// waits for them to drain. Transports do not go through it: each task's reports go to its own
/// ``TaskTransportEvents``.
final class TaskRegistry: Sendable {
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
}
