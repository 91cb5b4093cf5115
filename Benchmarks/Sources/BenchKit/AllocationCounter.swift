import Synchronization

/// Counts the allocations a stretch of code makes, when the process has a counter.
///
/// `sluice-bench-allocs`, linked with malloc-interposer, installs one before it runs a command;
/// `sluice-bench` installs none, so its timed runs pay nothing for counting and report counts
/// as absent.
public struct AllocationCounter: Sendable {
    /// What was counted between `start` and `stop`.
    public struct Counts: Sendable {
        /// Blocks allocated.
        public var allocations: Int
        /// Blocks allocated and not freed.
        public var liveAllocations: Int
        /// Bytes allocated and not freed.
        public var liveBytes: Int

        /// Creates counts.
        public init(allocations: Int, liveAllocations: Int, liveBytes: Int) {
            self.allocations = allocations
            self.liveAllocations = liveAllocations
            self.liveBytes = liveBytes
        }
    }

    /// Resets the counts and starts counting.
    public var start: @Sendable () -> Void
    /// Stops counting and returns the counts.
    public var stop: @Sendable () -> Counts

    /// Creates a counter from its two operations.
    public init(start: @escaping @Sendable () -> Void, stop: @escaping @Sendable () -> Counts) {
        self.start = start
        self.stop = stop
    }

    private static let current = Mutex<AllocationCounter?>(nil)

    /// Makes `counter` the process's counter; call it before the command runs.
    public static func install(_ counter: AllocationCounter) {
        current.withLock { $0 = counter }
    }

    /// The process's counter, if it has one.
    static var installed: AllocationCounter? {
        current.withLock { $0 }
    }

    /// Counts what `body` allocates; `nil` counts without a counter.
    static func count(_ body: () async throws -> Void) async rethrows -> Counts? {
        guard let counter = installed else {
            try await body()
            return nil
        }
        counter.start()
        try await body()
        return counter.stop()
    }
}
