/// A place in a Hurl file's text.
///
/// Both numbers are 1-based. `column` counts Unicode scalars (not bytes, not grapheme
/// clusters) from the start of the line. A UTF-8 byte order mark at the very start of the
/// file is not counted, and a carriage return that ends a line (CRLF) is not part of the line.
public struct HurlSourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a position from a 1-based line and a 1-based column counted in Unicode scalars.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`, as used in error messages.
    public var description: String { "\(line):\(column)" }

    /// Orders positions by line, then by column.
    public static func < (lhs: HurlSourcePosition, rhs: HurlSourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
