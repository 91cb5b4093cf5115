/// Sections (`[Query]`, `[Asserts]`, ...) and their key-value, capture and assert lines.
extension HurlParser {
    private static let requestSectionList = "[Query], [Form], [Multipart], [Cookies], [BasicAuth] or [Options]"

    /// Reads a `[Name]` line if the next non-empty line is one.
    private mutating func tryParseSectionHeader() throws(HurlSyntaxError) -> (position: HurlSourcePosition, name: String)? {
        let checkpoint = scanner.checkpoint
        skipEmptyLines()
        skipSpaces()
        guard scanner.peek() == "[", scanner.peek(1)?.isHurlUppercaseLetter == true else {
            scanner.restore(checkpoint)
            return nil
        }
        var nameEnd = 1
        while scanner.peek(nameEnd)?.isHurlLetter == true {
            nameEnd += 1
        }
        guard scanner.peek(nameEnd) == "]" else {
            scanner.restore(checkpoint)
            return nil
        }
        let position = scanner.position
        scanner.advance()
        let name = scanner.consume { $0.isHurlLetter }
        scanner.advance()
        try expectLineEnd(after: "the section header `[\(name)]`")
        return (position, name)
    }

    mutating func tryParseRequestSection() throws(HurlSyntaxError) -> HurlRequestSection? {
        guard let (position, name) = try tryParseSectionHeader() else { return nil }
        let content: HurlRequestSection.Content
        switch name {
        case "Query", "QueryStringParams":
            content = .query(try parseKeyValueLines())
        case "Form", "FormParams":
            content = .form(try parseKeyValueLines())
        case "Multipart", "MultipartFormData":
            content = .multipart(try parseMultipartLines())
        case "Cookies":
            content = .cookies(try parseKeyValueLines())
        case "BasicAuth":
            content = .basicAuth(try parseKeyValueLines())
        case "Options":
            content = .options(try parseOptionLines())
        case "Captures", "Asserts":
            throw HurlSyntaxError(
                at: position,
                message: "expected a request section (\(Self.requestSectionList)); [\(name)] belongs to a response, "
                    + "after `HTTP <status>`, found `[\(name)]`"
            )
        default:
            throw HurlSyntaxError(
                at: position,
                message: "expected a request section (\(Self.requestSectionList)), found `[\(name)]`"
            )
        }
        return HurlRequestSection(position: position, name: name, content: content)
    }

    mutating func tryParseResponseSection() throws(HurlSyntaxError) -> HurlResponseSection? {
        guard let (position, name) = try tryParseSectionHeader() else { return nil }
        let content: HurlResponseSection.Content
        switch name {
        case "Captures":
            content = .captures(try parseCaptureLines())
        case "Asserts":
            content = .asserts(try parseAssertLines())
        default:
            throw HurlSyntaxError(
                at: position,
                message: "expected a response section ([Captures] or [Asserts]), found `[\(name)]`"
            )
        }
        return HurlResponseSection(position: position, name: name, content: content)
    }

    // MARK: Key-value lines

    /// Whether a key (a key character other than `[`, an escape or a template) starts here.
    ///
    /// A key cannot start with `[`, which starts a section header.
    private var isAtKeyStart: Bool {
        guard let next = scanner.peek(), next != "[" else { return false }
        return next.isHurlKeyCharacter || next == "\\" || scanner.startsWith("{{")
    }

    /// Reads `key:` if the line starts with it, leaving the scanner after the colon and spaces.
    private mutating func tryParseKeyAndColon() throws(HurlSyntaxError) -> HurlTemplate? {
        let checkpoint = scanner.checkpoint
        guard isAtKeyStart else { return nil }
        let key = try parseKeyString()
        skipSpaces()
        guard scanner.consume(":") else {
            scanner.restore(checkpoint)
            return nil
        }
        skipSpaces()
        return key
    }

    /// Reads `Name;` if the line is only that (and spaces or a comment).
    private mutating func tryParseKeyAndSemicolon() throws(HurlSyntaxError) -> HurlTemplate? {
        let checkpoint = scanner.checkpoint
        guard isAtKeyStart else { return nil }
        let key = try parseKeyString()
        skipSpaces()
        guard scanner.consume(";") else {
            scanner.restore(checkpoint)
            return nil
        }
        let afterSemicolon = scanner.checkpoint
        skipSpaces()
        guard isAtLineEnd else {
            scanner.restore(checkpoint)
            return nil
        }
        scanner.restore(afterSemicolon)
        return key
    }

    /// Reads `key: value` lines (headers or section lines) until a line that is not one.
    ///
    /// - Parameter allowsEmptyValueSemicolon: whether `Name;` is read as a key with an empty value.
    mutating func parseKeyValueLines(allowsEmptyValueSemicolon: Bool = false) throws(HurlSyntaxError) -> [HurlKeyValue] {
        var lines: [HurlKeyValue] = []
        while true {
            let checkpoint = scanner.checkpoint
            skipEmptyLines()
            skipSpaces()
            let position = scanner.position
            if allowsEmptyValueSemicolon, let key = try tryParseKeyAndSemicolon() {
                lines.append(
                    HurlKeyValue(
                        position: position,
                        key: key,
                        value: HurlTemplate(position: scanner.position, parts: []),
                        separator: .semicolon
                    )
                )
                try expectLineEnd(after: "`\(key.sourceText);`")
                continue
            }
            guard let key = try tryParseKeyAndColon() else {
                scanner.restore(checkpoint)
                return lines
            }
            let value = try parseValueString()
            try expectLineEnd(after: "the value of `\(key.sourceText)`")
            lines.append(HurlKeyValue(position: position, key: key, value: value))
        }
    }

    private mutating func parseMultipartLines() throws(HurlSyntaxError) -> [HurlMultipartParameter] {
        var lines: [HurlMultipartParameter] = []
        while true {
            let checkpoint = scanner.checkpoint
            skipEmptyLines()
            skipSpaces()
            let position = scanner.position
            guard let name = try tryParseKeyAndColon() else {
                scanner.restore(checkpoint)
                return lines
            }
            let value: HurlMultipartParameter.Value
            if scanner.consume("file,") {
                let filename = try parseFilename(allowingPassword: false)
                guard scanner.consume(";") else {
                    throw expected("`;` after the file name of a multipart file")
                }
                skipSpaces()
                let contentType = scanner.consume { !$0.isHurlNewline && $0 != "#" }
                    .trimmingTrailingHurlSpaces()
                value = .file(filename: filename, contentType: contentType.isEmpty ? nil : contentType)
            } else {
                value = .text(try parseValueString())
            }
            try expectLineEnd(after: "the value of `\(name.sourceText)`")
            lines.append(HurlMultipartParameter(position: position, name: name, value: value))
        }
    }

    // MARK: Captures and asserts

    private mutating func parseCaptureLines() throws(HurlSyntaxError) -> [HurlCapture] {
        var captures: [HurlCapture] = []
        while true {
            let checkpoint = scanner.checkpoint
            skipEmptyLines()
            skipSpaces()
            let position = scanner.position
            guard let name = try tryParseKeyAndColon() else {
                scanner.restore(checkpoint)
                return captures
            }
            let query = try parseQuery(context: "after `\(name.sourceText):`")
            var filters: [HurlFilter] = []
            var isRedacted = false
            while true {
                let beforeSpaces = scanner.checkpoint
                let spaces = skipSpaces()
                if isAtLineEnd {
                    scanner.restore(beforeSpaces)
                    break
                }
                let word = scanner.lookAhead { $0.isHurlKeywordCharacter }
                guard spaces > 0 else {
                    throw expected("a space, a filter or the end of the line after the capture's query")
                }
                if word == "redact" {
                    _ = scanner.consume(word)
                    isRedacted = true
                    break
                }
                guard Self.isFilterName(word) else {
                    throw expected("a filter (count, nth, regex, ...), `redact` or the end of the line in the capture")
                }
                filters.append(try parseFilter())
            }
            try expectLineEnd(after: "the capture")
            captures.append(
                HurlCapture(position: position, name: name, query: query, filters: filters, isRedacted: isRedacted)
            )
        }
    }

    private mutating func parseAssertLines() throws(HurlSyntaxError) -> [HurlAssert] {
        var asserts: [HurlAssert] = []
        while true {
            let checkpoint = scanner.checkpoint
            skipEmptyLines()
            skipSpaces()
            guard scanner.peek()?.isHurlLowercaseLetter == true, !isAtBodyStart else {
                scanner.restore(checkpoint)
                return asserts
            }
            asserts.append(try parseAssert())
        }
    }

    private mutating func parseAssert() throws(HurlSyntaxError) -> HurlAssert {
        let position = scanner.position
        let query = try parseQuery(context: "at the start of an assert")
        var filters: [HurlFilter] = []
        while true {
            let spaces = skipSpaces()
            guard spaces > 0, !isAtLineEnd else {
                throw expected("a space and a predicate (==, contains, exists, ...) after the query")
            }
            let word = scanner.lookAhead { $0.isHurlKeywordCharacter }
            guard Self.isFilterName(word) else { break }
            filters.append(try parseFilter())
        }
        let predicate = try parsePredicate()
        try expectLineEnd(after: "the predicate")
        return HurlAssert(position: position, query: query, filters: filters, predicate: predicate)
    }
}

extension HurlRequestSection {
    /// One name per kind of section, so that `[Query]` and `[QueryStringParams]` compare equal.
    var kindName: String {
        switch content {
        case .query: "Query"
        case .form: "Form"
        case .multipart: "Multipart"
        case .cookies: "Cookies"
        case .basicAuth: "BasicAuth"
        case .options: "Options"
        }
    }
}

extension HurlTemplate {
    /// The template's text as written, used in error messages.
    var sourceText: String {
        parts.map { part in
            switch part {
            case .literal(let literal): literal.source
            case .expression: "{{...}}"
            }
        }.joined()
    }
}

extension String {
    /// The string without its trailing spaces and tabs.
    func trimmingTrailingHurlSpaces() -> String {
        var scalars = unicodeScalars
        while let last = scalars.last, last.isHurlSpace {
            scalars.removeLast()
        }
        return String(scalars)
    }
}
