import Foundation

/// Times as RFC 3339 writes them (`2026-11-23T09:00:00.250Z`, `2026-11-23T10:00:00+01:00`),
/// for load runs' start times and time windows.
public enum RFC3339Timestamp {
    /// `date` in UTC with six fractional digits: `2026-11-23T09:00:00.250000Z`. A date outside
    /// the years 0001 to 9999, which RFC 3339 cannot write, is written as the nearest it can.
    public static func string(_ date: Date) -> String {
        let (first, last): (Int64, Int64) = (-62_135_596_800_000_000, 253_402_300_799_999_999)
        let exact = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let microseconds = exact.isNaN ? 0 : exact <= Double(first) ? first : exact >= Double(last) ? last : Int64(exact)
        var whole = time_t(microseconds.quotientAndRemainder(dividingBy: 1_000_000).quotient)
        var fraction = microseconds - Int64(whole) * 1_000_000
        if fraction < 0 {
            whole -= 1
            fraction += 1_000_000
        }
        var parts = tm()
        gmtime_r(&whole, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), fraction
        )
    }

    /// The time `text` writes: a full date, `T` (or `t`, or a space), a time with optional
    /// fractional seconds, and `Z` or an offset `±HH:MM`. `nil` for anything else, or for a
    /// field out of its range (a leap second `:60` is read as the next second).
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2)
        else { return nil }
        var fraction = 0.0
        if expect(".") {
            let first = index
            var scale = 0.1
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), index - first < 18 {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > first else { return nil }
        }
        var offset = 0
        if !expect("Zz") {
            guard index < bytes.count else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard expect("+-"), let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        let days = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard index == bytes.count, (1...12).contains(month), (1...days[month - 1]).contains(day), hour < 24, minute < 60, second <= 60 else {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }
}
