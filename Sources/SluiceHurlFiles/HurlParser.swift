// Parser for Hurl files (https://hurl.dev).
//
// Follows Hurl's published grammar, `docs/spec/grammar/hurl.grammar` in Orange-OpenSource/hurl at
// commit 9fd010b30e1e9bb78c619883b7d4c705d590c1dc (the newest stored version; an older one at
// 03077c172230b5f502b16400466487a7b6a0e18e was also read). Where that grammar lags behind Hurl
// itself (filters, predicates, queries, options and template functions added later), the lists
// follow Hurl's parser sources in packages/hurl_core/src/parser and its docs and integration tests.

/// A recursive-descent parser over a Hurl file's text.
///
/// Each `parse...` method starts at the current position and leaves the scanner just after what
/// it read; `tryParse...` methods return `nil` and leave the scanner unchanged when the text ahead
/// is not the construct they read.
struct HurlParser {
    var scanner: HurlScanner
    private var commentsByIndex: [Int: HurlComment] = [:]

    init(text: String) {
        scanner = HurlScanner(text: text)
    }

    mutating func parseFile() throws(HurlSyntaxError) -> HurlFile {
        var entries: [HurlEntry] = []
        while true {
            let linesStart = scanner.index
            skipEmptyLines()
            skipSpaces()
            if scanner.isAtEnd { break }
            let leading = (linesStart..<scanner.index)
            var entry = try parseEntry()
            entry.leadingComments = commentsByIndex.filter { leading.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value)
            entries.append(entry)
        }
        let comments = commentsByIndex.sorted { $0.key < $1.key }.map(\.value)
        return HurlFile(entries: entries, comments: comments)
    }

    private mutating func parseEntry() throws(HurlSyntaxError) -> HurlEntry {
        let request = try parseRequest()
        let checkpoint = scanner.checkpoint
        skipEmptyLines()
        skipSpaces()
        guard isAtResponseLine else {
            scanner.restore(checkpoint)
            return HurlEntry(position: request.position, request: request, response: nil)
        }
        let response = try parseResponse()
        return HurlEntry(position: request.position, request: request, response: response)
    }

    private var isAtResponseLine: Bool {
        guard scanner.startsWith("HTTP") else { return false }
        guard let next = scanner.peek(4) else { return true }
        return next == "/" || next.isHurlSpace || next.isHurlNewline
    }

    // MARK: Request and response

    private mutating func parseRequest() throws(HurlSyntaxError) -> HurlRequest {
        let position = scanner.position
        let start = scanner.checkpoint
        let method = scanner.consume { $0.isHurlUppercaseLetter }
        if !method.isEmpty, isAtLineEnd {
            throw expected("a URL after the method `\(method)`")
        }
        guard !method.isEmpty, scanner.peek()?.isHurlSpace == true else {
            scanner.restore(start)
            throw expected("a request: an HTTP method in uppercase letters (GET, POST, ...) followed by a URL")
        }
        skipSpaces()
        if isAtLineEnd {
            throw expected("a URL after the method `\(method)`")
        }
        let url = try parseValueString()
        try expectLineEnd(after: "the URL")
        let headers = try parseKeyValueLines(allowsEmptyValueSemicolon: true)
        var sections: [HurlRequestSection] = []
        while let section = try tryParseRequestSection() {
            try rejectDuplicate(section.kindName, named: section.name, at: section.position, among: sections.map(\.kindName))
            sections.append(section)
        }
        let body = try tryParseBody()
        return HurlRequest(
            position: position,
            method: method,
            url: url,
            headers: headers,
            sections: sections,
            body: body
        )
    }

    private mutating func parseResponse() throws(HurlSyntaxError) -> HurlResponse {
        let position = scanner.position
        let start = scanner.checkpoint
        _ = scanner.consume("HTTP")
        var version = HurlHTTPVersion.any
        if scanner.peek() == "/" {
            let candidates: [HurlHTTPVersion] = [.http1_0, .http1_1, .http2, .http3]
            guard let match = candidates.first(where: { scanner.startsWith(String($0.rawValue.dropFirst(4))) })
            else {
                scanner.restore(start)
                throw expected("an HTTP version (HTTP, HTTP/1.0, HTTP/1.1, HTTP/2 or HTTP/3)", at: position)
            }
            _ = scanner.consume(String(match.rawValue.dropFirst(4)))
            version = match
        }
        guard skipSpaces() > 0, !isAtLineEnd else {
            throw expected("a status code (such as 200) or `*` after `\(version.rawValue)`")
        }
        let status = try parseStatus()
        try expectLineEnd(after: "the status code")
        let headers = try parseKeyValueLines()
        var sections: [HurlResponseSection] = []
        while let section = try tryParseResponseSection() {
            try rejectDuplicate(section.name, named: section.name, at: section.position, among: sections.map(\.name))
            sections.append(section)
        }
        let body = try tryParseBody()
        return HurlResponse(
            position: position,
            version: version,
            status: status,
            headers: headers,
            sections: sections,
            body: body
        )
    }

    private mutating func parseStatus() throws(HurlSyntaxError) -> HurlStatus {
        let position = scanner.position
        if scanner.consume("*") {
            return HurlStatus(position: position, kind: .any)
        }
        let digits = scanner.consume { $0.isHurlDigit }
        guard !digits.isEmpty else {
            throw expected("a status code (such as 200) or `*`")
        }
        guard digits.count <= 3, let code = Int(digits) else {
            throw HurlSyntaxError(
                at: position,
                message: "expected a status code of at most 3 digits, found `\(digits)`"
            )
        }
        return HurlStatus(position: position, kind: .code(code))
    }

    /// Fails when a section of the same kind (`[Form]` and `[FormParams]` are one kind) came before.
    private func rejectDuplicate(
        _ kindName: String,
        named name: String,
        at position: HurlSourcePosition,
        among previousKindNames: [String]
    ) throws(HurlSyntaxError) {
        guard previousKindNames.contains(kindName) else { return }
        throw HurlSyntaxError(
            at: position,
            message: "expected each kind of section at most once per request or response, found a second `[\(name)]`"
        )
    }

    // MARK: Lines, spaces and comments

    /// Skips spaces and tabs and returns how many were skipped.
    @discardableResult
    mutating func skipSpaces() -> Int {
        scanner.consume { $0.isHurlSpace }.unicodeScalars.count
    }

    /// Skips lines that hold only spaces and comments, stopping at the start of the next other line.
    mutating func skipEmptyLines() {
        while true {
            let lineStart = scanner.checkpoint
            skipSpaces()
            if scanner.peek() == "#" {
                readComment()
            }
            if scanner.isAtEnd { return }
            guard scanner.peek()?.isHurlNewline == true else {
                scanner.restore(lineStart)
                return
            }
            scanner.advance()
        }
    }

    /// Whether the scanner is at a comment, a line end or the end of the file.
    var isAtLineEnd: Bool {
        guard let next = scanner.peek() else { return true }
        return next.isHurlNewline || next == "#"
    }

    /// Reads optional spaces, an optional comment and the end of the line (or of the file).
    mutating func expectLineEnd(after context: String) throws(HurlSyntaxError) {
        skipSpaces()
        if scanner.peek() == "#" {
            readComment()
        }
        if scanner.isAtEnd { return }
        guard scanner.peek()?.isHurlNewline == true else {
            throw expected("the end of the line after \(context)")
        }
        scanner.advance()
    }

    private mutating func readComment() {
        let index = scanner.index
        let position = scanner.position
        scanner.advance()
        let text = scanner.consume { !$0.isHurlNewline }
        commentsByIndex[index] = HurlComment(position: position, text: text)
    }

    // MARK: Errors

    /// An error saying what was expected and what is at `position` (by default the current one).
    func expected(_ expectation: String, at position: HurlSourcePosition? = nil) -> HurlSyntaxError {
        HurlSyntaxError(
            at: position ?? scanner.position,
            message: "expected \(expectation), found \(describeTextAhead())"
        )
    }

    /// A short description of the text ahead, for error messages.
    func describeTextAhead() -> String {
        guard let next = scanner.peek() else { return "the end of the file" }
        if next.isHurlNewline { return "the end of the line" }
        let maximumLength = 30
        var token = String.UnicodeScalarView()
        var offset = 0
        while let scalar = scanner.peek(offset), !scalar.isHurlSpace, !scalar.isHurlNewline {
            if offset == maximumLength {
                return "`\(String(token))...`"
            }
            token.append(scalar)
            offset += 1
        }
        if token.isEmpty { return "a space" }
        return "`\(String(token))`"
    }
}
