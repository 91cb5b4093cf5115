import Foundation

/// Text compared the way JSON (RFC 8259 section 8.3), JSONPath (RFC 9535 section 2.3.1.2), YAML
/// and HTTP compare it: code point by code point, with no Unicode normalization.
///
/// Swift's `String ==` and `String` hashing treat canonically equivalent strings as equal
/// (`"e\u{301}" == "\u{E9}"`), which is wrong for member names, header values and most wire data.
/// A `String` holds its text as UTF-8 as it was given, so comparing the UTF-8 bytes compares the
/// code points.
extension StringProtocol {
    /// Whether both hold the same code points in the same order (no normalization). Native
    /// strings are compared as two runs of bytes (`memcmp`), others byte by byte.
    @inlinable
    public func hasSameCodePoints(as other: some StringProtocol) -> Bool {
        let left = utf8
        let right = other.utf8
        let contiguous = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
        if let contiguous, let equal = contiguous { return equal }
        return left.elementsEqual(right)
    }

    /// Whether `other`'s code points occur in this text in a row, compared byte for byte: no
    /// normalization, and no trip through Foundation's `range(of:)`, which `contains` on two
    /// strings takes and which costs microseconds a call.
    @inlinable
    public func containsCodePoints(_ other: some StringProtocol) -> Bool {
        let needle = other.utf8
        guard let first = needle.first else { return true }
        let haystack = utf8
        var start = haystack.startIndex
        while let found = haystack[start...].firstIndex(of: first) {
            if haystack[found...].starts(with: needle) { return true }
            start = haystack.index(after: found)
        }
        return false
    }

    /// The pieces of this text between the occurrences of `separator`'s code points, found byte
    /// for byte: no normalization, so `\n` cuts `\r\n` text and `é` (U+00E9) never matches `e`
    /// and U+0301, where Foundation's `components(separatedBy:)` compares canonically equivalent
    /// grapheme clusters. UTF-8 is self-synchronizing: a match of whole code points' bytes is a
    /// match of the code points. The text whole, as one piece, for an empty separator.
    public func codePointComponents(separatedBy separator: some StringProtocol) -> [String] {
        let needle = Array(separator.utf8)
        guard let first = needle.first else { return [String(self)] }
        let bytes = Array(utf8)
        var pieces: [String] = []
        var start = 0, index = 0
        while index < bytes.count {
            if bytes[index] == first, index + needle.count <= bytes.count, bytes[index..<(index + needle.count)].elementsEqual(needle) {
                pieces.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += needle.count
                start = index
            } else {
                index += 1
            }
        }
        return pieces + [String(decoding: bytes[start...], as: UTF8.self)]
    }

    /// This text with every occurrence of `target`'s code points replaced by `replacement`,
    /// found as ``codePointComponents(separatedBy:)`` finds them: a `'` or a `"` followed by a
    /// combining mark (U+0301) is still found, where Foundation's `replacingOccurrences(of:with:)`
    /// passes over it (a quote left unescaped in a shell command or a quoted header parameter).
    public func replacingCodePoints(of target: some StringProtocol, with replacement: some StringProtocol) -> String {
        codePointComponents(separatedBy: target).joined(separator: String(replacement))
    }
}

/// A `String` as a dictionary key or set member that is equal to another only when their code
/// points are the same: `"e\u{301}"` and `"\u{E9}"` are two keys.
public struct CodePointKey: Hashable, Sendable, CustomStringConvertible {
    /// The text.
    public let text: String

    /// Wraps `text`.
    public init(_ text: String) {
        self.text = text
    }

    /// Whether both texts have the same code points.
    public static func == (lhs: CodePointKey, rhs: CodePointKey) -> Bool {
        lhs.text.hasSameCodePoints(as: rhs.text)
    }

    /// Hashes the UTF-8 bytes, so that equal keys hash alike and canonical equivalents need not.
    public func hash(into hasher: inout Hasher) {
        hasher.combineCodePoints(of: text)
    }

    /// The text.
    public var description: String { text }
}

extension Hasher {
    /// Feeds `text`'s UTF-8 bytes and their count, so that hashing agrees with
    /// ``Swift/StringProtocol/hasSameCodePoints(as:)``.
    package mutating func combineCodePoints(of text: some StringProtocol) {
        var text = String(text)
        text.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
        combine(text.utf8.count)
    }
}
