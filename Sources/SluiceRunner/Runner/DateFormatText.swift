import Foundation
import SluiceCore

/// Dates read and written with `strftime` formats, as Hurl's `toDate` and `format` filters take
/// them (`%Y-%m-%dT%H:%M:%S%z`, chrono's dialect): each field is translated to the Unicode date
/// pattern Foundation's formatter reads and writes, in UTC with the POSIX locale. Fractional
/// seconds (`%.f`, `%.3f`, `%.6f`, `%.9f`, `%3f`...) are read and written too.
enum DateFormatText {
    /// The date `text` holds in `format`, or `nil` when it does not match all of it or the format
    /// has a field this reader does not know.
    static func parse(_ text: String, format: String) -> Date? {
        guard let formatter = formatter(for: format) else { return nil }
        return formatter.date(from: text)
    }

    /// `date` written in `format`, in UTC; an unknown field is written as it stands. `%.f` is
    /// written as chrono writes it: nothing for a whole second, else a dot and 3 or 6 digits,
    /// the fewest that hold the fraction to the microsecond a `Date` keeps (`...:01Z`,
    /// `...:01.594Z`).
    static func format(_ date: Date, format: String) -> String {
        // The formatter cuts fractions off; half a microsecond on makes it round to the
        // microsecond a `Date` holds (a stored .594 may be .59399998).
        let date = date.addingTimeInterval(0.000_000_5)
        let pieces = format.components(separatedBy: "%.f")
        guard pieces.count > 1 else { return formatter(for: format)?.string(from: date) ?? format }
        let fraction = chronoFraction(of: date)
        return pieces.map { $0.isEmpty ? "" : (formatter(for: $0)?.string(from: date) ?? $0) }.joined(separator: fraction)
    }

    /// chrono's `%.f`: the fraction of the second, to the microsecond a `Date` holds.
    private static func chronoFraction(of date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let microseconds = Int((seconds - seconds.rounded(.down)) * 1_000_000) % 1_000_000
        guard microseconds > 0 else { return "" }
        let digits = String(format: "%06d", microseconds)
        return "." + (microseconds % 1000 == 0 ? String(digits.prefix(3)) : digits)
    }

    /// A formatter for the strftime format, or `nil` when it has a field with no translation.
    private static func formatter(for format: String) -> DateFormatter? {
        guard let pattern = pattern(for: format) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    }

    /// strftime's fields and their Unicode date patterns (UTS #35).
    private static let fields: [String: String] = [
        "Y": "yyyy", "C": "", "y": "yy", "m": "MM", "b": "MMM", "h": "MMM", "B": "MMMM", "d": "dd", "e": "d",
        "a": "EEE", "A": "EEEE", "j": "DDD", "H": "HH", "k": "H", "I": "hh", "l": "h", "M": "mm", "S": "ss",
        "p": "a", "P": "a", "z": "xx", ":z": "xxx", "Z": "zzz", "F": "yyyy-MM-dd", "T": "HH:mm:ss",
        "R": "HH:mm", "D": "MM/dd/yy", "s": "", "%": "'%'", "+": "yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx",
        ".f": ".SSSSSS", ".3f": ".SSS", ".6f": ".SSSSSS", ".9f": ".SSSSSSSSS", "3f": "SSS", "6f": "SSSSSS", "9f": "SSSSSSSSS",
        "f": "SSSSSSSSS", "n": "'\n'", "t": "'\t'",
    ]

    /// The Unicode date pattern of a strftime format; literal text is quoted.
    private static func pattern(for format: String) -> String? {
        var pattern = ""
        var literal = ""
        func flush() {
            guard !literal.isEmpty else { return }
            pattern += "'" + literal.replacingCodePoints(of: "'", with: "''") + "'"
            literal = ""
        }
        var rest = Substring(format)
        while let first = rest.first {
            guard first == "%" else {
                literal.append(first)
                rest = rest.dropFirst()
                continue
            }
            rest = rest.dropFirst()
            guard let field = [":z", ".3f", ".6f", ".9f", ".f", "3f", "6f", "9f"].first(where: { rest.hasPrefix($0) }) ?? rest.first.map(String.init),
                let translated = fields[field], !translated.isEmpty
            else { return nil }
            flush()
            pattern += translated
            rest = rest.dropFirst(field.count)
        }
        flush()
        return pattern
    }
}
