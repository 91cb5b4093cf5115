/// A request body, or the body a response is expected to have.
public struct HurlBody: Sendable, Hashable {
    /// The kinds of body.
    public enum Kind: Sendable, Hashable {
        /// A JSON value, which may embed `{{...}}` expressions.
        case json(HurlJSONValue)
        /// An XML document, kept exactly as written.
        case xml(String)
        /// A triple-backtick string.
        case multilineString(HurlMultilineString)
        /// A backtick string, written between two backticks on one line.
        case onelineString(HurlTemplate)
        /// `base64,...;`: the Base64 text between `base64,` and `;`, as written.
        case base64(String)
        /// `hex,...;`: the hexadecimal text between `hex,` and `;`, as written.
        case hex(String)
        /// `file,NAME;`: the content of a file.
        case file(HurlTemplate)
    }

    /// Where the body starts.
    public var position: HurlSourcePosition
    /// The body.
    public var kind: Kind
    /// A JSON body's text exactly as written, whitespace included, which Hurl sends as it is.
    public var source: String?

    /// Creates a body.
    public init(position: HurlSourcePosition, kind: Kind, source: String? = nil) {
        self.position = position
        self.kind = kind
        self.source = source
    }
}
