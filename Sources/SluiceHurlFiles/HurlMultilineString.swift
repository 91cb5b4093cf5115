/// A triple-backtick string, written over several lines or on one line (three backticks, the
/// text, three backticks).
public struct HurlMultilineString: Sendable, Hashable {
    /// The language tag written after the opening backticks.
    public enum Language: String, Sendable, Hashable, CaseIterable {
        /// `base64`.
        case base64
        /// `hex`.
        case hex
        /// `json`.
        case json
        /// `xml`.
        case xml
        /// `graphql`: the content is the query; a trailing `variables {...}` block is read apart,
        /// into ``HurlMultilineString/graphqlVariables``.
        case graphql
        /// `raw`: the content is literal text, `{{` included.
        case raw
    }

    /// An attribute written after the language tag, separated by commas.
    public enum Attribute: String, Sendable, Hashable, CaseIterable {
        /// `escape`: backslash escape sequences in the content are resolved.
        case escape
        /// `novariable`: `{{` in the content is literal text, not an expression.
        case noVariable = "novariable"
    }

    /// Where the opening backticks are.
    public var position: HurlSourcePosition
    /// The language tag, if written.
    public var language: Language?
    /// The attributes, in the order written.
    public var attributes: [Attribute]
    /// Whether the string was written on a single line (three backticks, the text, three backticks).
    public var isOneline: Bool
    /// The content between the opening line and the closing backticks, including its final line feed;
    /// for `graphql`, the query, up to the line feed before its `variables` block.
    public var content: HurlTemplate
    /// A `graphql` string's `variables {...}` block: the JSON object after `variables`, on a line
    /// of its own after the query, which ends the string. `nil` when there is none.
    public var graphqlVariables: HurlJSONValue?

    /// Creates a triple-backtick string.
    public init(
        position: HurlSourcePosition,
        language: Language?,
        attributes: [Attribute],
        isOneline: Bool,
        content: HurlTemplate,
        graphqlVariables: HurlJSONValue? = nil
    ) {
        self.position = position
        self.language = language
        self.attributes = attributes
        self.isOneline = isOneline
        self.content = content
        self.graphqlVariables = graphqlVariables
    }
}
