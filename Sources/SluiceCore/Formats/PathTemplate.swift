import Foundation

/// `{name}` templates in a URL path, filled with percent-encoded path segments.
///
/// Every delimiter is ASCII, so a path is read as its UTF-8 bytes, by offset: a template is
/// found without building a string, and a name only becomes one to look its value up.
enum PathTemplate {
    /// `path` with every `{name}` (written as is or, when `escapedBracesAreTemplates`,
    /// percent-encoded, `%7Bname%7D`, as `URL` stores it) replaced by the encoded value of `name`.
    /// - Throws: `.invalidRequest` for a template without a value or a value without a template.
    static func fill(_ path: String, with values: [String: String], url: URL, escapedBracesAreTemplates: Bool = true) throws(SluiceError) -> String {
        if values.isEmpty, !path.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "%") }) {
            return path
        }
        var path = path
        path.makeContiguousUTF8()
        let filled = path.utf8.withContiguousStorageIfAvailable { fill($0, with: values, escapedBraces: escapedBracesAreTemplates) }
        switch filled {
        case .filled(let text):
            return text
        case .missing(let name):
            throw SluiceError(
                kind: .invalidRequest, stage: "url-resolution", url: url,
                message: "the path template {\(name)} has no value in path-parameters"
            )
        case .unused(let name):
            throw SluiceError(
                kind: .invalidRequest, stage: "url-resolution", url: url,
                message: "path-parameters has \(name), but the path has no {\(name)} template"
            )
        case nil:
            preconditionFailure("a contiguous string gives its UTF-8 bytes")
        }
    }

    /// What filling a path came to.
    private enum Filled {
        case filled(String)
        /// A template without a value.
        case missing(String)
        /// A value without a template, the first by name.
        case unused(String)
    }

    private static func fill(_ bytes: UnsafeBufferPointer<UInt8>, with values: [String: String], escapedBraces: Bool) -> Filled {
        var output = ""
        output.reserveCapacity(bytes.count + 16)
        var copied = 0
        var templates = 0
        while let (whole, name) = nextTemplate(in: bytes, from: copied, escapedBraces: escapedBraces) {
            let key = text(bytes, name)
            guard let value = values[key] else { return .missing(key) }
            output += text(bytes, copied..<whole.lowerBound)
            output += encodeSegment(value)
            copied = whole.upperBound
            templates += 1
        }
        output += text(bytes, copied..<bytes.count)
        // Each template found has a value; one template and one value is the common case, which
        // needs no second look. Otherwise each value's name is searched for, with no set built.
        if templates != 1 || values.count != 1,
            let unused = values.keys.filter({ !uses($0, in: bytes, escapedBraces: escapedBraces) }).sorted().first
        {
            return .unused(unused)
        }
        return .filled(output)
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether `bytes` hold a template named `name`, compared byte for byte.
    private static func uses(_ name: String, in bytes: UnsafeBufferPointer<UInt8>, escapedBraces: Bool) -> Bool {
        var start = 0
        while let (whole, found) = nextTemplate(in: bytes, from: start, escapedBraces: escapedBraces) {
            if name.utf8.elementsEqual(bytes[found]) { return true }
            start = whole.upperBound
        }
        return false
    }

    /// The first `{name}` (or `%7Bname%7D` when `escapedBraces`) at or after `start`: the offsets
    /// of the whole template and of its name.
    private static func nextTemplate(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, escapedBraces: Bool) -> (whole: Range<Int>, name: Range<Int>)? {
        var index = start
        while index < bytes.count {
            if let openLength = delimiterLength(bytes, at: index, plain: UInt8(ascii: "{"), encoded: escapedBraces ? UInt8(ascii: "B") : nil) {
                let nameStart = index + openLength
                var nameEnd = nameStart
                while nameEnd < bytes.count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                if nameEnd > nameStart,
                    let closeLength = delimiterLength(bytes, at: nameEnd, plain: UInt8(ascii: "}"), encoded: escapedBraces ? UInt8(ascii: "D") : nil)
                {
                    return (index..<nameEnd + closeLength, nameStart..<nameEnd)
                }
            }
            index += 1
        }
        return nil
    }

    /// 1 when the byte at `index` is `plain`, 3 when the bytes there are `%7` and `encoded`
    /// (either case; never when `encoded` is `nil`), else `nil`.
    private static func delimiterLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, plain: UInt8, encoded: UInt8?) -> Int? {
        guard index < bytes.count else { return nil }
        if bytes[index] == plain { return 1 }
        guard let encoded, bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "7"),
            bytes[index + 2] & 0xDF == encoded
        else { return nil }
        return 3
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        PercentEncoding.isUnreserved(byte) && byte != UInt8(ascii: "~")
    }

    /// A value as one path segment: everything but RFC 3986's unreserved characters, sub-delims,
    /// `:` and `@` percent-encoded (so `/`, `?`, `#`, `%` and space are), and `.` or `..` encoded
    /// whole so the value cannot be read as a dot segment.
    static func encodeSegment(_ value: String) -> String {
        if value.utf8.elementsEqual(".".utf8) { return "%2E" }
        if value.utf8.elementsEqual("..".utf8) { return "%2E%2E" }
        return PercentEncoding.encode(value, keeping: URLText.isSegmentByte)
    }
}
