/// A section of a request, such as `[Query]` or `[Options]`.
public struct HurlRequestSection: Sendable, Hashable {
    /// What a request section holds.
    public enum Content: Sendable, Hashable {
        /// `[Query]` or `[QueryStringParams]`: query string parameters.
        case query([HurlKeyValue])
        /// `[Form]` or `[FormParams]`: URL-encoded form parameters.
        case form([HurlKeyValue])
        /// `[Multipart]` or `[MultipartFormData]`: multipart form fields and files.
        case multipart([HurlMultipartParameter])
        /// `[Cookies]`: cookies to send.
        case cookies([HurlKeyValue])
        /// `[BasicAuth]`: user and password pairs.
        case basicAuth([HurlKeyValue])
        /// `[Options]`: per-request options.
        case options([HurlOption])
    }

    /// Where the `[` of the section header is.
    public var position: HurlSourcePosition
    /// The section name as written between the brackets, such as `Query` or `QueryStringParams`.
    public var name: String
    /// The section's lines.
    public var content: Content

    /// Creates a request section.
    public init(position: HurlSourcePosition, name: String, content: Content) {
        self.position = position
        self.name = name
        self.content = content
    }
}
