import Foundation

/// An HTTP request as it flows through a pipeline's stages.
///
/// Stages receive a request, may return a changed copy, and pass it on; the transport sends what
/// reaches it. `url` may be relative until a URL-resolution stage resolves it: the transport
/// accepts only absolute `http` and `https` URLs.
public struct Request: Sendable {
    /// The method; `GET` by default.
    public var method: HTTPMethod
    /// The target URL.
    public var url: URL
    /// The header fields the request sets itself.
    public var headers: HTTPHeaders
    /// The body to send; none by default.
    public var body: RequestBody
    /// Where the response body goes: memory by default, or a file for downloads.
    public var destination: ResponseDestination
    /// Connect and total timeouts; a `nil` field takes the pipeline's value.
    public var timeouts: Timeouts

    /// Creates a request.
    public init(
        method: HTTPMethod = .get,
        url: URL,
        headers: HTTPHeaders = [:],
        body: RequestBody = .none,
        destination: ResponseDestination = .memory,
        timeouts: Timeouts = Timeouts()
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.destination = destination
        self.timeouts = timeouts
    }

    /// Creates a request from a URL string, or returns `nil` when the string is not a URL.
    public init?(
        method: HTTPMethod = .get,
        _ urlString: String,
        headers: HTTPHeaders = [:],
        body: RequestBody = .none
    ) {
        guard let url = URL(string: urlString) else { return nil }
        self.init(method: method, url: url, headers: headers, body: body)
    }
}
