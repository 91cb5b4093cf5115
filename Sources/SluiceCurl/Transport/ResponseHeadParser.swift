import SluiceCore

/// Builds a response's status and header fields from the lines libcurl hands over one by one.
///
/// Pure: it takes bytes and returns what they meant, with no I/O, so every rule is tested without
/// a socket. A status line starts a new head (interim `1xx` responses and proxy `CONNECT` answers
/// come before the final one); a blank line ends it; lines after the final head (trailers) are
/// ignored; a line starting with white space continues the previous field (obsolete folding).
struct ResponseHeadParser {
    /// What one line meant.
    enum Event: Equatable {
        /// The status line of a final (non-1xx) response: the first byte of the answer.
        case finalStatus(Int)
        /// The blank line that ends the final response's head.
        case headComplete
    }

    private(set) var status: Int?
    private(set) var version: HTTPVersion = .unknown
    /// The status line's reason phrase, `nil` when it has none.
    private(set) var reasonPhrase: String?
    /// The fields of the head so far, the last one included.
    var headers: HTTPHeaders {
        guard let lastField else { return completeFields }
        var headers = completeFields
        headers.add(name: lastField.name, value: lastField.value)
        return headers
    }
    /// The fields before the last one.
    private var completeFields = HTTPHeaders()
    /// The last field, held apart while continuation lines may still extend it: appending to it
    /// in place keeps a head of many folded lines linear in its size.
    private var lastField: HTTPHeaders.Field?
    /// Whether the final head has ended.
    private(set) var isComplete = false

    /// Takes one line, with or without its CRLF.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> Event? {
        let bytes = line.trimmingLineEnd()
        if bytes.startsStatusLine {
            return startHead(bytes)
        }
        guard !isComplete, status != nil else { return nil }
        if bytes.isEmpty {
            guard let status, status >= 200 || status < 100 else { return nil }
            settleLastField()
            isComplete = true
            return .headComplete
        }
        if bytes[bytes.startIndex] == UInt8(ascii: " ") || bytes[bytes.startIndex] == UInt8(ascii: "\t") {
            continueLastField(bytes)
        } else {
            addField(bytes)
        }
        return nil
    }

    private mutating func startHead(_ line: Slice<UnsafeRawBufferPointer>) -> Event? {
        completeFields = HTTPHeaders()
        lastField = nil
        // Room for a usual response's fields at once, instead of growing through 1, 2, 4 and 8.
        completeFields.reserveCapacity(12)
        isComplete = false
        let versionToken = ResponseHeadParser.token(in: line, from: line.startIndex)
        version = versionToken.map { HTTPVersion(statusLineToken: String(decoding: $0, as: UTF8.self)) } ?? .unknown
        let codeToken = versionToken.flatMap { ResponseHeadParser.token(in: line, from: $0.endIndex) }
        // Three digits, 100 to 999, as libcurl reads them ("004" is not a status; found by fuzzing).
        guard let codeToken, codeToken.count == 3, codeToken.allSatisfy({ (0x30...0x39).contains($0) }),
            let code = Int(String(decoding: codeToken, as: UTF8.self)), code >= 100
        else {
            status = nil
            reasonPhrase = nil
            return nil
        }
        status = code
        // What follows the code and its one space, as sent (a small string, stored inline).
        let rest = line[codeToken.endIndex...].drop { $0 == UInt8(ascii: " ") }
        reasonPhrase = rest.isEmpty ? nil : Self.text(rest)
        return (100..<200).contains(code) ? nil : .finalStatus(code)
    }

    /// The first run of bytes other than spaces in `line` from `start`, or `nil` when there is none.
    private static func token(in line: Slice<UnsafeRawBufferPointer>, from start: Int) -> Slice<UnsafeRawBufferPointer>? {
        guard let first = line[start...].firstIndex(where: { $0 != UInt8(ascii: " ") }) else { return nil }
        let end = line[first...].firstIndex(of: UInt8(ascii: " ")) ?? line.endIndex
        return line[first..<end]
    }

    private mutating func addField(_ line: Slice<UnsafeRawBufferPointer>) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = line[line.startIndex..<colon].trimmingWhiteSpace()
        guard !name.isEmpty else { return }
        let value = line[line.index(after: colon)...].trimmingWhiteSpace()
        settleLastField()
        lastField = HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: Self.text(value))
    }

    private mutating func continueLastField(_ line: Slice<UnsafeRawBufferPointer>) {
        let continuation = line.trimmingWhiteSpace()
        guard lastField != nil, !continuation.isEmpty else { return }
        if !lastField!.value.isEmpty { lastField!.value.append(" ") }
        lastField!.value.append(Self.text(continuation))
    }

    /// A field value's or reason phrase's bytes as text: UTF-8 when they are, else ISO-8859-1, a
    /// character for each byte, as HTTP read field values before UTF-8 (RFC 9110 section 5.5:
    /// obs-text) and as Python's `http.client` reads them. No byte becomes U+FFFD: two values
    /// that differ in their bytes stay apart, and `caf\xE9` reads `café`.
    static func text(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        // ASCII, nearly every value, decoded at once; only other bytes are validated.
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var latin1 = String.UnicodeScalarView()
        for byte in bytes { latin1.append(Unicode.Scalar(byte)) }
        return String(latin1)
    }

    /// Moves the last field to the complete ones: no continuation line can follow it now.
    private mutating func settleLastField() {
        guard let field = lastField else { return }
        completeFields.add(name: field.name, value: field.value)
        lastField = nil
    }
}

extension HTTPVersion {
    /// The version named by a status line's first token: `HTTP/1.1`, `HTTP/2`, `HTTP/3`.
    init(statusLineToken token: String) {
        switch token {
        case "HTTP/1.0": self = .http1_0
        case "HTTP/1.1": self = .http1_1
        case "HTTP/2", "HTTP/2.0": self = .http2
        case "HTTP/3", "HTTP/3.0": self = .http3
        default: self = .unknown
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The line without its trailing CR and LF.
    fileprivate func trimmingLineEnd() -> Slice<UnsafeRawBufferPointer> {
        var end = endIndex
        while end > startIndex, self[end - 1] == UInt8(ascii: "\n") || self[end - 1] == UInt8(ascii: "\r") {
            end -= 1
        }
        return self[startIndex..<end]
    }
}

extension Slice where Base == UnsafeRawBufferPointer {
    /// Whether the line starts with `HTTP/`, as a status line does: five bytes compared in place,
    /// where `starts(with:)` walks a zip of two generic sequences for every header line.
    fileprivate var startsStatusLine: Bool {
        let start = startIndex
        return count >= 5 && base[start] == UInt8(ascii: "H") && base[start + 1] == UInt8(ascii: "T")
            && base[start + 2] == UInt8(ascii: "T") && base[start + 3] == UInt8(ascii: "P") && base[start + 4] == UInt8(ascii: "/")
    }

    /// The bytes without leading and trailing spaces and tabs.
    fileprivate func trimmingWhiteSpace() -> Slice<UnsafeRawBufferPointer> {
        func isWhiteSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = startIndex
        var end = endIndex
        while start < end, isWhiteSpace(self[start]) { start += 1 }
        while end > start, isWhiteSpace(self[end - 1]) { end -= 1 }
        return base[start..<end]
    }
}
