/// Strings: quoted, unquoted (values and keys), backtick, file names and `/regex/` literals.
extension HurlParser {
    /// Escapes after `\` in a quoted string (`"`, `\`, `b`, `f`, `n`, `r`, `t`, `u{...}`).
    private static let quotedStringEscapes: Set<Unicode.Scalar> = ["\"", "\\", "b", "f", "n", "r", "t", "u"]
    /// Escapes after `\` in an unquoted value such as a header value or a URL.
    private static let valueStringEscapes: Set<Unicode.Scalar> = ["#", "\\", "b", "f", "n", "r", "t", "u"]
    /// Escapes after `\` in a key.
    private static let keyStringEscapes: Set<Unicode.Scalar> = ["#", ":", "\\", "/", "b", "f", "n", "r", "t", "u"]
    /// Escapes after `\` in a backtick string.
    private static let onelineStringEscapes: Set<Unicode.Scalar> = ["`", "#", "\\", "b", "f", "n", "r", "t", "u"]
    /// Escapes after `\` in a file name.
    private static let filenameEscapes: Set<Unicode.Scalar> = [
        "\\", "b", "f", "n", "r", "t", "#", ";", " ", "{", "}", "u",
    ]
    /// Escapes after `\` in a multiline string with the `escape` attribute.
    static let multilineStringEscapes: Set<Unicode.Scalar> = ["\\", "b", "f", "n", "r", "t", "`", "u"]

    /// Reads template text until `stop` holds for an unescaped scalar (which is not consumed).
    ///
    /// - Parameters:
    ///   - escapes: the scalars allowed after `\`.
    ///   - allowsExpressions: whether `{{` starts an expression.
    ///   - trimsTrailingSpaces: whether unescaped trailing spaces and tabs are left out (and unread).
    ///   - kind: what is being read, for error messages.
    mutating func parseTemplateText(
        escapes: Set<Unicode.Scalar>,
        allowsExpressions: Bool = true,
        trimsTrailingSpaces: Bool = false,
        kind: String,
        stop: (Unicode.Scalar) -> Bool
    ) throws(HurlSyntaxError) -> HurlTemplate {
        var builder = HurlTemplateBuilder(position: scanner.position)
        var trailingSpacesStart: HurlScanner.Checkpoint?
        var trailingSpaceCount = 0
        while let next = scanner.peek() {
            if allowsExpressions, scanner.startsWith("{{") {
                builder.appendExpression(try parseTemplateExpression())
                trailingSpacesStart = nil
                trailingSpaceCount = 0
                continue
            }
            if next == "\\", !escapes.isEmpty {
                let position = scanner.position
                let (value, source) = try parseEscapeSequence(allowed: escapes, kind: kind)
                builder.appendLiteral(value: value, source: source, at: position)
                trailingSpacesStart = nil
                trailingSpaceCount = 0
                continue
            }
            if stop(next) { break }
            if next.isHurlSpace {
                if trailingSpacesStart == nil {
                    trailingSpacesStart = scanner.checkpoint
                }
                trailingSpaceCount += 1
            } else {
                trailingSpacesStart = nil
                trailingSpaceCount = 0
            }
            builder.appendScalar(next, at: scanner.position)
            scanner.advance()
        }
        if trimsTrailingSpaces, let trailingSpacesStart {
            builder.dropLastScalars(trailingSpaceCount)
            scanner.restore(trailingSpacesStart)
        }
        return builder.build()
    }

    /// Reads `\` and what follows, returning the decoded text and the text as written.
    mutating func parseEscapeSequence(
        allowed: Set<Unicode.Scalar>,
        kind: String
    ) throws(HurlSyntaxError) -> (value: String, source: String) {
        let start = scanner.checkpoint
        let startPosition = scanner.position
        scanner.advance()
        guard let escaped = scanner.peek(), allowed.contains(escaped) else {
            let list = allowed.sorted { $0.value < $1.value }.map { escape in
                escape == "u" ? "\\u{...}" : "\\\(escape)"
            }.joined(separator: " ")
            throw HurlSyntaxError(
                at: startPosition,
                message: "expected an escape sequence of \(kind) (\(list)), found \(describeEscapeAhead())"
            )
        }
        scanner.advance()
        let value: String
        switch escaped {
        case "b": value = "\u{8}"
        case "f": value = "\u{C}"
        case "n": value = "\n"
        case "r": value = "\r"
        case "t": value = "\t"
        case "u": value = String(try parseUnicodeEscapeBody(escapeStart: startPosition))
        default: value = String(escaped)
        }
        return (value, scanner.text(since: start))
    }

    private func describeEscapeAhead() -> String {
        guard let escaped = scanner.peek(), !escaped.isHurlNewline else {
            return "`\\` at the end of the line"
        }
        return "`\\\(escaped)`"
    }

    /// Reads `{HEX}` after `\u` and returns the scalar it names.
    private mutating func parseUnicodeEscapeBody(
        escapeStart: HurlSourcePosition
    ) throws(HurlSyntaxError) -> Unicode.Scalar {
        guard scanner.consume("{") else {
            throw expected("`{` and hexadecimal digits after `\\u`, as in `\\u{00e9}`")
        }
        let digits = scanner.consume { $0.isHurlHexDigit }
        guard !digits.isEmpty else {
            throw expected("hexadecimal digits in `\\u{...}`")
        }
        guard scanner.consume("}") else {
            throw expected("`}` to close `\\u{\(digits)`")
        }
        guard digits.count <= 8, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
            throw HurlSyntaxError(
                at: escapeStart,
                message: "expected a Unicode scalar value in `\\u{...}`, found `\\u{\(digits)}`"
            )
        }
        return scalar
    }

    // MARK: Kinds of strings

    /// Reads an unquoted value up to a comment or the end of the line, without trailing spaces.
    mutating func parseValueString() throws(HurlSyntaxError) -> HurlTemplate {
        try parseTemplateText(
            escapes: Self.valueStringEscapes,
            trimsTrailingSpaces: true,
            kind: "a value"
        ) { $0.isHurlNewline || $0 == "#" }
    }

    /// Reads a key: letters, digits, `_ - . [ ] @ $`, escapes and expressions.
    mutating func parseKeyString() throws(HurlSyntaxError) -> HurlTemplate {
        try parseTemplateText(escapes: Self.keyStringEscapes, kind: "a key") { !$0.isHurlKeyCharacter }
    }

    /// Reads a quoted string `"..."`; `context` completes "expected a quoted string ...".
    mutating func parseQuotedString(context: String) throws(HurlSyntaxError) -> HurlTemplate {
        let position = scanner.position
        guard scanner.consume("\"") else {
            throw expected("a quoted string (\"...\") \(context)")
        }
        let content = try parseTemplateText(escapes: Self.quotedStringEscapes, kind: "a quoted string") {
            $0 == "\"" || $0.isHurlNewline
        }
        guard scanner.consume("\"") else {
            throw expected("`\"` to close the string started at \(position)")
        }
        return HurlTemplate(position: position, parts: content.parts)
    }

    /// Reads a backtick string `` `...` ``.
    mutating func parseOnelineString() throws(HurlSyntaxError) -> HurlTemplate {
        let position = scanner.position
        scanner.advance()
        let content = try parseTemplateText(escapes: Self.onelineStringEscapes, kind: "a backtick string") {
            $0 == "`" || $0.isHurlNewline
        }
        guard scanner.consume("`") else {
            throw expected("`` ` `` to close the string started at \(position)")
        }
        return HurlTemplate(position: position, parts: content.parts)
    }

    /// Reads a file name, which ends at `;`, a space, `#` or the end of the line unless escaped.
    mutating func parseFilename(allowingPassword: Bool) throws(HurlSyntaxError) -> HurlTemplate {
        var escapes = Self.filenameEscapes
        if allowingPassword {
            escapes.insert(":")
        }
        let filename = try parseTemplateText(escapes: escapes, kind: "a file name") {
            $0 == ";" || $0 == "#" || $0.isHurlSpace || $0.isHurlNewline
        }
        guard !filename.parts.isEmpty else {
            throw expected("a file name")
        }
        return filename
    }

    /// Reads a `/regex/` literal.
    mutating func parseRegex() throws(HurlSyntaxError) -> HurlRegex {
        let position = scanner.position
        scanner.advance()
        var source = String.UnicodeScalarView()
        var pattern = String.UnicodeScalarView()
        while true {
            guard let next = scanner.peek(), !next.isHurlNewline else {
                throw expected("`/` to close the regex started at \(position)")
            }
            if next == "/" {
                scanner.advance()
                break
            }
            if next == "\\" {
                guard let escaped = scanner.peek(1), !escaped.isHurlNewline else {
                    throw expected("`/` to close the regex started at \(position)")
                }
                source.append(next)
                source.append(escaped)
                if escaped != "/" {
                    pattern.append(next)
                }
                pattern.append(escaped)
                scanner.advance()
                scanner.advance()
                continue
            }
            source.append(next)
            pattern.append(next)
            scanner.advance()
        }
        return HurlRegex(position: position, source: String(source), pattern: String(pattern))
    }

    /// Reads a quoted string or a `/regex/` literal.
    mutating func parsePattern(after keyword: String) throws(HurlSyntaxError) -> HurlPattern {
        if scanner.peek() == "/" {
            return .regex(try parseRegex())
        }
        guard scanner.peek() == "\"" else {
            throw expected("a quoted string (\"...\") or a /regex/ after `\(keyword)`")
        }
        return .quoted(try parseQuotedString(context: "after `\(keyword)`"))
    }

    /// Reads one or more spaces, or fails saying what should follow `keyword`.
    mutating func expectSpaces(before expectation: String, after keyword: String) throws(HurlSyntaxError) {
        guard skipSpaces() > 0, !isAtLineEnd else {
            throw expected("a space and \(expectation) after `\(keyword)`")
        }
    }
}
