import SluiceCore

/// A JSONPath query (RFC 9535) over a `JSONValue`, for pipeline expectations and captures.
///
/// The whole of RFC 9535: the root `$`; child segments `.name`, `.*` and `[...]`; descendant
/// segments `..name`, `..*` and `..[...]`; inside brackets, comma-separated name selectors (`'a'`
/// or `"a"`, with the RFC's escapes), index selectors (`0`, `-1`), the wildcard `*`, slices
/// (`1:3`, `::2`, `-2:`) and filter selectors (`?@.price < 10`, `?@.isbn && !@.used`,
/// `?match(@.code, '[A-Z]{2}')`), with the function extensions `length`, `count`, `value`,
/// `match` and `search` (I-Regexp, RFC 9485: ``IRegexp``); blank space wherever the grammar allows
/// it. A query that is not RFC 9535, or not well-typed (section 2.4.3), is a ``SyntaxError`` that
/// names its position. The RFC's compliance suite runs in the tests (`JSONPathComplianceTests`).
///
/// One deliberate strictness: a literal pattern of `match` or `search` that is not I-Regexp
/// (`'\d+'`) is refused when the query is read, where RFC 9535 would have the function return
/// false on every node, a check that silently passes or fails. A pattern taken from the document
/// (`match(@.a, $.pattern)`) follows the RFC: not I-Regexp, no match.
///
/// Names, strings and patterns are compared by code point, never by canonical equivalence, and
/// strings are ordered by code point, as RFC 9535 says.
///
/// ```swift
/// let query = try JSONPath("$.items[?@.status == 'failed' && length(@.tags) > 0].id")
/// try query.select(in: document)   // the nodes, in document order
/// ```
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One selector inside a segment.
    public enum Selector: Sendable {
        /// A member by name.
        case name(String)
        /// Every member or element.
        case wildcard
        /// An element by index; negative counts from the end.
        case index(Int)
        /// Elements from `start` up to `end` (exclusive) every `step`, as RFC 9535 section 2.3.4 says.
        case slice(start: Int?, end: Int?, step: Int?)
        /// The members or elements for which the expression holds.
        case filter(LogicalExpression)
    }

    /// One segment: selectors applied to the current nodes, or to them and all their descendants.
    public struct Segment: Sendable {
        /// The selectors, in order.
        public var selectors: [Selector]
        /// Whether the segment is a descendant segment (`..`).
        public var descendant: Bool
    }

    /// Why a text is not a JSONPath, and where.
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
    /// - Throws: `SyntaxError` for anything that is not a well-typed RFC 9535 query.
    public init(_ text: String) throws(SyntaxError) {
        self.text = text
        var parser = JSONPathParser(characters: Array(text.unicodeScalars))
        segments = try parser.query()
    }

    /// The query as written.
    public var description: String { text }

    /// Whether both queries are written with the same code points.
    public static func == (lhs: JSONPath, rhs: JSONPath) -> Bool {
        lhs.text.hasSameCodePoints(as: rhs.text)
    }

    /// Hashes the query's code points.
    public func hash(into hasher: inout Hasher) {
        hasher.combineCodePoints(of: text)
    }

    /// Whether the query selects at most one node (names and indexes only, no descendants).
    public var isSingular: Bool { JSONPath.isSingular(segments) }

    static func isSingular(_ segments: [Segment]) -> Bool {
        segments.allSatisfy { segment in
            guard !segment.descendant, segment.selectors.count == 1 else { return false }
            switch segment.selectors[0] {
            case .name, .index: return true
            default: return false
            }
        }
    }

    /// The nodes the query selects in `value`, in document order.
    /// - Parameters:
    ///   - value: the document to query.
    ///   - maximumNodes: the most nodes the query may visit in all; ``JSONPath/maximumNodes``
    ///     unless given. Every node a selector selects counts, along the way as at the end, and so
    ///     do every node a descendant segment walks through, every node a filter tests and every
    ///     node the queries inside a filter select, so the work of a query is bounded whatever its
    ///     shape (RFC 9535 keeps duplicates: `$..*..*` selects the square of a document's nodes).
    ///   - maximumRegexSteps: the most automaton steps the `match` and `search` functions may take
    ///     in all (one step is one live alternative at one code point); ``JSONPath/maximumRegexSteps``
    ///     unless given.
    /// - Throws: ``LimitExceeded`` past either limit.
    public func select(
        in value: JSONValue, maximumNodes: Int = JSONPath.maximumNodes, maximumRegexSteps: Int = JSONPath.maximumRegexSteps
    ) throws(LimitExceeded) -> [JSONValue] {
        var evaluation = JSONPathEvaluation(root: value, path: self, nodesLeft: maximumNodes, regexStepsLeft: maximumRegexSteps)
        return try evaluation.select(segments, from: value)
    }

    /// The most nodes a query visits by default: a million, some tens of milliseconds of work.
    /// Without a limit a descendant or filter query over a large response would take minutes and
    /// gigabytes (found by fuzzing).
    public static let maximumNodes = 1_000_000

    /// The most steps the regular expressions of a query take by default: ten million, some tens
    /// of milliseconds.
    public static let maximumRegexSteps = 10_000_000

    /// A query went past one of its limits (``JSONPath/maximumNodes``, ``JSONPath/maximumRegexSteps``).
    public struct LimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
        /// What a limit counts.
        public enum Unit: String, Sendable, Hashable {
            /// Nodes visited.
            case nodes
            /// Steps of the regular expressions of `match` and `search`.
            case regexSteps = "regular-expression steps"
        }

        /// The query, as written.
        public var path: String
        /// The limit it passed.
        public var limit: Int
        /// What the limit counts.
        public var unit: Unit

        /// Creates the error for a query and the limit it passed.
        public init(path: String, limit: Int = JSONPath.maximumNodes, unit: Unit = .nodes) {
            self.path = path
            self.limit = limit
            self.unit = unit
        }

        /// Says which query, which limit and what it counts.
        public var description: String {
            switch unit {
            case .nodes: "\(path) visits more than \(limit) nodes"
            case .regexSteps: "\(path) takes more than \(limit) regular-expression steps"
            }
        }
    }
}
