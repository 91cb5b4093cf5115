import Foundation

/// A value that threads share, guarded by a lock.
///
/// The value and its pthread mutex live in one allocation (a `ManagedBuffer`, the mutex in its
/// tail), where Foundation's `NSLock` would cost two more per lock: every task holds several of
/// these. A pthread mutex rather than `Synchronization.Mutex`: on Linux the thread sanitizer
/// cannot see `Mutex`'s futex-based locking and reports every access it guards as a race, which
/// would hide real races among false ones. A pthread mutex it sees.
///
/// Copies share the one value and lock, as references to a class would.
package struct Locked<State> {
    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        // The value is the buffer's `header`, a stored property its class destroys; the mutex,
        // in the tail, is destroyed here.
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    package init(_ state: State) {
        // `create` returns the class it was called on, a `Storage`.
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in state }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            _ = pthread_mutex_init(mutex, nil)
        }
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try storage.withUnsafeMutablePointers { (state, mutex) throws(Failure) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}

extension Locked: @unchecked Sendable where State: Sendable {}
