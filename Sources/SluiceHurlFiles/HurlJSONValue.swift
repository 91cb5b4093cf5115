/// A JSON value written in a Hurl file, which may embed `{{...}}` expressions.
public struct HurlJSONValue: Sendable, Hashable {
    /// A `"key": value` member of a JSON object.
    public struct Member: Sendable, Hashable {
        /// Where the key's opening quote is.
        public var position: HurlSourcePosition
        /// The key.
        public var key: HurlTemplate
        /// The value.
        public var value: HurlJSONValue

        /// Creates a member.
        public init(position: HurlSourcePosition, key: HurlTemplate, value: HurlJSONValue) {
            self.position = position
            self.key = key
            self.value = value
        }
    }

    /// The kinds of JSON value.
    public enum Kind: Sendable, Hashable {
        /// `{ ... }`, members in the order written.
        case object([Member])
        /// `[ ... ]`.
        case array([HurlJSONValue])
        /// `"..."`, which may embed expressions.
        case string(HurlTemplate)
        /// A number; its text is kept as written.
        case number(String)
        /// `true` or `false`.
        case boolean(Bool)
        /// `null`.
        case null
        /// A bare `{{...}}` expression in place of a value.
        case expression(HurlTemplateExpression)
    }

    /// Where the value starts.
    public var position: HurlSourcePosition
    /// The value.
    public var kind: Kind

    /// Creates a JSON value.
    public init(position: HurlSourcePosition, kind: Kind) {
        self.position = position
        self.kind = kind
    }
}
