/// A JSONPath query (RFC 9535) over a ``JSONValue``, for pipeline expectations and captures.
///
/// Supported: the root `$`; child segments `.name`, `.*` and `[...]`; descendant segments
/// `..name`, `..*` and `..[...]`; inside brackets, comma-separated name selectors (`'a'` or
/// `"a"`, with RFC 9535's escapes), index selectors (`0`, `-1`), the wildcard `*`, and slices
/// (`1:3`, `::2`, `-2:`); blank space before a segment (`$ .a`, `$['a']\n['b']`), as the RFC's
/// grammar allows. Filter selectors (`?`) and functions are not supported: parsing them is an
/// error with its position, never a query that silently selects nothing. The RFC's compliance
/// suite runs in the tests (`JSONPathComplianceTests`): every test passes but the filter ones.
///
/// ```swift
/// let query = try JSONPath("$.items[-1].name")
/// try query.select(in: document)   // the nodes, in document order
/// ```
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One selector inside a segment.
    public enum Selector: Sendable, Hashable {
        /// A member by name.
        case name(String)
        /// Every member or element.
        case wildcard
        /// An element by index; negative counts from the end.
        case index(Int)
        /// Elements from `start` up to `end` (exclusive) every `step`, as RFC 9535 section 2.3.4 says.
        case slice(start: Int?, end: Int?, step: Int?)
    }

    /// One segment: selectors applied to the current nodes, or to them and all their descendants.
    public struct Segment: Sendable, Hashable {
        /// The selectors, in order.
        public var selectors: [Selector]
        /// Whether the segment is a descendant segment (`..`).
        public var descendant: Bool
    }

    /// Why a text is not a supported JSONPath, and where.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// The offset in the expression, in Unicode code points (scalars) from 0: RFC 9535 reads a
        /// query as code points, so a combining mark is a character of its own here.
        public var offset: Int

        /// `MESSAGE (at character N)`.
        public var description: String { "\(message) (at character \(offset + 1))" }
    }

    /// The query as written.
    public let text: String
    /// The segments after `$`.
    public let segments: [Segment]

    /// Parses a query.
    /// - Throws: `SyntaxError` for anything that is not a supported JSONPath.
    public init(_ text: String) throws(SyntaxError) {
        self.text = text
        var parser = Parser(characters: Array(text.unicodeScalars))
        segments = try parser.query()
    }

    /// The query as written.
    public var description: String { text }

    /// Whether the query selects at most one node (names and indexes only, no descendants).
    public var isSingular: Bool {
        segments.allSatisfy { segment in
            !segment.descendant && segment.selectors.count == 1
                && { if case .name = segment.selectors[0] { true } else if case .index = segment.selectors[0] { true } else { false } }()
        }
    }

    /// The nodes the query selects in `value`, in document order.
    /// - Parameter maximumNodes: the most nodes the query may select, at its end or along the way;
    ///   ``JSONPath/maximumNodes`` unless given. The count is checked after every selector, so a
    ///   query stops as soon as it passes the limit, however many selectors it has.
    /// - Throws: `TooManyNodes` past that limit.
    public func select(in value: JSONValue, maximumNodes: Int = JSONPath.maximumNodes) throws(TooManyNodes) -> [JSONValue] {
        var nodes = [value]
        for segment in segments {
            var next: [JSONValue] = []
            for node in nodes {
                let targets = segment.descendant ? JSONPath.descendants(of: node) : [node]
                for target in targets {
                    for selector in segment.selectors {
                        JSONPath.apply(selector, to: target, into: &next)
                        if next.count > maximumNodes { throw TooManyNodes(path: text, limit: maximumNodes) }
                    }
                }
            }
            nodes = next
        }
        return nodes
    }

    /// The most nodes a query selects by default, at its end or along the way. RFC 9535 keeps
    /// duplicates, so descendant segments multiply (`$..*..*` selects the square of a document's
    /// nodes), and a large response would otherwise take minutes and gigabytes (found by fuzzing).
    public static let maximumNodes = 100_000

    /// A query selected more nodes than its limit (``JSONPath/maximumNodes`` by default).
    public struct TooManyNodes: Error, Sendable, Hashable, CustomStringConvertible {
        /// The query, as written.
        public var path: String
        /// The limit it passed.
        public var limit: Int

        /// Creates the error for a query and the limit it passed.
        public init(path: String, limit: Int = JSONPath.maximumNodes) {
            self.path = path
            self.limit = limit
        }

        /// Says which query and what the limit is.
        public var description: String { "\(path) selects more than \(limit) nodes" }
    }

    private static func descendants(of value: JSONValue) -> [JSONValue] {
        var result = [value]
        switch value {
        case .array(let elements): for element in elements { result += descendants(of: element) }
        case .object(let object): for member in object { result += descendants(of: member.value) }
        default: break
        }
        return result
    }

    private static func apply(_ selector: Selector, to value: JSONValue, into nodes: inout [JSONValue]) {
        switch (selector, value) {
        case (.name(let name), .object(let object)):
            if let member = object[name] { nodes.append(member) }
        case (.wildcard, .object(let object)):
            nodes += object.members.map(\.value)
        case (.wildcard, .array(let elements)):
            nodes += elements
        case (.index(let index), .array(let elements)):
            let position = index < 0 ? elements.count + index : index
            if elements.indices.contains(position) { nodes.append(elements[position]) }
        case (.slice(let start, let end, let step), .array(let elements)):
            nodes += slice(elements, start: start, end: end, step: step ?? 1)
        default:
            break
        }
    }

    /// RFC 9535 section 2.3.4.2.2.
    private static func slice(_ elements: [JSONValue], start: Int?, end: Int?, step: Int) -> [JSONValue] {
        let count = elements.count
        guard step != 0, count > 0 else { return [] }
        func normalize(_ index: Int) -> Int { index >= 0 ? index : count + index }
        var result: [JSONValue] = []
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), count)
            let upper = min(max(normalize(end ?? count), 0), count)
            var index = lower
            while index < upper {
                result.append(elements[index])
                index += step
            }
        } else {
            let upper = min(max(normalize(start ?? count - 1), -1), count - 1)
            let lower = min(max(end.map(normalize) ?? -1, -1), count - 1)
            var index = upper
            while lower < index {
                result.append(elements[index])
                index += step
            }
        }
        return result
    }
}

private struct Parser {
    /// The query's Unicode scalars: RFC 9535's grammar is over code points, and a `Character` view
    /// would fold a combining mark into the quote or dot before it.
    let characters: [Unicode.Scalar]
    var position = 0

    init(characters: [Unicode.Scalar]) {
        self.characters = characters
    }

    private var current: Unicode.Scalar? { position < characters.count ? characters[position] : nil }

    private func failure(_ message: String, at offset: Int? = nil) -> JSONPath.SyntaxError {
        JSONPath.SyntaxError(message: message, offset: offset ?? position)
    }

    mutating func query() throws(JSONPath.SyntaxError) -> [JSONPath.Segment] {
        guard current == "$" else { throw failure("a JSONPath starts with $") }
        position += 1
        var segments: [JSONPath.Segment] = []
        while current != nil {
            // RFC 9535: `segments = *(S segment)`, blank space before each segment, none after the last.
            let blankStart = position
            while let blank = current, blank == " " || blank == "\t" || blank == "\n" || blank == "\r" { position += 1 }
            guard let character = current else {
                throw failure("blank space after the last segment", at: blankStart)
            }
            switch character {
            case ".":
                position += 1
                if current == "." {
                    position += 1
                    segments.append(JSONPath.Segment(selectors: try dottedOrBracketed(), descendant: true))
                } else {
                    segments.append(JSONPath.Segment(selectors: [try dotted()], descendant: false))
                }
            case "[":
                segments.append(JSONPath.Segment(selectors: try bracketed(), descendant: false))
            case "-" where segments.last.map({ if case .name = $0.selectors.first { !$0.descendant } else { false } }) == true:
                throw failure(hyphenatedNameHint())
            default:
                throw failure("unexpected '\(character)'; expected '.', '..' or '['")
            }
        }
        return segments
    }

    /// The advice for `$.a.b-c`: RFC 9535's dotted names cannot hold `-`, brackets can.
    private func hyphenatedNameHint() -> String {
        var start = position
        while start > 0, characters[start - 1] != "." { start -= 1 }
        var end = position
        while end < characters.count, characters[end] != ".", characters[end] != "[" { end += 1 }
        let name = Parser.string(characters[start..<end])
        return "unexpected '-': a name with '-' is written in brackets, as ['\(name)'] (RFC 9535)"
    }

    private mutating func dottedOrBracketed() throws(JSONPath.SyntaxError) -> [JSONPath.Selector] {
        current == "[" ? try bracketed() : [try dotted()]
    }

    /// `*` or a member name shorthand after `.`.
    private mutating func dotted() throws(JSONPath.SyntaxError) -> JSONPath.Selector {
        if current == "*" {
            position += 1
            return .wildcard
        }
        let start = position
        while let character = current, Parser.isNameCharacter(character, first: position == start) { position += 1 }
        guard position > start else { throw failure("expected a member name or '*'") }
        return .name(Parser.string(characters[start..<position]))
    }

    /// RFC 9535 name-first and name-char: ASCII letters, `_`, any non-ASCII code point, and ASCII
    /// digits after the first.
    private static func isNameCharacter(_ character: Unicode.Scalar, first: Bool) -> Bool {
        if character == "_" || !character.isASCII { return true }
        if isLetter(character) { return true }
        return !first && isDigit(character)
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    private mutating func skipBlanks() {
        while let character = current, character == " " || character == "\t" || character == "\n" || character == "\r" { position += 1 }
    }

    private mutating func bracketed() throws(JSONPath.SyntaxError) -> [JSONPath.Selector] {
        position += 1
        var selectors: [JSONPath.Selector] = []
        while true {
            skipBlanks()
            selectors.append(try selector())
            skipBlanks()
            switch current {
            case ",": position += 1
            case "]":
                position += 1
                return selectors
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func selector() throws(JSONPath.SyntaxError) -> JSONPath.Selector {
        switch current {
        case "*":
            position += 1
            return .wildcard
        case "'", "\"":
            return .name(try quoted())
        case "?":
            throw failure("filter selectors (?...) are not supported")
        case let character? where character == "-" || character == ":" || Parser.isDigit(character):
            return try indexOrSlice()
        case let character?:
            throw failure("unexpected '\(character)' in a bracketed selector")
        case nil:
            throw failure("unexpected end; expected a selector")
        }
    }

    private mutating func integer() throws(JSONPath.SyntaxError) -> Int? {
        let start = position
        if current == "-" { position += 1 }
        let digitsStart = position
        while let character = current, Parser.isDigit(character) { position += 1 }
        guard position > digitsStart else {
            if position > start { throw failure("expected digits after '-'") }
            return nil
        }
        let text = Parser.string(characters[start..<position])
        if text.utf8.count > 1 && (text.hasPrefix("0") || text.hasPrefix("-0")) { throw failure("an integer cannot have a leading zero", at: start) }
        guard let value = Int(text), abs(value) <= 9_007_199_254_740_991 else { throw failure("integer \(text) is out of range", at: start) }
        return value
    }

    private mutating func indexOrSlice() throws(JSONPath.SyntaxError) -> JSONPath.Selector {
        let first = try integer()
        skipBlanks()
        guard current == ":" else {
            guard let first else { throw failure("expected an index") }
            return .index(first)
        }
        position += 1
        skipBlanks()
        let end = try integer()
        skipBlanks()
        var step: Int?
        if current == ":" {
            position += 1
            skipBlanks()
            step = try integer()
        }
        return .slice(start: first, end: end, step: step)
    }

    /// A quoted name with RFC 9535's escapes (section 2.3.1.1): `\'` only between single quotes
    /// and `\"` only between double ones, `\uXXXX` with exactly four hex digits and surrogates
    /// only in pairs, and no unescaped control character.
    private mutating func quoted() throws(JSONPath.SyntaxError) -> String {
        let quote = characters[position]
        let start = position
        position += 1
        var text = ""
        while let character = current {
            position += 1
            if character == quote { return text }
            guard character == "\\" else {
                if character.value < 0x20 {
                    throw failure("a control character must be escaped in a quoted name", at: position - 1)
                }
                text.unicodeScalars.append(character)
                continue
            }
            guard let escape = current else { break }
            position += 1
            switch escape {
            case "b": text.unicodeScalars.append("\u{08}")
            case "f": text.unicodeScalars.append("\u{0C}")
            case "n": text.unicodeScalars.append("\n")
            case "r": text.unicodeScalars.append("\r")
            case "t": text.unicodeScalars.append("\t")
            case "/", "\\": text.unicodeScalars.append(escape)
            case quote: text.unicodeScalars.append(escape)
            case "u": text.unicodeScalars.append(try unicodeEscape())
            default:
                throw failure("invalid escape \\\(escape)", at: position - 2)
            }
        }
        throw failure("unterminated quoted name", at: start)
    }

    /// The scalar of a `\uXXXX` escape whose `\u` was just read, or of a surrogate pair
    /// `\uD83D\uDE00`; `position` moves past it.
    private mutating func unicodeEscape() throws(JSONPath.SyntaxError) -> Unicode.Scalar {
        let escapeStart = position - 2
        func hex() -> UInt32? {
            guard position + 4 <= characters.count else { return nil }
            let digits = characters[position..<position + 4]
            guard digits.allSatisfy({ $0.properties.isASCIIHexDigit }) else { return nil }
            position += 4
            return UInt32(Parser.string(digits), radix: 16)
        }
        guard let code = hex() else { throw failure("\\u needs four hex digits", at: escapeStart) }
        switch code {
        case 0xD800...0xDBFF:
            guard position + 2 <= characters.count, characters[position] == "\\", characters[position + 1] == "u" else {
                throw failure("a high surrogate \\u escape must be followed by a low one", at: escapeStart)
            }
            position += 2
            guard let low = hex(), (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
            else { throw failure("a high surrogate \\u escape must be followed by a low one", at: escapeStart) }
            return scalar
        case 0xDC00...0xDFFF:
            throw failure("a low surrogate \\u escape must follow a high one", at: escapeStart)
        default:
            return Unicode.Scalar(code)!
        }
    }
}
