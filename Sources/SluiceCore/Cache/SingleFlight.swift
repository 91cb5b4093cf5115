/// One network exchange at a time per cache key: the first task to need the network for a key
/// leads, and the tasks that need it for the same key meanwhile wait for the leader to land, then
/// look in the store again (where they find its response when it was storable).
///
/// A waiting task that is cancelled stops waiting at once; a leader always lands, whether its
/// exchange succeeded, failed or was cancelled.
final class SingleFlight: Sendable {
    /// What a task is to do.
    enum Role {
        /// Go to the network, then call ``land(_:)``.
        case leader
        /// Another task went to the network for the key and has landed (or this task was cancelled).
        case followed
    }

    private struct Flight {
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private struct State {
        var flights: [String: Flight] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())

    /// Leads the flight for `key` when there is none; otherwise waits until it lands.
    func join(_ key: String) async -> Role {
        let waiter: UInt64? = state.withLock { state in
            guard state.flights[key] != nil else {
                state.flights[key] = Flight()
                return nil
            }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        guard let waiter else { return .leader }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waits = state.withLock { state in
                    guard !Task.isCancelled, state.flights[key] != nil else { return false }
                    state.flights[key]!.waiters[waiter] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { $0.flights[key]?.waiters.removeValue(forKey: waiter) }
            continuation?.resume()
        }
        return .followed
    }

    /// Ends the flight for `key` and wakes the tasks waiting on it.
    func land(_ key: String) {
        let waiters = state.withLock { $0.flights.removeValue(forKey: key).map { Array($0.waiters.values) } ?? [] }
        for waiter in waiters { waiter.resume() }
    }

    /// How many tasks wait for a flight to land, over every key.
    var followersWaiting: Int {
        state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } }
    }
}
