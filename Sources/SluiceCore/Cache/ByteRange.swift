import Foundation
/// One byte range of a `Range: bytes=…` request field (RFC 9110 section 14.1.2): `first-last`,
/// `first-`, or a suffix `-length`. Only a single range is read; several ranges, another unit or
/// a malformed field is `nil`, and the request goes to the server as it is.
struct ByteRange: Sendable, Hashable {
    /// The first byte's offset, or `nil` for a suffix range.
    var first: Int?
    /// The last byte's offset (inclusive) for `first-last`; the length for a suffix range; `nil`
    /// for `first-`.
    var last: Int?

    /// Reads a `Range` field's value.
    init?(field: String) {
        let trimmed = field.drop { $0 == " " || $0 == "\t" }
        guard trimmed.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: [" ", "\t"])
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let start = spec[..<dash], end = spec[spec.index(after: dash)...]
        func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(text)
        }
        switch (start.isEmpty, end.isEmpty) {
        case (false, false):
            guard let first = number(start), let last = number(end), first <= last else { return nil }
            (self.first, self.last) = (first, last)
        case (false, true):
            guard let first = number(start) else { return nil }
            (self.first, self.last) = (first, nil)
        case (true, false):
            guard let length = number(end), length > 0 else { return nil }
            (self.first, self.last) = (nil, length)
        case (true, true):
            return nil
        }
    }

    /// The offsets of the bytes it selects in a representation of `length` bytes (a range past
    /// the end is cut to it), or `nil` when it selects none (RFC 9110 section 14.1.1: not
    /// satisfiable).
    func bounds(in length: Int) -> ClosedRange<Int>? {
        guard length > 0 else { return nil }
        if let first {
            guard first < length else { return nil }
            return first...min(last ?? (length - 1), length - 1)
        }
        let suffix = min(last ?? 0, length)
        return (length - suffix)...(length - 1)
    }
}
