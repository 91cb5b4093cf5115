/// The status written on a response line.
public struct HurlStatus: Sendable, Hashable {
    /// The kinds of status.
    public enum Kind: Sendable, Hashable {
        /// `*`: any status.
        case any
        /// A status code such as `200`.
        case code(Int)
    }

    /// Where the status is.
    public var position: HurlSourcePosition
    /// The status.
    public var kind: Kind

    /// Creates a status.
    public init(position: HurlSourcePosition, kind: Kind) {
        self.position = position
        self.kind = kind
    }
}
