/// Literal text inside a template, both decoded and as written.
public struct HurlTemplateLiteral: Sendable, Hashable {
    /// Where the text starts.
    public var position: HurlSourcePosition
    /// The text with escape sequences resolved (`\n` becomes a line feed, `\u{41}` becomes `A`, ...).
    public var value: String
    /// The text exactly as written, escape sequences included.
    public var source: String

    /// Creates literal template text.
    public init(position: HurlSourcePosition, value: String, source: String) {
        self.position = position
        self.value = value
        self.source = source
    }
}
