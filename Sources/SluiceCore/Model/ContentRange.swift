/// A byte range's `Content-Range` field (RFC 9110 section 14.4), as far as resuming a download
/// reads it: where a part starts, or how long the whole is when no part was sent.
package enum ContentRange: Equatable {
    /// `bytes FIRST-LAST/LENGTH`: a part that starts at byte `first`.
    case satisfied(first: Int64)
    /// `bytes */LENGTH` (a `416`): no part; the whole is `completeLength` bytes.
    case unsatisfied(completeLength: Int64)

    /// Reads a field value; `nil` for one of another unit or form.
    package init?(_ value: String) {
        let parts = value.split(separator: " ")
        guard parts.count == 2, parts[0].asciiLowercased == "bytes" else { return nil }
        let range = parts[1]
        if range.hasPrefix("*/") {
            guard let length = ContentRange.number(range.dropFirst(2)) else { return nil }
            self = .unsatisfied(completeLength: length)
        } else {
            guard let dash = range.firstIndex(of: "-"), let first = ContentRange.number(range[..<dash]) else { return nil }
            self = .satisfied(first: first)
        }
    }

    /// ASCII digits as a number; `nil` for anything else, or none.
    private static func number(_ digits: Substring) -> Int64? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(digits)
    }
}
