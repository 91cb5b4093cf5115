/// A request: method, URL, headers, sections and an optional body.
public struct HurlRequest: Sendable, Hashable {
    /// Where the method is.
    public var position: HurlSourcePosition
    /// The method, any run of uppercase ASCII letters (`GET`, `POST`, `PURGE`, ...).
    public var method: String
    /// The URL, a template that may contain `{{...}}` expressions.
    public var url: HurlTemplate
    /// The header lines, in order.
    public var headers: [HurlKeyValue]
    /// The sections (`[Query]`, `[Form]`, `[Options]`, ...), in the order written.
    public var sections: [HurlRequestSection]
    /// The body, if any.
    public var body: HurlBody?

    /// Creates a request.
    public init(
        position: HurlSourcePosition,
        method: String,
        url: HurlTemplate,
        headers: [HurlKeyValue],
        sections: [HurlRequestSection],
        body: HurlBody?
    ) {
        self.position = position
        self.method = method
        self.url = url
        self.headers = headers
        self.sections = sections
        self.body = body
    }
}
