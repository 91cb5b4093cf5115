/// A key into ``StageValues``: a type that names a value and its type.
///
/// ```swift
/// enum Attempt: StageValueKey { typealias Value = Int }
/// request.stageValues[Attempt.self] = 2
/// ```
public protocol StageValueKey {
    /// The type of value stored under this key.
    associatedtype Value: Sendable
}

/// Values that belong to one request or one response but that only some stages read or write,
/// kept by key, as a task's ``TaskStorage`` keeps per-task state.
///
/// A request's parameters and parts (for ``Serialization``), its path parameters (for
/// ``URLResolution``), its trust policy and proxy route (set by their stages for the transport),
/// a response's decoded body and cache outcome live here rather than in fields of their own, so
/// the core types stay small: every async frame of a task holds a copy of its request. The
/// properties that read them (``Request/parameters``, ``Response/decoded`` …) are extensions
/// declared beside the stage that owns them. Storing nothing allocates nothing; a value type,
/// copied on write.
public struct StageValues: Sendable {
    private var values = KeyedValues()

    /// Creates empty values.
    public init() {}

    /// The value stored under `key`, or `nil`; setting `nil` removes it.
    public subscript<Key: StageValueKey>(key: Key.Type) -> Key.Value? {
        get {
            // Cast from the value found, not from an optional: a missing key costs no cast.
            guard let value = values[ObjectIdentifier(key)] else { return nil }
            return value as? Key.Value
        }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}
