import Foundation

/// A `Retry-After` header's value (RFC 9110, section 10.2.3): a number of seconds, or an
/// HTTP-date.
enum RetryAfter {
    /// How long the header asks to wait, counted from `now`; zero for a date in the past; `nil`
    /// when the value is neither form.
    static func delay(_ value: String, now: Date) -> Duration? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return .seconds(Int(value) ?? Int.max)
        }
        guard let date = httpDate(value) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(Int((seconds * 1000).rounded(.up))) : .zero
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An HTTP-date in any of its three forms (RFC 9110, section 5.6.7): IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`).
    static func httpDate(_ text: String) -> Date? {
        let words = text.split { $0 == " " || $0 == "," || $0 == "-" }.map(String.init)
        let day: String, month: String, year: String, time: String
        switch words.count {
        case 6 where words[5] == "GMT":
            (day, month, year, time) = (words[1], words[2], words[3], words[4])
        case 5:
            (month, day, time, year) = (words[1], words[2], words[3], words[4])
        default:
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard let monthIndex = months.firstIndex(of: month), let dayNumber = Int(day), var yearNumber = Int(year),
            clock.count == 3, (1...31).contains(dayNumber), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        if year.count == 2 { yearNumber += yearNumber < 70 ? 2000 : 1900 }
        var components = DateComponents()
        (components.year, components.month, components.day) = (yearNumber, monthIndex + 1, dayNumber)
        (components.hour, components.minute, components.second) = (clock[0], clock[1], clock[2])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar.date(from: components)
    }
}
