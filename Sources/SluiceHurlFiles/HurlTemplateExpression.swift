/// A `{{...}}` expression: a variable or a function call, followed by filters.
public struct HurlTemplateExpression: Sendable, Hashable {
    /// What an expression starts with.
    public enum Source: Sendable, Hashable {
        /// A variable name such as `user_id` or `my-id`.
        case variable(name: String)
        /// A function call such as `newUuid` or `randomInt 10 99`, with its arguments.
        case function(HurlFunction, arguments: [HurlValue])
    }

    /// Where the opening `{{` is.
    public var position: HurlSourcePosition
    /// The variable or function.
    public var source: Source
    /// The filters applied to the value, in order.
    public var filters: [HurlFilter]

    /// Creates an expression.
    public init(position: HurlSourcePosition, source: Source, filters: [HurlFilter]) {
        self.position = position
        self.source = source
        self.filters = filters
    }
}
