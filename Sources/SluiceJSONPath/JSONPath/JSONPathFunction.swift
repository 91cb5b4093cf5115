import SluiceCore

extension JSONPath {
    /// The function extensions of RFC 9535 section 2.4, with their declared types, which the
    /// parser checks (section 2.4.3) so that an ill-typed query is refused when it is read.
    public enum Function: String, Sendable, CaseIterable {
        /// `length(value)`: the code points of a string, the elements of an array or the members
        /// of an object; Nothing for anything else.
        case length
        /// `count(nodes)`: the number of nodes.
        case count
        /// `match(string, regex)`: whether the whole string matches the I-Regexp.
        case match
        /// `search(string, regex)`: whether some part of the string matches the I-Regexp.
        case search
        /// `value(nodes)`: the value of the only node, or Nothing when there are none or several.
        case value

        /// The declared types of the parameters.
        public var parameters: [FunctionType] {
            switch self {
            case .length: [.value]
            case .count, .value: [.nodes]
            case .match, .search: [.value, .value]
            }
        }

        /// The declared type of the result.
        public var result: FunctionType {
            switch self {
            case .length, .count, .value: .value
            case .match, .search: .logical
            }
        }
    }

    /// The types of RFC 9535 section 2.4.1.
    public enum FunctionType: String, Sendable {
        /// A JSON value or Nothing (`ValueType`).
        case value = "ValueType"
        /// True or false (`LogicalType`).
        case logical = "LogicalType"
        /// A list of nodes (`NodesType`).
        case nodes = "NodesType"
    }

    /// A function with its arguments, checked against its declared types.
    public struct FunctionCall: Sendable {
        /// The function.
        public var function: Function
        /// The arguments, one for each parameter.
        public var arguments: [FunctionArgument]
        /// For `match` and `search` with a literal pattern: the pattern, compiled when the query
        /// is parsed.
        public var pattern: IRegexp?
    }

    /// An argument of a function.
    public indirect enum FunctionArgument: Sendable {
        /// A literal value.
        case literal(JSONValue)
        /// A query: its nodes for a `NodesType` parameter, its node's value (or Nothing) for a
        /// `ValueType` one when it is singular.
        case query(FilterQuery)
        /// A logical expression, for a `LogicalType` parameter.
        case logical(LogicalExpression)
        /// Another function's result.
        case function(FunctionCall)
    }
}
