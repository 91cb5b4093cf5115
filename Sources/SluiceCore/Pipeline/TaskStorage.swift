import Synchronization

/// A key into a task's typed storage.
///
/// ```swift
/// enum AttemptCount: TaskStorageKey { typealias Value = Int }
/// context.storage[AttemptCount.self] = 2
/// ```
public protocol TaskStorageKey {
    /// The type of value stored under this key.
    associatedtype Value: Sendable
}

/// Per-task storage where stages keep state of their own, typed by key.
///
/// Stages are shared by every task of a pipeline, so anything that belongs to one task lives here.
/// Safe to use from any thread.
public final class TaskStorage: Sendable {
    private let values = Mutex(KeyedValues())

    /// Creates empty storage.
    public init() {}

    /// The value stored under `key`, or `nil`; setting `nil` removes it.
    public subscript<Key: TaskStorageKey>(key: Key.Type) -> Key.Value? {
        get {
            // Cast from the value found, not from an optional: a missing key costs no cast.
            guard let value = values.withLock({ $0[ObjectIdentifier(key)] }) else { return nil }
            return value as? Key.Value
        }
        set { values.withLock { $0[ObjectIdentifier(key)] = newValue } }
    }

    /// Changes the value under `key` in place, atomically with respect to other callers.
    @discardableResult
    public func update<Key: TaskStorageKey, Result>(
        _ key: Key.Type,
        _ body: (inout Key.Value?) throws -> Result
    ) rethrows -> Result {
        try values.withLock { values in
            var value = values[ObjectIdentifier(key)].flatMap { $0 as? Key.Value }
            defer { values[ObjectIdentifier(key)] = value }
            return try body(&value)
        }
    }
}
