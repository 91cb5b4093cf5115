/// A `/regex/` literal.
public struct HurlRegex: Sendable, Hashable {
    /// Where the opening `/` is.
    public var position: HurlSourcePosition
    /// The text between the slashes, exactly as written.
    public var source: String
    /// The regular expression: `source` with each `\/` turned into `/`; other escapes are kept as written.
    public var pattern: String

    /// Creates a regex literal.
    public init(position: HurlSourcePosition, source: String, pattern: String) {
        self.position = position
        self.source = source
        self.pattern = pattern
    }
}
