/// Bodies: JSON, XML, backtick strings, `base64,`, `hex,` and `file,`.
extension HurlParser {
    /// Whether a body starts here (after the line's indentation).
    var isAtBodyStart: Bool {
        guard let next = scanner.peek() else { return false }
        if "{[\"<`-".unicodeScalars.contains(next) || next.isHurlDigit { return true }
        return isAtWord("true") || isAtWord("false") || isAtWord("null") || scanner.startsWith("base64,")
            || scanner.startsWith("hex,") || scanner.startsWith("file,")
    }

    /// Reads a body if the next non-empty line starts one.
    mutating func tryParseBody() throws(HurlSyntaxError) -> HurlBody? {
        let checkpoint = scanner.checkpoint
        skipEmptyLines()
        skipSpaces()
        guard isAtBodyStart else {
            scanner.restore(checkpoint)
            return nil
        }
        let position = scanner.position
        let kind: HurlBody.Kind
        var source: String?
        if scanner.startsWith("```") {
            kind = .multilineString(try parseMultilineString())
        } else if scanner.peek() == "`" {
            kind = .onelineString(try parseOnelineString())
        } else if scanner.peek() == "<" {
            kind = .xml(try parseXML())
        } else if scanner.consume("base64,") {
            kind = .base64(try parseBase64Text())
        } else if scanner.consume("hex,") {
            kind = .hex(try parseHexText())
        } else if scanner.consume("file,") {
            kind = .file(try parseFileReference())
        } else {
            let start = scanner.checkpoint
            kind = .json(try parseJSONValue(depth: 0))
            source = scanner.text(since: start)
        }
        try expectLineEnd(after: "the body")
        return HurlBody(position: position, kind: kind, source: source)
    }

    /// Reads the Base64 text after `base64,` and the closing `;`.
    mutating func parseBase64Text() throws(HurlSyntaxError) -> String {
        let text = scanner.consume { scalar in
            scalar.isHurlLetter || scalar.isHurlDigit || "+/=-_ \t\n".unicodeScalars.contains(scalar)
        }
        guard scanner.consume(";") else {
            throw expected("Base64 text ended by `;`")
        }
        return text
    }

    /// Reads the hexadecimal digits after `hex,` and the closing `;`.
    mutating func parseHexText() throws(HurlSyntaxError) -> String {
        let text = scanner.consume { $0.isHurlHexDigit || $0.isHurlSpace }
        guard scanner.consume(";") else {
            throw expected("hexadecimal digits ended by `;`")
        }
        return text
    }

    /// Reads the file name after `file,` and the closing `;`.
    mutating func parseFileReference() throws(HurlSyntaxError) -> HurlTemplate {
        let filename = try parseFilename(allowingPassword: false)
        guard scanner.consume(";") else {
            throw expected("`;` after the file name")
        }
        return filename
    }

    // MARK: Triple-backtick strings

    mutating func parseMultilineString() throws(HurlSyntaxError) -> HurlMultilineString {
        let position = scanner.position
        _ = scanner.consume("```")
        if isClosingBackticksOnThisLine {
            let (content, _) = try parseMultilineContent(
                openedAt: position,
                isOneline: true,
                allowsExpressions: true,
                resolvesEscapes: false,
                readsGraphQLVariables: false
            )
            return HurlMultilineString(
                position: position,
                language: nil,
                attributes: [],
                isOneline: true,
                content: content
            )
        }
        var language: HurlMultilineString.Language?
        let languageName = scanner.lookAhead { $0.isHurlKeywordCharacter }
        if !languageName.isEmpty {
            guard let known = HurlMultilineString.Language(rawValue: languageName) else {
                let names = HurlMultilineString.Language.allCases.map(\.rawValue).joined(separator: ", ")
                throw expected("a language (\(names)) or the end of the line after ```")
            }
            _ = scanner.consume(languageName)
            language = known
        }
        var attributes: [HurlMultilineString.Attribute] = []
        while scanner.consume(",") {
            let name = scanner.lookAhead { $0.isHurlKeywordCharacter }
            guard let attribute = HurlMultilineString.Attribute(rawValue: name) else {
                throw expected("an attribute (escape or novariable) after `,`")
            }
            _ = scanner.consume(name)
            attributes.append(attribute)
        }
        skipSpaces()
        guard scanner.peek()?.isHurlNewline == true else {
            throw expected("the end of the line after the opening ``` of a multiline string")
        }
        scanner.advance()
        let (content, graphqlVariables) = try parseMultilineContent(
            openedAt: position,
            isOneline: false,
            allowsExpressions: !attributes.contains(.noVariable) && language != .raw,
            resolvesEscapes: attributes.contains(.escape),
            readsGraphQLVariables: language == .graphql
        )
        return HurlMultilineString(
            position: position,
            language: language,
            attributes: attributes,
            isOneline: false,
            content: content,
            graphqlVariables: graphqlVariables
        )
    }

    /// Whether ``` appears again before the end of the current line.
    private var isClosingBackticksOnThisLine: Bool {
        var offset = 0
        while let scalar = scanner.peek(offset), !scalar.isHurlNewline {
            if scalar == "`", scanner.peek(offset + 1) == "`", scanner.peek(offset + 2) == "`" {
                return true
            }
            offset += 1
        }
        return false
    }

    /// Reads a triple-backtick string's content up to and including the closing backticks. For a
    /// `graphql` string (`readsGraphQLVariables`), a line that starts with `variables`, as in
    /// Hurl, begins the variables block: a JSON object, then only whitespace up to the closing
    /// backticks.
    private mutating func parseMultilineContent(
        openedAt position: HurlSourcePosition,
        isOneline: Bool,
        allowsExpressions: Bool,
        resolvesEscapes: Bool,
        readsGraphQLVariables: Bool
    ) throws(HurlSyntaxError) -> (HurlTemplate, HurlJSONValue?) {
        var builder = HurlTemplateBuilder(position: scanner.position)
        while !scanner.consume("```") {
            guard let next = scanner.peek(), !(isOneline && next.isHurlNewline) else {
                throw expected("``` to close the string started at \(position)")
            }
            if allowsExpressions, scanner.startsWith("{{") {
                builder.appendExpression(try parseTemplateExpression())
            } else if resolvesEscapes, next == "\\" {
                let escapePosition = scanner.position
                let (value, source) = try parseEscapeSequence(
                    allowed: Self.multilineStringEscapes,
                    kind: "a multiline string"
                )
                builder.appendLiteral(value: value, source: source, at: escapePosition)
            } else {
                builder.appendScalar(next, at: scanner.position)
                scanner.advance()
                if readsGraphQLVariables, next.isHurlNewline, scanner.startsWith("variables") {
                    return (builder.build(), try parseGraphQLVariables(openedAt: position))
                }
            }
        }
        return (builder.build(), nil)
    }

    /// Reads a GraphQL string's `variables {...}` block and the backticks that close the string.
    private mutating func parseGraphQLVariables(openedAt position: HurlSourcePosition) throws(HurlSyntaxError) -> HurlJSONValue {
        _ = scanner.consume("variables")
        skipSpaces()
        guard scanner.peek() == "{", !scanner.startsWith("{{") else {
            throw expected("a JSON object after `variables` in the GraphQL string started at \(position)")
        }
        let variables = try parseJSONValue(depth: 0)
        _ = scanner.consume { $0.isHurlSpace || $0.isHurlNewline || $0 == "\r" }
        guard scanner.consume("```") else {
            throw expected("``` to close the GraphQL string started at \(position) after its variables")
        }
        return variables
    }
}
