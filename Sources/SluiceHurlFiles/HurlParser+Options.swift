/// `[Options]` lines, whose values are typed by the option.
extension HurlParser {
    /// Whether the line ahead looks like `name:` with an option-like name.
    private var isAtOptionLine: Bool {
        guard scanner.peek()?.isHurlLowercaseLetter == true else { return false }
        var offset = 0
        while scanner.peek(offset)?.isHurlOptionNameCharacter == true {
            offset += 1
        }
        while scanner.peek(offset)?.isHurlSpace == true {
            offset += 1
        }
        return scanner.peek(offset) == ":"
    }

    mutating func parseOptionLines() throws(HurlSyntaxError) -> [HurlOption] {
        var options: [HurlOption] = []
        while true {
            let checkpoint = scanner.checkpoint
            skipEmptyLines()
            skipSpaces()
            guard isAtOptionLine else {
                scanner.restore(checkpoint)
                return options
            }
            options.append(try parseOption())
        }
    }

    private mutating func parseOption() throws(HurlSyntaxError) -> HurlOption {
        let position = scanner.position
        let nameText = scanner.lookAhead { $0.isHurlOptionNameCharacter }
        guard let name = HurlOptionName(rawValue: nameText) else {
            throw expected("an option name (location, insecure, retry, delay, variable, verbose, ...)")
        }
        _ = scanner.consume(nameText)
        skipSpaces()
        _ = scanner.consume(":")
        skipSpaces()
        let value: HurlOptionValue
        switch name.valueKind {
        case .boolean:
            value = try parseBooleanOptionValue(of: nameText)
        case .count:
            value = try parseIntegerOptionValue(of: nameText, allowsMinusOne: true)
        case .natural:
            value = try parseIntegerOptionValue(of: nameText, allowsMinusOne: false)
        case .duration:
            value = try parseDurationOptionValue(of: nameText)
        case .filename:
            value = .text(try parseFilename(allowingPassword: false))
        case .filenameWithPassword:
            value = .text(try parseFilename(allowingPassword: true))
        case .variableDefinition:
            value = .variableDefinition(try parseVariableDefinition())
        case .text:
            value = .text(try parseValueString())
        }
        try expectLineEnd(after: "the value of option `\(nameText)`")
        return HurlOption(position: position, name: name, value: value)
    }

    private mutating func parseBooleanOptionValue(of name: String) throws(HurlSyntaxError) -> HurlOptionValue {
        if scanner.startsWith("{{") {
            return .expression(try parseTemplateExpression())
        }
        if let keywordValue = tryParseKeywordValue(), case .boolean(let flag) = keywordValue.kind {
            return .boolean(flag)
        }
        throw expected("`true`, `false` or a {{...}} expression as the value of option `\(name)`")
    }

    private mutating func parseIntegerOptionValue(
        of name: String,
        allowsMinusOne: Bool
    ) throws(HurlSyntaxError) -> HurlOptionValue {
        if scanner.startsWith("{{") {
            return .expression(try parseTemplateExpression())
        }
        let expectation = allowsMinusOne
            ? "an integer (-1 for no limit) or a {{...}} expression as the value of option `\(name)`"
            : "an integer (0 or more) or a {{...}} expression as the value of option `\(name)`"
        if allowsMinusOne, scanner.startsWith("-1"), scanner.peek(2)?.isHurlDigit != true {
            _ = scanner.consume("-1")
            return .integer("-1")
        }
        guard scanner.peek()?.isHurlDigit == true else {
            throw expected(expectation)
        }
        return .integer(scanner.consume { $0.isHurlDigit })
    }

    private mutating func parseDurationOptionValue(of name: String) throws(HurlSyntaxError) -> HurlOptionValue {
        if scanner.startsWith("{{") {
            return .expression(try parseTemplateExpression())
        }
        guard scanner.peek()?.isHurlDigit == true else {
            throw expected("a duration (such as 500ms, 2s or 1m) or a {{...}} expression as the value of option `\(name)`")
        }
        let digits = scanner.consume { $0.isHurlDigit }
        var unit: HurlDuration.Unit?
        for candidate in [HurlDuration.Unit.milliseconds, .seconds, .minutes] where isAtWord(candidate.rawValue) {
            _ = scanner.consume(candidate.rawValue)
            unit = candidate
            break
        }
        if unit == nil, scanner.peek()?.isHurlKeywordCharacter == true {
            throw expected("a duration unit (ms, s or m) after `\(digits)`")
        }
        return .duration(HurlDuration(value: digits, unit: unit))
    }

    private mutating func parseVariableDefinition() throws(HurlSyntaxError) -> HurlVariableDefinition {
        let position = scanner.position
        guard let first = scanner.peek(), first.isHurlLetter || first == "_" else {
            throw expected("a variable name in `variable: name=value`")
        }
        let name = scanner.lookAhead { $0.isHurlVariableNameCharacter }
        if HurlFunction(rawValue: name) != nil {
            throw HurlSyntaxError(
                at: position,
                message: "expected a variable name that is not a function name, found `\(name)`"
            )
        }
        _ = scanner.consume(name)
        skipSpaces()
        guard scanner.consume("=") else {
            throw expected("`=` after the variable name `\(name)`")
        }
        skipSpaces()
        return HurlVariableDefinition(position: position, name: name, value: try parseVariableValue())
    }

    /// Reads `null`, a boolean, a number or a quoted string when it fills the rest of the line,
    /// otherwise unquoted text.
    private mutating func parseVariableValue() throws(HurlSyntaxError) -> HurlValue {
        let checkpoint = scanner.checkpoint
        let position = scanner.position
        if let keywordValue = tryParseKeywordValue(), isAtValueEnd {
            return keywordValue
        }
        scanner.restore(checkpoint)
        if isAtNumber {
            let number = parseNumber()
            if isAtValueEnd { return number }
            scanner.restore(checkpoint)
        }
        if scanner.peek() == "\"" {
            return HurlValue(position: position, kind: .string(try parseQuotedString(context: "as a variable value")))
        }
        return HurlValue(position: position, kind: .unquotedString(try parseValueString()))
    }

    /// Whether only spaces, a comment or the end of the line follow.
    private var isAtValueEnd: Bool {
        var offset = 0
        while scanner.peek(offset)?.isHurlSpace == true {
            offset += 1
        }
        guard let next = scanner.peek(offset) else { return true }
        return next.isHurlNewline || next == "#"
    }
}
