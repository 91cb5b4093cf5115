import SluiceCore

/// Durations as pipeline files and the command line write them: a number and a unit, `500ms`,
/// `30s`, `2m`, `1.5s`, or several in a row, `1h30m`, as Go's `time.ParseDuration` reads them
/// (k6's and Prometheus' durations); `0` alone is zero.
public enum DurationText {
    /// Nanoseconds a unit, by its name: Go's units, `µs` in both of its spellings.
    private static let units: [String: UInt64] = [
        "ns": 1, "us": 1_000, "\u{00B5}s": 1_000, "\u{03BC}s": 1_000, "ms": 1_000_000,
        "s": 1_000_000_000, "m": 60_000_000_000, "h": 3_600_000_000_000,
    ]

    /// The duration `text` writes, to the nanosecond, or `nil` when it is not one or more numbers
    /// (digits, a fraction, or both: `5`, `5.`, `.5`, `5.25`) each followed by a unit (`ns`,
    /// `us` or `µs`, `ms`, `s`, `m`, `h`), nor `0`; or is longer than the longest duration Go
    /// has (2,562,047 hours and a bit: 2^63 - 1 nanoseconds). A duration has no sign: a delay or
    /// a timeout is never negative. Go's own table of cases, less its signed ones, is in the
    /// tests.
    public static func parse(_ text: String) -> Duration? {
        let limit: UInt64 = 1 << 63
        var rest = Substring(text).utf8[...]
        if rest.elementsEqual("0".utf8) { return .zero }
        guard !rest.isEmpty else { return nil }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var total: UInt64 = 0
        while let first = rest.first {
            guard first == UInt8(ascii: ".") || isDigit(first) else { return nil }
            // The whole part, refused when it passes 2^63.
            var whole: UInt64 = 0
            var hasWhole = false
            while let byte = rest.first, isDigit(byte) {
                guard whole <= limit / 10 else { return nil }
                whole = whole * 10 + UInt64(byte - UInt8(ascii: "0"))
                guard whole <= limit else { return nil }
                rest.removeFirst()
                hasWhole = true
            }
            // The fraction: digits past what 2^63 holds are read and dropped, as Go drops them.
            var fraction: UInt64 = 0
            var scale = 1.0
            var hasFraction = false
            if rest.first == UInt8(ascii: ".") {
                rest.removeFirst()
                var full = false
                while let byte = rest.first, isDigit(byte) {
                    rest.removeFirst()
                    hasFraction = true
                    guard !full, fraction <= (limit - 1) / 10, fraction * 10 + UInt64(byte - UInt8(ascii: "0")) <= limit else {
                        full = true
                        continue
                    }
                    fraction = fraction * 10 + UInt64(byte - UInt8(ascii: "0"))
                    scale *= 10
                }
            }
            guard hasWhole || hasFraction else { return nil }
            let unitEnd = rest.firstIndex { $0 == UInt8(ascii: ".") || isDigit($0) } ?? rest.endIndex
            guard let unit = units[String(decoding: rest[..<unitEnd], as: UTF8.self)] else { return nil }
            rest = rest[unitEnd...]
            guard whole <= limit / unit else { return nil }
            var value = whole * unit
            if fraction > 0 {
                // In floating point, as Go computes it: at most 3.6e12 (an hour in nanoseconds).
                value += UInt64(Double(fraction) * (Double(unit) / scale))
                guard value <= limit else { return nil }
            }
            // Both at most 2^63, so their sum could pass UInt64's last value: checked before.
            guard value <= limit - total else { return nil }
            total += value
        }
        guard total < limit else { return nil }
        return .nanoseconds(Int64(total))
    }

    /// A duration as pipeline files write it: whole seconds as `60s`, anything finer in
    /// milliseconds (`200ms`, `1.5ms`), and under a millisecond in whole microseconds or
    /// nanoseconds (`250us`, `1ns`); what ``parse(_:)`` reads back as the same duration.
    public static func string(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds)s" }
        if seconds == 0, attoseconds < 1_000_000_000_000_000 {
            if attoseconds % 1_000_000_000_000 == 0 { return "\(attoseconds / 1_000_000_000_000)us" }
            if attoseconds % 1_000_000_000 == 0 { return "\(attoseconds / 1_000_000_000)ns" }
        }
        let milliseconds = milliseconds(duration)
        return milliseconds == milliseconds.rounded() ? "\(Int64(milliseconds))ms" : "\(milliseconds)ms"
    }

    /// A duration in milliseconds, as a `Double`.
    public static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
