/// A literal value: a predicate operand, a template function argument or a variable option's value.
public struct HurlValue: Sendable, Hashable {
    /// The kinds of value.
    public enum Kind: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case boolean(Bool)
        /// An integer; the digit text (with an optional leading `-`) is kept so big integers survive.
        case integer(String)
        /// A floating point number; its text is kept as written.
        case float(String)
        /// A quoted string `"..."`.
        case string(HurlTemplate)
        /// Unquoted text, as a `variable: name=value` option allows.
        case unquotedString(HurlTemplate)
        /// A backtick string, written between two backticks on one line.
        case onelineString(HurlTemplate)
        /// A triple-backtick string.
        case multilineString(HurlMultilineString)
        /// `base64,...;`: the Base64 text between `base64,` and `;`, as written.
        case base64(String)
        /// `hex,...;`: the hexadecimal text between `hex,` and `;`, as written.
        case hex(String)
        /// `file,NAME;`: the content of a file.
        case file(HurlTemplate)
        /// A bare template `{{...}}`.
        case expression(HurlTemplateExpression)
        /// A `/regex/` literal (operand of `matches`).
        case regex(HurlRegex)
    }

    /// Where the value starts.
    public var position: HurlSourcePosition
    /// The value.
    public var kind: Kind

    /// Creates a value.
    public init(position: HurlSourcePosition, kind: Kind) {
        self.position = position
        self.kind = kind
    }
}
