/// A `key: value` line: a header, or a parameter of `[Query]`, `[Form]`, `[Cookies]` or `[BasicAuth]`.
///
/// A request header may also be written `Name;` (as with curl) to send it with an empty value.
public struct HurlKeyValue: Sendable, Hashable {
    /// How the key is separated from the value.
    public enum Separator: String, Sendable, Hashable, CaseIterable {
        /// `key: value`.
        case colon = ":"
        /// `Name;`: a header sent with an empty value.
        case semicolon = ";"
    }

    /// Where the key starts.
    public var position: HurlSourcePosition
    /// The key, a template.
    public var key: HurlTemplate
    /// The value, a template (may be empty). Trailing spaces and a trailing comment are not part of it.
    public var value: HurlTemplate
    /// How the key is separated from the value.
    public var separator: Separator

    /// Creates a key-value line.
    public init(position: HurlSourcePosition, key: HurlTemplate, value: HurlTemplate, separator: Separator = .colon) {
        self.position = position
        self.key = key
        self.value = value
        self.separator = separator
    }
}
