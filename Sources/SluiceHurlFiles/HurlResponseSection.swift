/// A section of a response: `[Captures]` or `[Asserts]`.
public struct HurlResponseSection: Sendable, Hashable {
    /// What a response section holds.
    public enum Content: Sendable, Hashable {
        /// `[Captures]`: values to store in variables.
        case captures([HurlCapture])
        /// `[Asserts]`: checks on the response.
        case asserts([HurlAssert])
    }

    /// Where the `[` of the section header is.
    public var position: HurlSourcePosition
    /// The section name as written between the brackets.
    public var name: String
    /// The section's lines.
    public var content: Content

    /// Creates a response section.
    public init(position: HurlSourcePosition, name: String, content: Content) {
        self.position = position
        self.name = name
        self.content = content
    }
}
