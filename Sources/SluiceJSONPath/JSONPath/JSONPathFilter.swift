import SluiceCore

extension JSONPath {
    /// The logical expression of a filter selector (`?...`, RFC 9535 section 2.3.5): it is tested
    /// once for each child of the nodes the selector applies to, with `@` standing for the child.
    public indirect enum LogicalExpression: Sendable {
        /// True when any is (`||`).
        case or([LogicalExpression])
        /// True when all are (`&&`).
        case and([LogicalExpression])
        /// True when the expression is false (`!`).
        case not(LogicalExpression)
        /// True when the query selects at least one node (an existence test, `@.isbn`).
        case exists(FilterQuery)
        /// A function with a logical result (`match`, `search`), or with a nodes result, true when
        /// it selects at least one node.
        case function(FunctionCall)
        /// A comparison (`@.price < 10`).
        case comparison(ComparisonOperand, ComparisonOperator, ComparisonOperand)
    }

    /// A comparison's operator.
    public enum ComparisonOperator: String, Sendable, CaseIterable {
        /// `==`
        case equal = "=="
        /// `!=`
        case notEqual = "!="
        /// `<`
        case less = "<"
        /// `<=`
        case lessOrEqual = "<="
        /// `>`
        case greater = ">"
        /// `>=`
        case greaterOrEqual = ">="
    }

    /// One side of a comparison: a value, or Nothing when a query selects no node.
    public enum ComparisonOperand: Sendable {
        /// A literal: a number, a string, `true`, `false` or `null`.
        case literal(JSONValue)
        /// A singular query: the value of the node it selects, or Nothing.
        case query(FilterQuery)
        /// A function with a value result (`length`, `count`, `value`).
        case function(FunctionCall)
    }

    /// A query inside a filter: relative to the current node (`@...`) or to the root (`$...`).
    public struct FilterQuery: Sendable {
        /// Whether the query starts at the current node `@` rather than at the root `$`.
        public var isRelative: Bool
        /// The segments after `@` or `$`.
        public var segments: [Segment]

        /// Whether the query selects at most one node (names and indexes only, no descendants).
        public var isSingular: Bool { JSONPath.isSingular(segments) }
    }
}
