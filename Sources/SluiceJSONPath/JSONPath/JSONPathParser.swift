import SluiceCore

/// Reads a JSONPath query (RFC 9535 section 2's grammar) into segments, and checks the types of
/// its filter expressions (section 2.4.3) as it reads them.
struct JSONPathParser {
    /// The query's Unicode scalars: RFC 9535's grammar is over code points, and a `Character` view
    /// would fold a combining mark into the quote or dot before it.
    let characters: [Unicode.Scalar]
    var position = 0
    /// How many logical expressions are open around the position (parentheses, filters inside
    /// filters, function arguments).
    private var depth = 0

    /// Logical expressions nested deeper than this are refused, so that a hostile query cannot
    /// exhaust the stack of the recursive parser and evaluator.
    static let maximumNesting = 64

    init(characters: [Unicode.Scalar]) {
        self.characters = characters
    }

    private var current: Unicode.Scalar? { position < characters.count ? characters[position] : nil }

    private func failure(_ message: String, at offset: Int? = nil) -> JSONPath.SyntaxError {
        JSONPath.SyntaxError(message: message, offset: offset ?? position)
    }

    /// `"'c'"`, or `"end"` past the last character, for messages.
    private var currentDescription: String {
        current.map { "'\($0)'" } ?? "end"
    }

    /// `jsonpath-query = root-identifier segments`, and nothing after.
    mutating func query() throws(JSONPath.SyntaxError) -> [JSONPath.Segment] {
        guard current == "$" else { throw failure("a JSONPath starts with $") }
        position += 1
        return try segments(inFilter: false)
    }

    /// `segments = *(S segment)`. At the top level the segments run to the end of the text, with
    /// no blank space after the last one; inside a filter they end before anything that is not a
    /// segment, and the blank space before it is left to the caller.
    private mutating func segments(inFilter: Bool) throws(JSONPath.SyntaxError) -> [JSONPath.Segment] {
        var segments: [JSONPath.Segment] = []
        while true {
            let blankStart = position
            skipBlanks()
            guard let character = current else {
                if position > blankStart && !inFilter { throw failure("blank space after the last segment", at: blankStart) }
                return segments
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
            case _ where inFilter:
                position = blankStart
                return segments
            case "-" where position == blankStart && segments.last.map({ if case .name = $0.selectors.first { !$0.descendant } else { false } }) == true:
                throw failure(hyphenatedNameHint())
            default:
                throw failure("unexpected '\(character)'; expected '.', '..' or '['")
            }
        }
    }

    private mutating func skipBlanks() {
        while let character = current, character == " " || character == "\t" || character == "\n" || character == "\r" { position += 1 }
    }

    /// `"[" S selector *(S "," S selector) S "]"`
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
            default: throw failure("unexpected \(currentDescription); expected ',' or ']'")
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
            position += 1
            skipBlanks()
            return .filter(try test(logicalOr()))
        case let character? where character == "-" || character == ":" || JSONPathParser.isDigit(character):
            return try indexOrSlice()
        case let character?:
            throw failure("unexpected '\(character)' in a bracketed selector")
        case nil:
            throw failure("unexpected end; expected a selector")
        }
    }

    // MARK: Filter expressions (RFC 9535 section 2.3.5)

    /// What a part of a filter expression turned out to be, before its place says which types
    /// it may have: a bare query, function or literal is an existence test, a comparison's side or
    /// a function's argument, each with its own rules.
    private enum Operand {
        case logical(JSONPath.LogicalExpression)
        case query(JSONPath.FilterQuery, at: Int)
        case function(JSONPath.FunctionCall, at: Int)
        case literal(JSONValue, at: Int)
    }

    /// `logical-or-expr = logical-and-expr *(S "||" S logical-and-expr)`
    private mutating func logicalOr() throws(JSONPath.SyntaxError) -> Operand {
        depth += 1
        guard depth <= JSONPathParser.maximumNesting else {
            throw failure("filter expressions nested more than \(JSONPathParser.maximumNesting) deep")
        }
        let first = try logicalAnd()
        var branches: [JSONPath.LogicalExpression] = []
        while skip("||") {
            if branches.isEmpty { branches.append(try test(first)) }
            skipBlanks()
            branches.append(try test(logicalAnd()))
        }
        depth -= 1
        return branches.isEmpty ? first : .logical(.or(branches))
    }

    /// `logical-and-expr = basic-expr *(S "&&" S basic-expr)`
    private mutating func logicalAnd() throws(JSONPath.SyntaxError) -> Operand {
        let first = try basic()
        var terms: [JSONPath.LogicalExpression] = []
        while skip("&&") {
            if terms.isEmpty { terms.append(try test(first)) }
            skipBlanks()
            terms.append(try test(basic()))
        }
        return terms.isEmpty ? first : .logical(.and(terms))
    }

    /// `basic-expr = paren-expr / comparison-expr / test-expr`
    private mutating func basic() throws(JSONPath.SyntaxError) -> Operand {
        switch current {
        case "!":
            position += 1
            skipBlanks()
            if current == "(" { return .logical(.not(try parenthesized())) }
            return .logical(.not(try test(primary())))
        case "(":
            return .logical(try parenthesized())
        default:
            let left = try primary()
            let operatorStart = position
            guard let comparison = comparisonOperator() else { return left }
            let leftOperand = try comparable(left, before: operatorStart)
            skipBlanks()
            return .logical(.comparison(leftOperand, comparison, try comparable(primary(), before: nil)))
        }
    }

    /// `paren-expr`'s `"(" S logical-expr S ")"`
    private mutating func parenthesized() throws(JSONPath.SyntaxError) -> JSONPath.LogicalExpression {
        let open = position
        position += 1
        skipBlanks()
        let inner = try test(logicalOr())
        skipBlanks()
        guard current == ")" else {
            throw failure(current == nil ? "unclosed '('" : "unexpected \(currentDescription); expected ')' to close the '(' at character \(open + 1)")
        }
        position += 1
        return inner
    }

    /// A query, a function call or a literal.
    private mutating func primary() throws(JSONPath.SyntaxError) -> Operand {
        let start = position
        guard let character = current else { throw failure("unexpected end; expected a query, a function or a literal") }
        switch character {
        case "@", "$":
            position += 1
            return .query(JSONPath.FilterQuery(isRelative: character == "@", segments: try segments(inFilter: true)), at: start)
        case "'", "\"":
            return .literal(.string(try quoted()), at: start)
        case "-", "0"..."9":
            return .literal(try number(), at: start)
        case "a"..."z":
            while let next = current, ("a"..."z").contains(next) || next == "_" || JSONPathParser.isDigit(next) { position += 1 }
            let name = JSONPathParser.string(characters[start..<position])
            if current == "(" { return .function(try functionCall(named: name, at: start), at: start) }
            switch name {
            case "true": return .literal(.bool(true), at: start)
            case "false": return .literal(.bool(false), at: start)
            case "null": return .literal(.null, at: start)
            default: throw failure("unknown name '\(name)'; expected a function call, true, false or null", at: start)
            }
        default:
            throw failure("unexpected '\(character)'; expected a query, a function or a literal")
        }
    }

    /// The operator after blank space, or `nil` (and the position unchanged) when none follows.
    private mutating func comparisonOperator() -> JSONPath.ComparisonOperator? {
        for comparison in [JSONPath.ComparisonOperator.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater] where skip(comparison.rawValue) {
            return comparison
        }
        return nil
    }

    /// Moves past blank space and `token` when `token` follows; otherwise leaves the position.
    private mutating func skip(_ token: String) -> Bool {
        let start = position
        skipBlanks()
        let scalars = Array(token.unicodeScalars)
        if position + scalars.count <= characters.count, Array(characters[position..<position + scalars.count]) == scalars {
            position += scalars.count
            return true
        }
        position = start
        return false
    }

    /// `number = (int / "-0") [ frac ] [ exp ]`: an integer without fraction or exponent that fits
    /// is `.int`, any other number `.double`.
    private mutating func number() throws(JSONPath.SyntaxError) -> JSONValue {
        let start = position
        if current == "-" { position += 1 }
        guard let first = current, JSONPathParser.isDigit(first) else { throw failure("expected a digit") }
        position += 1
        if first == "0", let next = current, JSONPathParser.isDigit(next) { throw failure("a number cannot have a leading zero", at: start) }
        skipDigits()
        var isInteger = true
        if current == "." {
            position += 1
            guard let digit = current, JSONPathParser.isDigit(digit) else { throw failure("expected a digit after '.'") }
            skipDigits()
            isInteger = false
        }
        if current == "e" || current == "E" {
            position += 1
            if current == "+" || current == "-" { position += 1 }
            guard let digit = current, JSONPathParser.isDigit(digit) else { throw failure("expected a digit in the exponent") }
            skipDigits()
            isInteger = false
        }
        let text = JSONPathParser.string(characters[start..<position])
        if isInteger, let integer = JSONValue(integerText: text) { return integer }
        guard let double = Double(text) else { throw failure("\(text) is not a number", at: start) }
        return .double(double)
    }

    private mutating func skipDigits() {
        while let character = current, JSONPathParser.isDigit(character) { position += 1 }
    }

    /// `function-expr = function-name "(" S [function-argument *(S "," S function-argument)] S ")"`,
    /// its arguments checked against the function's declared parameter types.
    private mutating func functionCall(named name: String, at start: Int) throws(JSONPath.SyntaxError) -> JSONPath.FunctionCall {
        guard let function = JSONPath.Function(rawValue: name) else {
            let known = JSONPath.Function.allCases.map(\.rawValue).joined(separator: ", ")
            throw failure("unknown function '\(name)'; the functions are \(known)", at: start)
        }
        position += 1
        skipBlanks()
        var operands: [(Operand, Int)] = []
        if current != ")" {
            while true {
                let argumentStart = position
                operands.append((try logicalOr(), argumentStart))
                skipBlanks()
                guard current == "," else { break }
                position += 1
                skipBlanks()
            }
        }
        guard current == ")" else { throw failure("unexpected \(currentDescription); expected ',' or ')' in \(name)()") }
        position += 1
        let parameters = function.parameters
        guard operands.count == parameters.count else {
            let count = parameters.count == 1 ? "1 argument" : "\(parameters.count) arguments"
            throw failure("\(name)() takes \(count), not \(operands.count)", at: start)
        }
        var arguments: [JSONPath.FunctionArgument] = []
        for ((operand, argumentStart), type) in zip(operands, parameters) {
            arguments.append(try argument(operand, at: argumentStart, for: type, of: name))
        }
        var call = JSONPath.FunctionCall(function: function, arguments: arguments, pattern: nil)
        if function == .match || function == .search, case .literal(.string(let pattern), let patternStart) = operands[1].0 {
            do {
                call.pattern = try IRegexp(pattern)
            } catch {
                throw failure("'\(pattern)' is not an I-Regexp (RFC 9485): \(error.message), at character \(error.offset + 1) of the pattern", at: patternStart)
            }
        }
        return call
    }

    /// An argument checked against its parameter's declared type (RFC 9535 section 2.4.3).
    private func argument(_ operand: Operand, at start: Int, for type: JSONPath.FunctionType, of name: String) throws(JSONPath.SyntaxError) -> JSONPath.FunctionArgument {
        switch (type, operand) {
        case (.value, .literal(let value, _)):
            return .literal(value)
        case (.value, .query(let query, let start)):
            guard query.isSingular else {
                throw failure("\(name)() takes a value here: a query in its place must be singular (names and indexes only)", at: start)
            }
            return .query(query)
        case (.nodes, .query(let query, _)):
            return .query(query)
        case (.logical, .logical(let expression)):
            return .logical(expression)
        case (.logical, .query(let query, _)):
            return .logical(.exists(query))
        case (_, .function(let call, let start)):
            let result = call.function.result
            guard result == type || (type == .logical && result == .nodes) else {
                throw failure("\(name)() takes a \(type.rawValue) here, and \(call.function.rawValue)() gives a \(result.rawValue)", at: start)
            }
            return .function(call)
        case (_, .literal(_, let start)):
            throw failure("\(name)() takes a \(type.rawValue) here, not a literal", at: start)
        case (_, .logical):
            throw failure("\(name)() takes a \(type.rawValue) here, not a logical expression", at: start)
        case (.logical, _), (.value, _), (.nodes, _):
            throw failure("\(name)() takes a \(type.rawValue) here", at: start)
        }
    }

    /// An operand in the place of a test: a query is an existence test, a function must give a
    /// logical value or nodes, and a literal is refused.
    private func test(_ operand: Operand) throws(JSONPath.SyntaxError) -> JSONPath.LogicalExpression {
        switch operand {
        case .logical(let expression):
            return expression
        case .query(let query, _):
            return .exists(query)
        case .function(let call, let start):
            guard call.function.result != .value else {
                throw failure("\(call.function.rawValue)() gives a value, which must be compared (as in \(call.function.rawValue)(...) > 0)", at: start)
            }
            return .function(call)
        case .literal(_, let start):
            throw failure("a literal must be compared with something", at: start)
        }
    }

    /// An operand in the place of a comparison's side: a literal, a singular query, or a function
    /// that gives a value.
    private func comparable(_ operand: Operand, before operatorStart: Int?) throws(JSONPath.SyntaxError) -> JSONPath.ComparisonOperand {
        switch operand {
        case .literal(let value, _):
            return .literal(value)
        case .query(let query, let start):
            guard query.isSingular else {
                throw failure("a query compared must be singular (names and indexes only, no wildcard, slice, filter or '..')", at: start)
            }
            return .query(query)
        case .function(let call, let start):
            guard call.function.result == .value else {
                throw failure("\(call.function.rawValue)() gives a \(call.function.result.rawValue), which cannot be compared", at: start)
            }
            return .function(call)
        case .logical:
            throw failure("a logical expression cannot be compared", at: operatorStart ?? position)
        }
    }

    /// The advice for `$.a.b-c`: RFC 9535's dotted names cannot hold `-`, brackets can.
    private func hyphenatedNameHint() -> String {
        var start = position
        while start > 0, characters[start - 1] != "." { start -= 1 }
        var end = position
        while end < characters.count, characters[end] != ".", characters[end] != "[" { end += 1 }
        let name = JSONPathParser.string(characters[start..<end])
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
        while let character = current, JSONPathParser.isNameCharacter(character, first: position == start) { position += 1 }
        guard position > start else { throw failure("expected a member name or '*'") }
        return .name(JSONPathParser.string(characters[start..<position]))
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


    private mutating func integer() throws(JSONPath.SyntaxError) -> Int? {
        let start = position
        if current == "-" { position += 1 }
        let digitsStart = position
        while let character = current, JSONPathParser.isDigit(character) { position += 1 }
        guard position > digitsStart else {
            if position > start { throw failure("expected digits after '-'") }
            return nil
        }
        let text = JSONPathParser.string(characters[start..<position])
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
            return UInt32(JSONPathParser.string(digits), radix: 16)
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
