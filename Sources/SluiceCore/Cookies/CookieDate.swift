import Foundation

/// RFC 6265 section 5.1.1: the forgiving algorithm that reads the dates of `Expires`, which real
/// servers write in every format (`Wed, 09 Jun 2021 10:18:14 GMT`, `Wednesday, 09-Jun-21 …`,
/// `Wed Jun  9 10:18:14 2021`).
package enum CookieDate {
    /// The date, or `nil` when the text does not hold one the algorithm accepts.
    package static func parse(_ text: String) -> Date? {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(Array(text.utf8)) {
            if time == nil, let parsed = hmsTime(token) {
                time = parsed
            } else if day == nil, let parsed = digits(token, minimum: 1, maximum: 2) {
                day = parsed
            } else if month == nil, let parsed = monthNumber(token) {
                month = parsed
            } else if year == nil, let parsed = digits(token, minimum: 2, maximum: 4) {
                year = parsed
            }
        }
        guard var year, let day, let month, let (hour, minute, second) = time else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // A day the month does not have (30 February) fails the algorithm's last step.
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }

    /// The date-tokens between delimiters: %x09, %x20-2F, %x3B-40, %x5B-60, %x7B-7E.
    private static func tokens(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split { byte in
            byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
                || (0x7B...0x7E).contains(byte)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// `minimum*maximum DIGIT ( non-digit *OCTET )`: the leading digits' value.
    private static func digits(_ token: ArraySlice<UInt8>, minimum: Int, maximum: Int) -> Int? {
        let count = token.prefix(while: isDigit).count
        guard (minimum...maximum).contains(count) else { return nil }
        return token.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hms-time ( non-digit *OCTET )`, each part one or two digits.
    private static func hmsTime(_ token: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        var rest = token
        var parts: [Int] = []
        for index in 0..<3 {
            let count = rest.prefix(while: isDigit).count
            guard (1...2).contains(count) else { return nil }
            parts.append(rest.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        if let next = rest.first, isDigit(next) { return nil }
        return (parts[0], parts[1], parts[2])
    }

    /// `month ( *OCTET )`: the first three letters, any case.
    private static func monthNumber(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let name = String(decoding: token.prefix(3).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        return ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].firstIndex(of: name).map { $0 + 1 }
    }
}
