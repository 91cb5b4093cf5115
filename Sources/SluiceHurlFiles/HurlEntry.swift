/// One entry of a Hurl file: a request, optionally followed by the response it expects.
public struct HurlEntry: Sendable, Hashable {
    /// Where the request's method is.
    public var position: HurlSourcePosition
    /// The request to send.
    public var request: HurlRequest
    /// The expected response (status, headers, captures, asserts, body), if written.
    public var response: HurlResponse?
    /// The comments on the lines between the entry before and this entry's method line, where
    /// Hurl reads its experimental directives (`# @cookie_storage_set: LINE`,
    /// `# @cookie_storage_clear`).
    public var leadingComments: [HurlComment]

    /// Creates an entry.
    public init(position: HurlSourcePosition, request: HurlRequest, response: HurlResponse?, leadingComments: [HurlComment] = []) {
        self.position = position
        self.request = request
        self.response = response
        self.leadingComments = leadingComments
    }
}
