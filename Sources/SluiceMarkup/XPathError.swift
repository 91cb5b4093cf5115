/// Why an XPath query could not be answered, in words a report can show.
public struct XPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong: "the body is not well-formed XML", "`//a[` is not a valid XPath expression".
    public var message: String

    /// An error with this message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
