/// The error thrown when a Hurl file's text does not follow Hurl's grammar.
///
/// `message` says in plain words what was expected and what was found, for example
/// "expected a predicate (==, contains, exists, ...) after the query, found `foo`".
public struct HurlSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the offending text.
    public var line: Int
    /// The 1-based column of the offending text, counted in Unicode scalars.
    public var column: Int
    /// What was expected and what was found.
    public var message: String

    /// Creates an error at a line and column with a message.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// Creates an error at a position with a message.
    public init(at position: HurlSourcePosition, message: String) {
        self.init(line: position.line, column: position.column, message: message)
    }

    /// The position of the offending text.
    public var position: HurlSourcePosition { HurlSourcePosition(line: line, column: column) }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}
