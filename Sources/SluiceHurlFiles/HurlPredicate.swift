/// The check of an assert: an optional `not` followed by a predicate function.
public struct HurlPredicate: Sendable, Hashable {
    /// Where the predicate starts (the `not` if written, otherwise the function).
    public var position: HurlSourcePosition
    /// Whether `not` was written.
    public var isNegated: Bool
    /// The predicate function and its operand.
    public var function: HurlPredicateFunction

    /// Creates a predicate.
    public init(position: HurlSourcePosition, isNegated: Bool, function: HurlPredicateFunction) {
        self.position = position
        self.isNegated = isNegated
        self.function = function
    }
}
