import SluiceCore

/// A regular expression in I-Regexp (RFC 9485), the interoperable flavour JSONPath's `match` and
/// `search` functions use, matched over Unicode code points.
///
/// The language: literal characters, `.` (any code point but line feed and carriage return),
/// escapes `\n`, `\r`, `\t` and `\` before one of `( ) * + - . ? [ \ ] ^ { | }`, the Unicode
/// general categories `\p{L}`, `\p{Lu}`, … and their complements `\P{…}`, bracket expressions
/// (`[a-z]`, `[^\p{N}-]`), groups, alternation and the quantifiers `*`, `+`, `?`, `{n}`, `{n,}`
/// and `{n,m}`. Anything else (`\d`, `\w`, back-references, lookaround, lazy quantifiers) is a
/// ``SyntaxError`` that names its position. `^` and `$` outside brackets assert the start and the
/// end of the text, as RFC 9485 section 5.3's mapping to ECMAScript gives them (the JSONPath
/// compliance suite tests it so).
///
/// Matching runs every alternative in step over the text (a Thompson automaton, as RE2 does), so
/// it takes time proportional to the text's length times the pattern's size, never exponential
/// time: a hostile document cannot stall a check with `(a|a)*b`. A pattern compiles to at most
/// ``maximumProgramSize`` instructions and a quantifier counts to at most ``maximumRepetition``.
///
/// ```swift
/// let regex = try IRegexp("[A-Z]{2}-\\p{Nd}+")
/// regex.matches("AB-42")              // true: the whole text
/// regex.isFound(in: "order AB-42 sent") // true: anywhere in it
/// ```
public struct IRegexp: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    let program: IRegexpProgram

    /// The most instructions a pattern compiles to; a larger one is a ``SyntaxError``.
    public static let maximumProgramSize = 10_000
    /// The highest count a `{n,m}` quantifier may give, RE2's limit.
    public static let maximumRepetition = 1_000

    /// Why a pattern is not I-Regexp, and where.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// The offset in the pattern, in Unicode code points from 0.
        public var offset: Int

        /// `MESSAGE (at character N)`.
        public var description: String { "\(message) (at character \(offset + 1))" }
    }

    /// Parses and compiles a pattern.
    /// - Throws: ``SyntaxError`` for anything RFC 9485 does not allow, and for a pattern past the
    ///   size limits.
    public init(_ pattern: String) throws(SyntaxError) {
        self.pattern = pattern
        var parser = IRegexpParser(scalars: Array(pattern.unicodeScalars))
        let tree = try parser.pattern()
        guard let program = IRegexpProgram(compiling: tree, limit: IRegexp.maximumProgramSize) else {
            throw SyntaxError(message: "the pattern compiles to more than \(IRegexp.maximumProgramSize) instructions", offset: 0)
        }
        self.program = program
    }

    /// Whether the whole of `text` matches (JSONPath's `match`).
    public func matches(_ text: String) -> Bool {
        var steps = Int.max
        return program.run(on: text, anchored: true, steps: &steps) == true
    }

    /// Whether some part of `text` matches (JSONPath's `search`).
    public func isFound(in text: String) -> Bool {
        var steps = Int.max
        return program.run(on: text, anchored: false, steps: &steps) == true
    }

    /// Runs the pattern over `text` within a budget of automaton steps (one step is one live
    /// alternative at one code point), for callers that bound the work of many matches together.
    /// - Parameters:
    ///   - text: the text.
    ///   - entire: whether the whole text must match (`match`) or any part of it (`search`).
    ///   - steps: the steps left; lowered by the steps taken.
    /// - Returns: whether it matches, or `nil` when the budget ran out first.
    public func matches(_ text: String, entire: Bool, steps: inout Int) -> Bool? {
        program.run(on: text, anchored: entire, steps: &steps)
    }

    /// The pattern as written.
    public var description: String { pattern }

    /// Whether both patterns have the same code points.
    public static func == (lhs: IRegexp, rhs: IRegexp) -> Bool {
        lhs.pattern.hasSameCodePoints(as: rhs.pattern)
    }

    /// Hashes the pattern's code points.
    public func hash(into hasher: inout Hasher) {
        hasher.combineCodePoints(of: pattern)
    }
}
