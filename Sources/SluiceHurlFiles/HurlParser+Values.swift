/// Literal values: predicate operands, function arguments and numbers.
extension HurlParser {
    /// Whether a number (an optional `-` then a digit) starts here.
    var isAtNumber: Bool {
        guard let next = scanner.peek() else { return false }
        if next.isHurlDigit { return true }
        return next == "-" && scanner.peek(1)?.isHurlDigit == true
    }

    /// Reads an optional `-` and digits.
    mutating func parseIntegerText() -> String {
        let sign = scanner.consume("-") ? "-" : ""
        return sign + scanner.consume { $0.isHurlDigit }
    }

    /// Reads an integer or a float (`-`? digits, then `.` digits and/or an exponent), keeping its text.
    mutating func parseNumber() -> HurlValue {
        let position = scanner.position
        var text = parseIntegerText()
        var isFloat = false
        if scanner.peek() == ".", scanner.peek(1)?.isHurlDigit == true {
            scanner.advance()
            text += "." + scanner.consume { $0.isHurlDigit }
            isFloat = true
        }
        if let marker = scanner.peek(), marker == "e" || marker == "E" {
            let signLength = (scanner.peek(1) == "+" || scanner.peek(1) == "-") ? 1 : 0
            if scanner.peek(1 + signLength)?.isHurlDigit == true {
                text += scanner.consume { $0 == "e" || $0 == "E" }
                if signLength == 1, let sign = scanner.advance() {
                    text.unicodeScalars.append(sign)
                }
                text += scanner.consume { $0.isHurlDigit }
                isFloat = true
            }
        }
        return HurlValue(position: position, kind: isFloat ? .float(text) : .integer(text))
    }

    /// Whether `word` is ahead and is not followed by a keyword character.
    func isAtWord(_ word: String) -> Bool {
        guard scanner.startsWith(word) else { return false }
        guard let next = scanner.peek(word.unicodeScalars.count) else { return true }
        return !next.isHurlKeywordCharacter
    }

    /// Reads `null`, `true` or `false` if one is ahead.
    mutating func tryParseKeywordValue() -> HurlValue? {
        let position = scanner.position
        for (word, kind) in [("null", HurlValue.Kind.null), ("true", .boolean(true)), ("false", .boolean(false))]
        where isAtWord(word) {
            _ = scanner.consume(word)
            return HurlValue(position: position, kind: kind)
        }
        return nil
    }

    /// Reads a predicate operand; `keyword` names what it follows, for error messages.
    mutating func parsePredicateValue(after keyword: String) throws(HurlSyntaxError) -> HurlValue {
        let position = scanner.position
        if let keywordValue = tryParseKeywordValue() {
            return keywordValue
        }
        if isAtNumber {
            return parseNumber()
        }
        let kind: HurlValue.Kind
        if scanner.peek() == "\"" {
            kind = .string(try parseQuotedString(context: "after \(keyword)"))
        } else if scanner.startsWith("```") {
            kind = .multilineString(try parseMultilineString())
        } else if scanner.peek() == "`" {
            kind = .onelineString(try parseOnelineString())
        } else if scanner.startsWith("{{") {
            kind = .expression(try parseTemplateExpression())
        } else if scanner.peek() == "/" {
            kind = .regex(try parseRegex())
        } else if scanner.consume("base64,") {
            kind = .base64(try parseBase64Text())
        } else if scanner.consume("hex,") {
            kind = .hex(try parseHexText())
        } else if scanner.consume("file,") {
            kind = .file(try parseFileReference())
        } else {
            throw expected(
                "a value (a number, a \"string\", true, false, null, a {{...}} expression, ...) after \(keyword)"
            )
        }
        return HurlValue(position: position, kind: kind)
    }
}
