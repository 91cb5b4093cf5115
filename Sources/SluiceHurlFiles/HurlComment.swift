/// A `#` comment, which runs to the end of its line.
public struct HurlComment: Sendable, Hashable {
    /// Where the `#` is.
    public var position: HurlSourcePosition
    /// The comment's text after the `#`, up to (not including) the end of the line.
    public var text: String

    /// Creates a comment.
    public init(position: HurlSourcePosition, text: String) {
        self.position = position
        self.text = text
    }
}
