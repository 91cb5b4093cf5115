/// The kind of value an option takes, which decides how its value is parsed.
public enum HurlOptionValueKind: Sendable, Hashable, CaseIterable {
    /// `true`, `false` or a `{{...}}` expression.
    case boolean
    /// An integer of at least `-1` (`-1` meaning no limit) or a `{{...}}` expression.
    case count
    /// An integer of at least `0` or a `{{...}}` expression.
    case natural
    /// An integer with an optional unit (`ms`, `s`, `m`) or a `{{...}}` expression.
    case duration
    /// A file name, up to the end of the line, in which spaces, `#` and `;` must be escaped.
    case filename
    /// A file name optionally followed by `:PASSWORD`.
    case filenameWithPassword
    /// `NAME=VALUE`.
    case variableDefinition
    /// Any text up to the end of the line (or a comment), which may embed expressions.
    case text
}
