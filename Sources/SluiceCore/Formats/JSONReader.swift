/// A strict JSON parser (RFC 8259) that keeps object members in document order and integers as
/// integers.
///
/// Any value may be the top level (`"text"`, `42`), a UTF-8 byte-order mark is skipped, and
/// anything else RFC 8259 does not allow is an error with its line and column: trailing commas,
/// comments, unescaped control characters, invalid UTF-8, lone surrogates, leading zeros, and
/// nesting deeper than `maximumDepth`. A repeated key keeps its first position and its last value.
public struct JSONReader: Sendable {
    /// How deeply arrays and objects may nest; deeper input is an error, not a stack overflow.
    public var maximumDepth: Int

    /// Creates a reader.
    public init(maximumDepth: Int = 512) {
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON text.
    public func value(from bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        let parse = { (input: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue in
            var parser = Parser(input: input, maximumDepth: maximumDepth)
            return try parser.document()
        }
        let contiguous: Result<JSONValue, JSONSyntaxError>? = bytes.withContiguousStorageIfAvailable { input in
            Result { () throws(JSONSyntaxError) in try parse(input) }
        }
        if let contiguous { return try contiguous.get() }
        return try Array(bytes).withUnsafeBufferPointer { (input) throws(JSONSyntaxError) -> JSONValue in try parse(input) }
    }

    /// Parses one JSON text.
    public func value(from text: String) throws(JSONSyntaxError) -> JSONValue {
        try value(from: text.utf8)
    }
}

/// Why a text is not JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for example `expected ':' after an object key`.
    public var message: String
    /// The byte offset of the problem, from 0.
    public var offset: Int
    /// The line of the problem, from 1.
    public var line: Int
    /// The column of the problem, from 1, in bytes.
    public var column: Int

    /// `line L, column C: MESSAGE`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

private struct Parser {
    let input: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0
    var depth = 0

    init(input: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.input = input
        self.maximumDepth = maximumDepth
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try value()
        skipWhitespace()
        guard position == input.count else { throw failure("unexpected text after the JSON value") }
        return value
    }

    private func failure(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? position, input.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where input[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return JSONSyntaxError(message: message, offset: offset, line: line, column: offset - lineStart + 1)
    }

    private var current: UInt8? { position < input.count ? input[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    private mutating func expect(_ literal: StaticString, producing value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard input.count - position >= bytes.count, input[position..<position + bytes.count].elementsEqual(bytes) else {
            throw failure("invalid literal; expected '\(literal)'")
        }
        position += bytes.count
        return value
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw failure("unexpected end of input; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", producing: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", producing: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", producing: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character \(describe(byte)); expected a value")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : "0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func nest() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try nest()
        position += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(JSONObject())
        }
        // Room for a small object's members at once, instead of growing through 1, 2, 4.
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a string as object key") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
            position += 1
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return .object(JSONObject(members))
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try nest()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        elements.reserveCapacity(4)
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(elements)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func digits() -> Int {
        let start = position
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position - start
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("expected a digit") }
        if integerDigits > 1 && input[integerStart] == UInt8(ascii: "0") {
            throw failure("a number cannot have a leading zero", at: integerStart)
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            position += 1
            isInteger = false
            guard digits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            isInteger = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        if isInteger, integerDigits <= 18 {
            // Below 10^18, so within Int: summed from the digits, with no text made to parse.
            var magnitude = 0
            for byte in input[integerStart..<position] { magnitude = magnitude * 10 + Int(byte - UInt8(ascii: "0")) }
            return .int(integerStart > start ? -magnitude : magnitude)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        if isInteger { return JSONValue(integerText: text) ?? .bigInteger(text) }
        guard let double = Double(text), double.isFinite else {
            throw failure("number \(text) is out of range", at: start)
        }
        return .double(double)
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard input.count - position >= 4 else { throw failure("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func escapedScalar() throws(JSONSyntaxError) -> Unicode.Scalar {
        let escapeStart = position - 2
        let first = try hexQuad()
        switch first {
        case 0xD800...0xDBFF:
            guard input.count - position >= 2, input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate \\u\(String(first, radix: 16)) is not followed by a low one", at: escapeStart)
            }
            position += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw failure("a high surrogate is followed by \\u\(String(second, radix: 16)), not a low surrogate", at: escapeStart)
            }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        case 0xDC00...0xDFFF:
            throw failure("a lone low surrogate \\u\(String(first, radix: 16))", at: escapeStart)
        default:
            return Unicode.Scalar(first)!
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        let start = position
        position += 1
        var bytes: [UInt8] = []
        var runStart = position
        while true {
            guard let byte = current else { throw failure("unterminated string", at: start) }
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: input[runStart..<position])
                position += 1
                let string: String?
                if bytes.isEmpty {
                    string = String(validatingUTF8: run)
                } else {
                    bytes.append(contentsOf: run)
                    string = bytes.withUnsafeBufferPointer { String(validatingUTF8: $0) }
                }
                guard let string else {
                    throw failure("invalid UTF-8 in a string", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                bytes.append(contentsOf: input[runStart..<position])
                position += 1
                guard let escape = current else { throw failure("unterminated string", at: start) }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"): bytes.append(contentsOf: String(try escapedScalar()).utf8)
                default: throw failure("invalid escape \\\(Character(UnicodeScalar(escape)))", at: position - 2)
                }
                runStart = position
            case 0x00..<0x20:
                throw failure("a control character (\(describe(byte))) must be escaped in a string")
            default:
                position += 1
            }
        }
    }
}
