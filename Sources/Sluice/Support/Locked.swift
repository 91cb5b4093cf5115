import Foundation

/// A value that threads share, guarded by a lock.
///
/// The lock is Foundation's `NSLock`, a pthread mutex, rather than `Synchronization.Mutex`: on
/// Linux the thread sanitizer cannot see `Mutex`'s futex-based locking and reports every access
/// it guards as a race, which would hide real races among false ones. A pthread mutex it sees.
final class Locked<State> {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

extension Locked: @unchecked Sendable where State: Sendable {}
