/// A predicate function such as `==`, `contains` or `isInteger`, with its operand if it takes one.
public struct HurlPredicateFunction: Sendable, Hashable {
    /// The kinds of predicate function.
    public enum Kind: Sendable, Hashable {
        /// `== VALUE`.
        case equal(HurlValue)
        /// `!= VALUE`.
        case notEqual(HurlValue)
        /// `> VALUE`.
        case greaterThan(HurlValue)
        /// `>= VALUE`.
        case greaterThanOrEqual(HurlValue)
        /// `< VALUE`.
        case lessThan(HurlValue)
        /// `<= VALUE`.
        case lessThanOrEqual(HurlValue)
        /// `startsWith VALUE`.
        case startsWith(HurlValue)
        /// `endsWith VALUE`.
        case endsWith(HurlValue)
        /// `contains VALUE`.
        case contains(HurlValue)
        /// `includes VALUE` (older form of `contains` for collections).
        case includes(HurlValue)
        /// `matches "PATTERN"` or `matches /PATTERN/`.
        case matches(HurlValue)
        /// `exists`.
        case exists
        /// `isBoolean`.
        case isBoolean
        /// `isCollection`.
        case isCollection
        /// `isDate`.
        case isDate
        /// `isEmpty`.
        case isEmpty
        /// `isFloat`.
        case isFloat
        /// `isInteger`.
        case isInteger
        /// `isIpv4`.
        case isIpv4
        /// `isIpv6`.
        case isIpv6
        /// `isIsoDate`.
        case isIsoDate
        /// `isList`.
        case isList
        /// `isNumber`.
        case isNumber
        /// `isObject`.
        case isObject
        /// `isString`.
        case isString
        /// `isUuid`.
        case isUuid
    }

    /// Where the function's keyword or operator is.
    public var position: HurlSourcePosition
    /// The function.
    public var kind: Kind

    /// Creates a predicate function.
    public init(position: HurlSourcePosition, kind: Kind) {
        self.position = position
        self.kind = kind
    }
}
