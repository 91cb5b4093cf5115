import SluiceCore

/// Durations as pipeline files write them: a number and a unit, `500ms`, `30s`, `2m`, `1.5s`.
public enum DurationText {
    /// The units, longest suffix first so `ms` is not read as `s`.
    private static let units: [(suffix: String, attoseconds: Double)] = [
        ("ms", 1e15), ("us", 1e12), ("s", 1e18), ("m", 60e18), ("h", 3600e18),
    ]

    /// The duration `text` writes, or `nil` when it is not a non-negative number followed by
    /// `ms`, `us`, `s`, `m` or `h`, or is longer than a million hours.
    public static func parse(_ text: String) -> Duration? {
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let value = Double(number), value.isFinite
            else { return nil }
            let attoseconds = value * unit.attoseconds
            let seconds = (attoseconds / 1e18).rounded(.down)
            guard seconds <= 3.6e9 else { return nil }
            return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(attoseconds - seconds * 1e18))
        }
        return nil
    }

    /// A duration as pipeline files write it: whole seconds as `60s`, anything finer in
    /// milliseconds (`200ms`, `1.5ms`); what ``parse(_:)`` reads back as the same duration.
    public static func string(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds)s" }
        let milliseconds = milliseconds(duration)
        return milliseconds == milliseconds.rounded() ? "\(Int64(milliseconds))ms" : "\(milliseconds)ms"
    }

    /// A duration in milliseconds, as a `Double`.
    public static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
