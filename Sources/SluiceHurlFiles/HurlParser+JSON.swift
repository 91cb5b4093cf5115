/// JSON bodies, which may embed `{{...}}` expressions as values and inside strings.
extension HurlParser {
    /// The deepest nesting of JSON arrays and objects accepted, so deep input cannot exhaust the stack.
    static let maximumJSONDepth = 256

    private mutating func skipJSONWhitespace() {
        _ = scanner.consume { $0.isHurlSpace || $0.isHurlNewline }
    }

    mutating func parseJSONValue(depth: Int) throws(HurlSyntaxError) -> HurlJSONValue {
        skipJSONWhitespace()
        let position = scanner.position
        guard depth < Self.maximumJSONDepth else {
            throw HurlSyntaxError(
                at: position,
                message: "expected JSON nested at most \(Self.maximumJSONDepth) levels deep, found deeper nesting"
            )
        }
        let kind: HurlJSONValue.Kind
        if scanner.startsWith("{{") {
            kind = .expression(try parseTemplateExpression())
        } else if scanner.peek() == "{" {
            kind = .object(try parseJSONObject(depth: depth))
        } else if scanner.peek() == "[" {
            kind = .array(try parseJSONArray(depth: depth))
        } else if scanner.peek() == "\"" {
            kind = .string(try parseJSONString())
        } else if isAtNumber {
            kind = .number(parseJSONNumberText())
        } else if scanner.consume("true") {
            kind = .boolean(true)
        } else if scanner.consume("false") {
            kind = .boolean(false)
        } else if scanner.consume("null") {
            kind = .null
        } else {
            throw expected("a JSON value (object, array, string, number, true, false, null or {{...}})")
        }
        return HurlJSONValue(position: position, kind: kind)
    }

    private mutating func parseJSONObject(depth: Int) throws(HurlSyntaxError) -> [HurlJSONValue.Member] {
        scanner.advance()
        var members: [HurlJSONValue.Member] = []
        skipJSONWhitespace()
        if scanner.consume("}") { return members }
        while true {
            skipJSONWhitespace()
            let position = scanner.position
            guard scanner.peek() == "\"" else {
                throw expected("a JSON key in double quotes")
            }
            let key = try parseJSONString()
            skipJSONWhitespace()
            guard scanner.consume(":") else {
                throw expected("`:` after the JSON key")
            }
            let value = try parseJSONValue(depth: depth + 1)
            members.append(HurlJSONValue.Member(position: position, key: key, value: value))
            skipJSONWhitespace()
            if scanner.consume("}") { return members }
            guard scanner.consume(",") else {
                throw expected("`,` or `}` in the JSON object")
            }
        }
    }

    private mutating func parseJSONArray(depth: Int) throws(HurlSyntaxError) -> [HurlJSONValue] {
        scanner.advance()
        var elements: [HurlJSONValue] = []
        skipJSONWhitespace()
        if scanner.consume("]") { return elements }
        while true {
            elements.append(try parseJSONValue(depth: depth + 1))
            skipJSONWhitespace()
            if scanner.consume("]") { return elements }
            guard scanner.consume(",") else {
                throw expected("`,` or `]` in the JSON array")
            }
        }
    }

    private mutating func parseJSONNumberText() -> String {
        let start = scanner.checkpoint
        _ = scanner.consume("-")
        _ = scanner.consume { $0.isHurlDigit }
        if scanner.peek() == ".", scanner.peek(1)?.isHurlDigit == true {
            scanner.advance()
            _ = scanner.consume { $0.isHurlDigit }
        }
        if let marker = scanner.peek(), marker == "e" || marker == "E" {
            let signLength = (scanner.peek(1) == "+" || scanner.peek(1) == "-") ? 1 : 0
            if scanner.peek(1 + signLength)?.isHurlDigit == true {
                scanner.advance()
                if signLength == 1 {
                    scanner.advance()
                }
                _ = scanner.consume { $0.isHurlDigit }
            }
        }
        return scanner.text(since: start)
    }

    /// Reads a JSON string, whose escapes are JSON's (`\uXXXX`, `\/`, ...).
    mutating func parseJSONString() throws(HurlSyntaxError) -> HurlTemplate {
        let position = scanner.position
        scanner.advance()
        var builder = HurlTemplateBuilder(position: position)
        while !scanner.consume("\"") {
            guard let next = scanner.peek() else {
                throw expected("`\"` to close the JSON string started at \(position)")
            }
            if scanner.startsWith("{{") {
                builder.appendExpression(try parseTemplateExpression())
            } else if next == "\\" {
                let escapePosition = scanner.position
                let start = scanner.checkpoint
                let value = try parseJSONEscapeSequence()
                builder.appendLiteral(value: value, source: scanner.text(since: start), at: escapePosition)
            } else {
                builder.appendScalar(next, at: scanner.position)
                scanner.advance()
            }
        }
        return HurlTemplate(position: position, parts: builder.build().parts)
    }

    private mutating func parseJSONEscapeSequence() throws(HurlSyntaxError) -> String {
        let position = scanner.position
        scanner.advance()
        guard let escaped = scanner.advance() else {
            throw expected("a JSON escape sequence")
        }
        switch escaped {
        case "\"", "\\", "/": return String(escaped)
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "u":
            let high = try parseJSONHexQuad(escapeStart: position)
            if (0xD800...0xDBFF).contains(high), scanner.startsWith("\\u") {
                let lowStart = scanner.checkpoint
                scanner.advance()
                scanner.advance()
                let low = try parseJSONHexQuad(escapeStart: position)
                if (0xDC00...0xDFFF).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                {
                    return String(scalar)
                }
                scanner.restore(lowStart)
            }
            return String(Unicode.Scalar(high) ?? "\u{FFFD}")
        default:
            throw HurlSyntaxError(
                at: position,
                message: "expected a JSON escape sequence (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX), found `\\\(escaped)`"
            )
        }
    }

    private mutating func parseJSONHexQuad(escapeStart: HurlSourcePosition) throws(HurlSyntaxError) -> UInt32 {
        var digits = ""
        for _ in 0..<4 {
            guard let digit = scanner.peek(), digit.isHurlHexDigit else {
                throw expected("4 hexadecimal digits after `\\u` (escape at \(escapeStart))")
            }
            digits.unicodeScalars.append(digit)
            scanner.advance()
        }
        return UInt32(digits, radix: 16) ?? 0
    }
}
