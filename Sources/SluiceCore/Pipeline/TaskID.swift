import Synchronization

/// The identity of one task, unique in the process.
public struct TaskID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number behind the id; ids are handed out in increasing order from 1.
    public let rawValue: UInt64

    /// Creates an id from its number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A fresh id, never handed out before in this process.
    static func next() -> TaskID {
        TaskID(rawValue: lastIssued.add(1, ordering: .relaxed).newValue)
    }

    private static let lastIssued = Atomic<UInt64>(0)

    /// Orders ids by creation.
    public static func < (lhs: TaskID, rhs: TaskID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `task-N`.
    public var description: String { "task-\(rawValue)" }
}
