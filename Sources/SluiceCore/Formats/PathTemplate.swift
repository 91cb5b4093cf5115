import Foundation

/// `{name}` templates in a URL path, filled with percent-encoded path segments.
enum PathTemplate {
    /// `path` with every `{name}` (written as is or percent-encoded, `%7Bname%7D`, as `URL` stores
    /// it) replaced by the encoded value of `name`.
    /// - Throws: `.invalidRequest` for a template without a value or a value without a template.
    static func fill(_ path: String, with values: [String: String], url: URL) throws(SluiceError) -> String {
        if values.isEmpty, !path.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "%") }) {
            return path
        }
        var output = ""
        output.reserveCapacity(path.utf8.count + 16)
        var rest = Substring(path)
        while let (range, name) = nextTemplate(in: rest) {
            guard let value = values[name] else {
                throw SluiceError(
                    kind: .invalidRequest, stage: "url-resolution", url: url,
                    message: "the path template {\(name)} has no value in path-parameters"
                )
            }
            output += rest[..<range.lowerBound]
            output += encodeSegment(value)
            rest = rest[range.upperBound...]
        }
        output += rest
        // Checked by a second scan, not a set of the names used: a request pays for no set.
        if values.keys.contains(where: { !uses($0, in: path) }), let unused = values.keys.filter({ !uses($0, in: path) }).sorted().first {
            throw SluiceError(
                kind: .invalidRequest, stage: "url-resolution", url: url,
                message: "path-parameters has \(unused), but the path has no {\(unused)} template"
            )
        }
        return output
    }

    /// Whether `path` has a template named `name`.
    private static func uses(_ name: String, in path: String) -> Bool {
        var rest = Substring(path)
        while let (range, found) = nextTemplate(in: rest) {
            if found == name { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// The first `{name}` or `%7Bname%7D` in `text`, with its range and name. Works on the UTF-8
    /// bytes: every delimiter is ASCII, so byte positions are valid string indices.
    private static func nextTemplate(in text: Substring) -> (Range<Substring.Index>, String)? {
        let bytes = text.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let openLength = delimiterLength(bytes[index...], plain: UInt8(ascii: "{"), encoded: UInt8(ascii: "B")) else {
                index = bytes.index(after: index)
                continue
            }
            let nameStart = bytes.index(index, offsetBy: openLength)
            var nameEnd = nameStart
            while nameEnd < bytes.endIndex, isNameByte(bytes[nameEnd]) { nameEnd = bytes.index(after: nameEnd) }
            if nameEnd > nameStart, let closeLength = delimiterLength(bytes[nameEnd...], plain: UInt8(ascii: "}"), encoded: UInt8(ascii: "D")) {
                return (index..<bytes.index(nameEnd, offsetBy: closeLength), String(text[nameStart..<nameEnd]))
            }
            index = bytes.index(after: index)
        }
        return nil
    }

    /// 1 when `bytes` starts with `plain`, 3 when with `%7` and `encoded` (either case), else `nil`.
    private static func delimiterLength(_ bytes: Substring.UTF8View.SubSequence, plain: UInt8, encoded: UInt8) -> Int? {
        var iterator = bytes.makeIterator()
        switch iterator.next() {
        case plain: return 1
        case UInt8(ascii: "%"):
            guard iterator.next() == UInt8(ascii: "7"), let last = iterator.next(), last & 0xDF == encoded else { return nil }
            return 3
        default: return nil
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        PercentEncoding.isUnreserved(byte) && byte != UInt8(ascii: "~")
    }

    /// A value as one path segment: everything but RFC 3986's unreserved characters, sub-delims,
    /// `:` and `@` percent-encoded (so `/`, `?`, `#`, `%` and space are), and `.` or `..` encoded
    /// whole so the value cannot be read as a dot segment.
    static func encodeSegment(_ value: String) -> String {
        if value == "." { return "%2E" }
        if value == ".." { return "%2E%2E" }
        return PercentEncoding.encode(value) { byte in
            PercentEncoding.isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
        }
    }
}
