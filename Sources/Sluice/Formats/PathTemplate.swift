import Foundation

/// `{name}` templates in a URL path, filled with percent-encoded path segments.
enum PathTemplate {
    /// `path` with every `{name}` (written as is or percent-encoded, `%7Bname%7D`, as `URL` stores
    /// it) replaced by the encoded value of `name`.
    /// - Throws: `.invalidRequest` for a template without a value or a value without a template.
    static func fill(_ path: String, with values: [String: String], url: URL) throws(SluiceError) -> String {
        var output = ""
        var used: Set<String> = []
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
            used.insert(name)
            rest = rest[range.upperBound...]
        }
        output += rest
        if let unused = values.keys.filter({ !used.contains($0) }).sorted().first {
            throw SluiceError(
                kind: .invalidRequest, stage: "url-resolution", url: url,
                message: "path-parameters has \(unused), but the path has no {\(unused)} template"
            )
        }
        return output
    }

    /// The first `{name}` or `%7Bname%7D` in `text`, with its range and name.
    private static func nextTemplate(in text: Substring) -> (Range<Substring.Index>, String)? {
        var index = text.startIndex
        while index < text.endIndex {
            let openLength: Int
            if text[index] == "{" {
                openLength = 1
            } else if text[index...].prefix(3).uppercased() == "%7B" {
                openLength = 3
            } else {
                index = text.index(after: index)
                continue
            }
            let nameStart = text.index(index, offsetBy: openLength)
            var nameEnd = nameStart
            while nameEnd < text.endIndex, isNameCharacter(text[nameEnd]) { nameEnd = text.index(after: nameEnd) }
            let close = text[nameEnd...]
            let closeLength = close.hasPrefix("}") ? 1 : close.prefix(3).uppercased() == "%7D" ? 3 : 0
            if nameEnd > nameStart, closeLength > 0 {
                return (index..<text.index(nameEnd, offsetBy: closeLength), String(text[nameStart..<nameEnd]))
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-" || character == ".")
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
