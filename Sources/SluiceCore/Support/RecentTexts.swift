/// Values for the texts met lately, found by the text compared code point by code point (so that
/// canonically equivalent texts stay apart, as they do on the wire), at most `limit` of them: past
/// it the memory starts over, so a run of ever new texts pays a hash and an insertion each and
/// holds no more than `limit`. What ``RecentURLs`` and ``URLResolution`` remember their URLs in.
struct RecentTexts<Value: Sendable>: Sendable {
    /// The most texts remembered.
    let limit: Int
    private let values = Locked<[CodePointKey: Value]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// The value remembered for `key`, if any.
    func value(for key: CodePointKey) -> Value? {
        values.withLock { $0[key] }
    }

    /// Remembers `value` for `key`.
    func remember(_ value: Value, for key: CodePointKey) {
        values.withLock { values in
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
    }
}
