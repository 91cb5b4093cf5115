import Foundation

/// HTTP's dates (RFC 9110 section 5.6.7), which `Date`, `Expires`, `Last-Modified` and
/// `If-Modified-Since` carry: the preferred IMF-fixdate and the two obsolete formats recipients
/// must still read.
///
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`, its two-digit year read as the most recent year
///   with those digits that is not more than 50 years in the future
/// - asctime: `Sun Nov  6 08:49:37 1994`
///
/// Day names, month names and `GMT` are read without regard to ASCII case (`THU`, `aug`, `gMT`),
/// as browsers, curl and OkHttp read them and cache-tests' `freshness-expires-wrong-case-*` ask,
/// although RFC 9110 writes the grammar case-sensitively; anything else is not a date
/// (`Expires: 0` included, which a cache then reads as already expired).
public enum HTTPDate {
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date `text` holds in one of the three formats, or `nil`.
    /// - Parameters:
    ///   - text: an IMF-fixdate, an RFC 850 date or an asctime date.
    ///   - now: the time a two-digit RFC 850 year is read against.
    public static func parse(_ text: some StringProtocol, now: Date = Date()) -> Date? {
        let bytes = Array(text.utf8)
        return imfFixdate(bytes) ?? rfc850(bytes, now: now) ?? asctime(bytes)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`: the format HTTP senders must generate.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = civil(fromDays: days)
        let second = seconds - days * 86_400
        let weekday = Int((days % 7 + 7 + 3) % 7)  // 1970-01-01 was a Thursday.
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        // The year is 4DIGIT: 997 is written 0997.
        return "\(dayNames[weekday]), \(padded(day, 2)) \(monthNames[Int(month) - 1]) \(padded(year, 4)) "
            + "\(padded(second / 3600, 2)):\(padded(second / 60 % 60, 2)):\(padded(second % 60, 2)) GMT"
    }

    // MARK: The three formats

    private static func imfFixdate(_ bytes: [UInt8]) -> Date? {
        var reader = Reader(bytes)
        guard reader.word(in: dayNames) != nil, reader.literal(", "), let day = reader.digits(2), reader.literal(" "),
            let month = reader.word(in: monthNames), reader.literal(" "), let year = reader.digits(4), reader.literal(" "),
            let time = reader.timeOfDay(), reader.literal(" GMT"), reader.atEnd
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    private static func rfc850(_ bytes: [UInt8], now: Date) -> Date? {
        var reader = Reader(bytes)
        guard reader.word(in: longDayNames) != nil, reader.literal(", "), let day = reader.digits(2), reader.literal("-"),
            let month = reader.word(in: monthNames), reader.literal("-"), let shortYear = reader.digits(2), reader.literal(" "),
            let time = reader.timeOfDay(), reader.literal(" GMT"), reader.atEnd
        else { return nil }
        let currentYear = Int(civil(fromDays: Int64((now.timeIntervalSince1970 / 86_400).rounded(.down))).year)
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    private static func asctime(_ bytes: [UInt8]) -> Date? {
        var reader = Reader(bytes)
        guard reader.word(in: dayNames) != nil, reader.literal(" "), let month = reader.word(in: monthNames), reader.literal(" ")
        else { return nil }
        let day: Int
        if reader.literal(" ") {
            guard let digit = reader.digits(1) else { return nil }
            day = digit
        } else {
            guard let digits = reader.digits(2) else { return nil }
            day = digits
        }
        guard reader.literal(" "), let time = reader.timeOfDay(), reader.literal(" "), let year = reader.digits(4), reader.atEnd else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    // MARK: Arithmetic

    /// The date of a calendar day and time in UTC, or `nil` for a day the month does not have or
    /// a time past 23:59:60 (a leap second reads as the next second).
    private static func date(year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            time.hour <= 23, time.minute <= 59, time.second <= 60
        else { return nil }
        let days = self.days(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = days * 86_400 + Int64(time.hour * 3600 + time.minute * 60 + time.second)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (`civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Reads a date's bytes left to right.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            let matches = text.withUTF8Buffer { $0.elementsEqual(bytes[position..<position + count]) { Reader.folded($0) == Reader.folded($1) } }
            if matches { position += count }
            return matches
        }

        /// The index of the word of `words` that comes next, compared byte for byte without
        /// regard to ASCII case.
        mutating func word(in words: [String]) -> Int? {
            for (index, word) in words.enumerated() {
                let count = word.utf8.count
                if position + count <= bytes.count, word.utf8.elementsEqual(bytes[position..<position + count], by: { Reader.folded($0) == Reader.folded($1) }) {
                    position += count
                    return index
                }
            }
            return nil
        }

        /// An ASCII letter in lower case; any other byte as it is.
        static func folded(_ byte: UInt8) -> UInt8 {
            (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
        }

        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += count
            return value
        }

        /// `HH:MM:SS`.
        mutating func timeOfDay() -> (hour: Int, minute: Int, second: Int)? {
            guard let hour = digits(2), literal(":"), let minute = digits(2), literal(":"), let second = digits(2) else { return nil }
            return (hour, minute, second)
        }
    }
}
