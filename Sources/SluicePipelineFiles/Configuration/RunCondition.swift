import Foundation
import SluiceCore
import SluiceStageRegistry

/// A request's `when:` or `skip:` condition: a small expression over variables and captures.
///
/// ```
/// when: env == 'staging' and exists token
/// skip: count >= 3 or not (region != "eu")
/// ```
///
/// - Operands: a name (a variable, a capture, a `for-each` row value; `${NAME}` is accepted too),
///   `env.NAME` for the environment, a quoted string (`'...'` or `"..."`), a number.
/// - Comparisons: `==`, `!=`, `<`, `<=`, `>`, `>=`. Two operands that both read as numbers compare
///   as numbers (`3 == 3.0`; integers of any size exactly, as `expect` compares them); two that
///   read as text, as text, code point by code point, with no Unicode normalization; a number and text are not equal and have no order (`<`, `<=`, `>`,
///   `>=` are false). A comparison with a name that has no value is false (`!=` included): test it
///   with `exists NAME`.
/// - `exists NAME`, `true`, `false`, `not`, `and`, `or` and parentheses; `not` binds tightest, then
///   `and`, then `or`.
///
/// Parsing happens when the file loads, so a syntax error, or a name nothing in the file can
/// supply, is a load-time error at the condition's line.
public struct RunCondition: Sendable, Hashable, CustomStringConvertible {
    /// What the condition decides.
    public enum Effect: String, Sendable, Hashable {
        /// `when:`: the request runs only when the condition holds.
        case when
        /// `skip:`: the request is skipped when the condition holds.
        case skip
    }

    /// A piece of the expression.
    indirect enum Node: Sendable, Hashable {
        case constant(Bool)
        case exists(Operand)
        case compare(Operand, Comparison, Operand)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
    }

    /// A value in a comparison.
    enum Operand: Sendable, Hashable {
        case variable(String)
        case environment(String)
        case literal(String)
    }

    /// A comparison operator.
    enum Comparison: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// Why an expression cannot be read.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, and where in the expression.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// `when` or `skip`.
    public var effect: Effect
    /// The expression as written.
    public var text: String
    /// Where it is written.
    public var mark: YAMLNode.Mark
    /// The parsed expression.
    let node: Node

    /// Parses an expression.
    /// - Throws: ``SyntaxError`` saying what is wrong and at which character.
    public init(_ effect: Effect, parsing text: String, mark: YAMLNode.Mark) throws(SyntaxError) {
        var parser = Parser(tokens: try Tokenizer.tokens(of: text))
        let node = try parser.expression()
        if let extra = parser.peek {
            throw SyntaxError(message: "unexpected \(extra.text) at character \(extra.offset + 1) of '\(text)'")
        }
        self.effect = effect
        self.text = text
        self.mark = mark
        self.node = node
    }

    /// The variable names the expression reads (`env.` ones apart), in order.
    public var variables: [String] {
        func names(_ node: Node) -> [String] {
            switch node {
            case .constant: []
            case .exists(let operand): names(operand)
            case .compare(let left, _, let right): names(left) + names(right)
            case .not(let inner): names(inner)
            case .and(let left, let right), .or(let left, let right): names(left) + names(right)
            }
        }
        func names(_ operand: Operand) -> [String] {
            if case .variable(let name) = operand { [name] } else { [] }
        }
        return names(node)
    }

    /// The variable names the expression compares (`NAME == 'x'`, `NAME > 3`), in order: those
    /// it needs a value of. A name it only asks `exists` of may be missing, which it judges.
    public var comparedVariables: [String] {
        func names(_ node: Node) -> [String] {
            switch node {
            case .constant, .exists: []
            case .compare(let left, _, let right): [left, right].compactMap { if case .variable(let name) = $0 { name } else { nil } }
            case .not(let inner): names(inner)
            case .and(let left, let right), .or(let left, let right): names(left) + names(right)
            }
        }
        return names(node)
    }

    /// Whether the expression holds for these values.
    public func holds(variables: [String: String], environment: [String: String]) -> Bool {
        func value(_ operand: Operand) -> String? {
            switch operand {
            case .variable(let name): variables[name]
            case .environment(let name): environment[name]
            case .literal(let text): text
            }
        }
        func evaluate(_ node: Node) -> Bool {
            switch node {
            case .constant(let value): return value
            case .exists(let operand): return value(operand) != nil
            case .not(let inner): return !evaluate(inner)
            case .and(let left, let right): return evaluate(left) && evaluate(right)
            case .or(let left, let right): return evaluate(left) || evaluate(right)
            case .compare(let left, let comparison, let right):
                guard let left = value(left), let right = value(right) else { return false }
                return RunCondition.compare(left, comparison, right)
            }
        }
        return evaluate(node)
    }

    /// Whether the request runs, as far as this condition goes.
    public func allowsRun(variables: [String: String], environment: [String: String]) -> Bool {
        holds(variables: variables, environment: environment) == (effect == .when)
    }

    /// `when: TEXT` or `skip: TEXT`.
    public var description: String { "\(effect.rawValue): \(text)" }

    /// Why a request this condition leaves out is skipped: `when: TEXT does not hold` or
    /// `skip: TEXT holds`.
    public var skipReason: String { effect == .when ? "\(description) does not hold" : "\(description) holds" }

    private static func compare(_ left: String, _ comparison: Comparison, _ right: String) -> Bool {
        let order: Int
        let (a, b) = (number(left), number(right))
        if let a, let b {
            // Exactly, as expect compares: 18446744073709551617 is not 18446744073709551616.
            guard let numeric = JSONValue.numericOrder(a, b) else { return comparison == .notEqual }
            order = numeric
        } else if (a == nil) != (b == nil), comparison != .equal, comparison != .notEqual {
            // A number and text have no order: 'abc' > 40 does not hold (nor 'abc' <= 40).
            return false
        } else {
            let a = Array(left.unicodeScalars.map(\.value)), b = Array(right.unicodeScalars.map(\.value))
            order = a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
        }
        switch comparison {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }

    /// A decimal number as JSON writes it (no `nan`, `inf`, hex or leading `+`; leading zeros
    /// allowed), else `nil`: an integer of any size exactly, any other number as a double.
    private static func number(_ text: String) -> JSONValue? {
        guard let first = text.unicodeScalars.first, first == "-" || ("0"..."9").contains(first),
            text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || "-+.eE".unicodeScalars.contains($0) })
        else { return nil }
        if let integer = JSONValue(integerText: text) { return integer }
        return Double(text).map(JSONValue.double)
    }
}

// MARK: Reading

private struct Token: Sendable {
    enum Kind: Sendable, Hashable { case word, string, number, symbol }
    var kind: Kind
    var text: String
    var offset: Int
}

private enum Tokenizer {
    static func tokens(of text: String) throws(RunCondition.SyntaxError) -> [Token] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        func string(_ range: Range<Int>) -> String {
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[range])
            return text
        }
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-.".unicodeScalars.contains(scalar))
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let start = index
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                index += 1
            } else if scalar == "'" || scalar == "\"" {
                guard let close = scalars[(index + 1)...].firstIndex(of: scalar) else {
                    throw RunCondition.SyntaxError(message: "the string at character \(start + 1) has no closing \(scalar)")
                }
                tokens.append(Token(kind: .string, text: string((index + 1)..<close), offset: start))
                index = close + 1
            } else if scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "{" {
                guard let close = scalars[(index + 2)...].firstIndex(of: "}") else {
                    throw RunCondition.SyntaxError(message: "'${' at character \(start + 1) has no closing '}'")
                }
                tokens.append(Token(kind: .word, text: string((index + 2)..<close), offset: start))
                index = close + 1
            } else if "=!<>".unicodeScalars.contains(scalar) {
                let two = index + 1 < scalars.count && scalars[index + 1] == "="
                let symbol = string(index..<(index + (two ? 2 : 1)))
                guard RunCondition.Comparison(rawValue: symbol) != nil else {
                    throw RunCondition.SyntaxError(message: "'\(symbol)' at character \(start + 1) is not an operator (==, !=, <, <=, >, >=)")
                }
                tokens.append(Token(kind: .symbol, text: symbol, offset: start))
                index += symbol.unicodeScalars.count
            } else if scalar == "(" || scalar == ")" {
                tokens.append(Token(kind: .symbol, text: String(scalar), offset: start))
                index += 1
            } else if scalar == "-" || ("0"..."9").contains(scalar) || isWord(scalar) {
                while index < scalars.count, isWord(scalars[index]) || scalars[index] == "+" && "eE".unicodeScalars.contains(scalars[index - 1]) {
                    index += 1
                }
                let word = string(start..<index)
                let numeric = scalar == "-" || ("0"..."9").contains(scalar)
                tokens.append(Token(kind: numeric ? .number : .word, text: word, offset: start))
            } else {
                throw RunCondition.SyntaxError(message: "unexpected '\(scalar)' at character \(start + 1)")
            }
        }
        return tokens
    }
}

private struct Parser {
    /// How deep parentheses and `not` may nest: far more than a condition needs, far less than
    /// would exhaust the stack.
    static let maximumDepth = 64

    var tokens: [Token]
    var position = 0
    var depth = 0

    var peek: Token? { position < tokens.count ? tokens[position] : nil }

    mutating func next() -> Token? {
        defer { position += 1 }
        return peek
    }

    func isKeyword(_ token: Token?, _ word: String) -> Bool {
        token?.kind == .word && token!.text.hasSameCodePoints(as: word)
    }

    mutating func expression() throws(RunCondition.SyntaxError) -> RunCondition.Node {
        var node = try conjunction()
        while isKeyword(peek, "or") {
            position += 1
            node = .or(node, try conjunction())
        }
        return node
    }

    mutating func conjunction() throws(RunCondition.SyntaxError) -> RunCondition.Node {
        var node = try negation()
        while isKeyword(peek, "and") {
            position += 1
            node = .and(node, try negation())
        }
        return node
    }

    mutating func negation() throws(RunCondition.SyntaxError) -> RunCondition.Node {
        if isKeyword(peek, "not") {
            try enter()
            defer { depth -= 1 }
            position += 1
            return .not(try negation())
        }
        return try primary()
    }

    mutating func enter() throws(RunCondition.SyntaxError) {
        depth += 1
        guard depth <= Parser.maximumDepth else {
            throw RunCondition.SyntaxError(message: "the condition nests deeper than \(Parser.maximumDepth) levels of parentheses and not")
        }
    }

    mutating func primary() throws(RunCondition.SyntaxError) -> RunCondition.Node {
        guard let token = next() else { throw RunCondition.SyntaxError(message: "the condition ends where a value was expected") }
        if token.kind == .symbol && token.text == "(" {
            try enter()
            defer { depth -= 1 }
            let inner = try expression()
            guard let close = next(), close.kind == .symbol, close.text == ")" else {
                throw RunCondition.SyntaxError(message: "the '(' at character \(token.offset + 1) has no closing ')'")
            }
            return inner
        }
        if isKeyword(token, "exists") {
            guard let name = next(), name.kind == .word, let operand = Parser.name(name) else {
                throw RunCondition.SyntaxError(message: "exists at character \(token.offset + 1) takes a variable name")
            }
            return .exists(operand)
        }
        let left = try operand(token)
        guard let symbol = peek, symbol.kind == .symbol, let comparison = RunCondition.Comparison(rawValue: symbol.text) else {
            if isKeyword(token, "true") { return .constant(true) }
            if isKeyword(token, "false") { return .constant(false) }
            throw RunCondition.SyntaxError(
                message: "'\(token.text)' at character \(token.offset + 1) needs a comparison (==, !=, <, <=, >, >=); write exists \(token.text) to test that it has a value"
            )
        }
        position += 1
        guard let rightToken = next() else { throw RunCondition.SyntaxError(message: "\(comparison.rawValue) at character \(symbol.offset + 1) has nothing on its right") }
        return .compare(left, comparison, try operand(rightToken))
    }

    mutating func operand(_ token: Token) throws(RunCondition.SyntaxError) -> RunCondition.Operand {
        switch token.kind {
        case .string: return .literal(token.text)
        case .number:
            guard Double(token.text) != nil else { throw RunCondition.SyntaxError(message: "'\(token.text)' at character \(token.offset + 1) is not a number") }
            return .literal(token.text)
        case .word:
            if ["and", "or", "not", "exists"].contains(where: { isKeyword(token, $0) }) {
                throw RunCondition.SyntaxError(message: "'\(token.text)' at character \(token.offset + 1) is a keyword where a value was expected")
            }
            if isKeyword(token, "true") || isKeyword(token, "false") { return .literal(token.text) }
            guard let operand = Parser.name(token) else {
                throw RunCondition.SyntaxError(message: "'\(token.text)' at character \(token.offset + 1) is not a variable name; quote text: '\(token.text)'")
            }
            return operand
        case .symbol:
            throw RunCondition.SyntaxError(message: "unexpected \(token.text) at character \(token.offset + 1) where a value was expected")
        }
    }

    static func name(_ token: Token) -> RunCondition.Operand? {
        guard TemplateString.isValidName(token.text) else { return nil }
        return token.text.hasPrefix("env.") ? .environment(String(token.text.dropFirst(4))) : .variable(token.text)
    }
}
