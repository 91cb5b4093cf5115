/// A regular expression argument: a quoted string or a `/regex/` literal.
public enum HurlPattern: Sendable, Hashable {
    /// A quoted string, whose escapes follow quoted-string rules (so `\\d` is written for `\d`).
    case quoted(HurlTemplate)
    /// A `/regex/` literal.
    case regex(HurlRegex)
}
