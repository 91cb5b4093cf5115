import SluiceCore

/// Reads an I-Regexp pattern (RFC 9485 section 3's grammar) into an ``IRegexpNode``.
struct IRegexpParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0

    /// Groups nested deeper than this are refused, so that a hostile pattern cannot exhaust the
    /// stack of the recursive parser and compiler.
    static let maximumNesting = 100

    init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func failure(_ message: String, at offset: Int? = nil) -> IRegexp.SyntaxError {
        IRegexp.SyntaxError(message: message, offset: offset ?? position)
    }

    /// The whole pattern.
    mutating func pattern() throws(IRegexp.SyntaxError) -> IRegexpNode {
        let tree = try alternation()
        if let character = current {
            throw failure(character == ")" ? "unbalanced ')'" : "unexpected '\(character)'")
        }
        return tree
    }

    /// `i-regexp = branch *( "|" branch )`
    private mutating func alternation() throws(IRegexp.SyntaxError) -> IRegexpNode {
        var branches = [try branch()]
        while current == "|" {
            position += 1
            branches.append(try branch())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    /// `branch = *piece`, `piece = atom [ quantifier ]`
    private mutating func branch() throws(IRegexp.SyntaxError) -> IRegexpNode {
        var pieces: [IRegexpNode] = []
        while let character = current, character != "|", character != ")" {
            let atomStart = position
            let atom = try self.atom()
            guard let (minimum, maximum) = try quantifier() else {
                pieces.append(atom)
                continue
            }
            // A bare `^` or `$` is an assertion, which ECMAScript does not let repeat; a group
            // holding one may be.
            if scalars[atomStart] == "^" || scalars[atomStart] == "$" {
                throw failure("'\(scalars[atomStart])' cannot be repeated", at: atomStart)
            }
            pieces.append(.repetition(atom, minimum: minimum, maximum: maximum))
        }
        switch pieces.count {
        case 0: return .empty
        case 1: return pieces[0]
        default: return .sequence(pieces)
        }
    }

    private mutating func atom() throws(IRegexp.SyntaxError) -> IRegexpNode {
        let character = current!
        switch character {
        case "(":
            let open = position
            depth += 1
            guard depth <= IRegexpParser.maximumNesting else {
                throw failure("groups nested more than \(IRegexpParser.maximumNesting) deep")
            }
            position += 1
            let inner = try alternation()
            guard current == ")" else { throw failure("unclosed '('", at: open) }
            position += 1
            depth -= 1
            return inner
        case ".":
            position += 1
            return .characters(.dot)
        case "^":
            position += 1
            return .start
        case "$":
            position += 1
            return .end
        case "[":
            return .characters(try bracketExpression())
        case "\\":
            return .characters(try escape())
        case "*", "+", "?", "{":
            throw failure("'\(character)' has nothing to repeat")
        case "]", "}":
            throw failure("unescaped '\(character)'; write \\\(character)")
        default:
            position += 1
            return .characters(IRegexpCharacterClass(character))
        }
    }

    /// `quantifier = ( "*" / "+" / "?" ) / "{" QuantExact [ "," [ QuantExact ] ] "}"`
    private mutating func quantifier() throws(IRegexp.SyntaxError) -> (Int, Int?)? {
        let start = position
        switch current {
        case "*": position += 1; return (0, nil)
        case "+": position += 1; return (1, nil)
        case "?": position += 1; return (0, 1)
        case "{":
            position += 1
            let minimum = try count()
            var maximum: Int? = minimum
            if current == "," {
                position += 1
                maximum = current == "}" ? nil : try count()
            }
            guard current == "}" else { throw failure("expected '}' to close the quantifier at character \(start + 1)") }
            position += 1
            if let maximum, maximum < minimum {
                throw failure("the quantifier's maximum \(maximum) is below its minimum \(minimum)", at: start)
            }
            return (minimum, maximum)
        default:
            return nil
        }
    }

    private mutating func count() throws(IRegexp.SyntaxError) -> Int {
        let start = position
        var value = 0
        while let character = current, ("0"..."9").contains(character) {
            value = min(value * 10 + Int(character.value - 48), IRegexp.maximumRepetition + 1)
            position += 1
        }
        guard position > start else { throw failure("expected digits in the quantifier") }
        guard value <= IRegexp.maximumRepetition else {
            throw failure("a quantifier counts to at most \(IRegexp.maximumRepetition)", at: start)
        }
        return value
    }

    /// A `\` escape: `SingleCharEsc`, `catEsc` or `complEsc`.
    private mutating func escape() throws(IRegexp.SyntaxError) -> IRegexpCharacterClass {
        let start = position
        position += 1
        guard let escaped = current else { throw failure("a pattern cannot end with '\\'", at: start) }
        position += 1
        switch escaped {
        case "n": return IRegexpCharacterClass("\n")
        case "r": return IRegexpCharacterClass("\r")
        case "t": return IRegexpCharacterClass("\t")
        case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}":
            return IRegexpCharacterClass(escaped)
        case "p", "P":
            guard current == "{" else { throw failure("expected '{' after \\\(escaped)") }
            position += 1
            let nameStart = position
            while let character = current, character != "}" { position += 1 }
            guard current == "}" else { throw failure("unclosed \\\(escaped){", at: start) }
            var name = ""
            name.unicodeScalars.append(contentsOf: scalars[nameStart..<position])
            position += 1
            guard let mask = IRegexpCharacterClass.categories(named: name) else {
                throw failure("'\(name)' is not a Unicode general category I-Regexp knows", at: nameStart)
            }
            var set = IRegexpCharacterClass()
            if escaped == "p" { set.categories = mask } else { set.complementedCategories = [mask] }
            return set
        default:
            throw failure("\\\(escaped) is not an I-Regexp escape", at: start)
        }
    }

    /// `charClassExpr = "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"`
    private mutating func bracketExpression() throws(IRegexp.SyntaxError) -> IRegexpCharacterClass {
        let open = position
        position += 1
        var set = IRegexpCharacterClass()
        if current == "^" {
            set.negated = true
            position += 1
        }
        var first = true
        while true {
            guard let character = current else { throw failure("unclosed '['", at: open) }
            if character == "]" {
                guard !first else { throw failure("an empty bracket expression") }
                position += 1
                return set
            }
            if character == "-" {
                // A '-' is a literal only first or last.
                guard first || position + 1 < scalars.count && scalars[position + 1] == "]" else {
                    throw failure("a '-' in brackets must be first, last, or escaped")
                }
                set.ranges.append(0x2D...0x2D)
                position += 1
            } else {
                try classElement(into: &set)
            }
            first = false
        }
    }

    /// `CCE1 = ( CCchar [ "-" CCchar ] ) / charClassEsc`
    private mutating func classElement(into set: inout IRegexpCharacterClass) throws(IRegexp.SyntaxError) {
        let start = position
        if current == "\\", position + 1 < scalars.count, scalars[position + 1] == "p" || scalars[position + 1] == "P" {
            let escaped = try escape()
            set.categories |= escaped.categories
            set.complementedCategories += escaped.complementedCategories
            return
        }
        let lower = try classCharacter()
        guard current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" else {
            set.ranges.append(lower...lower)
            return
        }
        position += 1
        let upper = try classCharacter()
        guard lower <= upper else { throw failure("the range's end comes before its start", at: start) }
        set.ranges.append(lower...upper)
    }

    /// `CCchar`: any code point but `-`, `[`, `\` and `]`, or a `SingleCharEsc`.
    private mutating func classCharacter() throws(IRegexp.SyntaxError) -> UInt32 {
        guard let character = current else { throw failure("unclosed '['") }
        switch character {
        case "\\":
            let start = position
            guard let scalar = try escape().singleScalar else { throw failure("a category escape cannot end a range", at: start) }
            return scalar
        case "[", "]", "-":
            throw failure("unescaped '\(character)' in brackets; write \\\(character)")
        default:
            position += 1
            return character.value
        }
    }
}
