/// The response an entry expects: version, status, headers, sections and an optional body.
///
/// Headers and the body are implicit asserts.
public struct HurlResponse: Sendable, Hashable {
    /// Where `HTTP` is.
    public var position: HurlSourcePosition
    /// The expected HTTP version.
    public var version: HurlHTTPVersion
    /// The expected status.
    public var status: HurlStatus
    /// The header lines (implicit asserts), in order.
    public var headers: [HurlKeyValue]
    /// The `[Captures]` and `[Asserts]` sections, in the order written.
    public var sections: [HurlResponseSection]
    /// The expected body (an implicit assert), if any.
    public var body: HurlBody?

    /// Creates a response.
    public init(
        position: HurlSourcePosition,
        version: HurlHTTPVersion,
        status: HurlStatus,
        headers: [HurlKeyValue],
        sections: [HurlResponseSection],
        body: HurlBody?
    ) {
        self.position = position
        self.version = version
        self.status = status
        self.headers = headers
        self.sections = sections
        self.body = body
    }
}
