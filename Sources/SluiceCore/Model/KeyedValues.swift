/// Values of any type kept by the identity of their key's type: the storage of ``StageValues`` and
/// ``TaskStorage``.
///
/// A request, a response or a task holds a handful of values at most, and stages look up keys that
/// are absent as often as keys that are present, so the values are a list searched from the front:
/// comparing a few identities costs less than hashing each key, as a dictionary does. Storing
/// nothing allocates nothing; the first value stored allocates room for four.
struct KeyedValues: Sendable {
    private var entries: [(key: ObjectIdentifier, value: any Sendable)] = []

    /// The value stored under `key`, or `nil`; setting `nil` removes it.
    subscript(key: ObjectIdentifier) -> (any Sendable)? {
        get {
            // By index: the keys are read in place, and only the value found is copied out, where
            // `for entry in entries` copies every entry it passes (a retain and a release each).
            for index in entries.indices where entries[index].key == key {
                return entries[index].value
            }
            return nil
        }
        set {
            guard let index = entries.firstIndex(where: { $0.key == key }) else {
                guard let newValue else { return }
                if entries.capacity == 0 { entries.reserveCapacity(4) }
                entries.append((key, newValue))
                return
            }
            if let newValue {
                entries[index].value = newValue
            } else if entries.count == 1 {
                // The last value gone: empty storage, rather than a copy of shared storage less it.
                entries = []
            } else {
                entries.remove(at: index)
            }
        }
    }
}
