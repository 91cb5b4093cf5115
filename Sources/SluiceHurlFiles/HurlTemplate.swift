/// Text that may embed `{{...}}` expressions, such as a URL, a header value or a quoted string.
public struct HurlTemplate: Sendable, Hashable {
    /// A piece of a template.
    public enum Part: Sendable, Hashable {
        /// Literal text.
        case literal(HurlTemplateLiteral)
        /// An embedded `{{...}}` expression.
        case expression(HurlTemplateExpression)
    }

    /// Where the template starts (for a quoted string, the opening quote).
    public var position: HurlSourcePosition
    /// The pieces, in order. Adjacent literal text is merged into one part.
    public var parts: [Part]

    /// Creates a template.
    public init(position: HurlSourcePosition, parts: [Part]) {
        self.position = position
        self.parts = parts
    }

    /// The decoded text when the template has no expression, otherwise `nil`.
    public var literalValue: String? {
        var text = ""
        for part in parts {
            guard case .literal(let literal) = part else { return nil }
            text += literal.value
        }
        return text
    }
}
