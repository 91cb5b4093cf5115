import Foundation

/// A response as a cache stores it: its head (status, headers, when it was requested and
/// received, what its `Vary` selected on) and its body.
public struct CachedResponse: Sendable {
    /// Everything stored about a response but its body.
    public struct Head: Sendable, Hashable {
        /// The cache key: the request's URL without its fragment.
        public var key: String
        /// The status code.
        public var status: Int
        /// The header fields as stored: hop-by-hop fields and `Set-Cookie` left out.
        public var headers: HTTPHeaders
        /// The URL the response came from.
        public var url: String
        /// The HTTP version it came over.
        public var httpVersion: HTTPVersion
        /// When the request that brought it was sent (RFC 9111's `request_time`).
        public var requestTime: Date
        /// When it was received (`response_time`).
        public var responseTime: Date
        /// What the request's fields named by `Vary` and its `Authorization` held, and the trust
        /// policy it went out under, as a digest (SHA-256 of the normalized values);
        /// `nil` in an entry an earlier version stored without `Vary`, read as one stored without
        /// credentials under the default policy.
        public var vary: String?
        /// Names the stored body: a ``CacheStore/update(_:)`` after a `304` changes the head of
        /// this body only, not of one stored for the key since.
        public var bodyID: String

        /// Creates a head.
        public init(
            key: String, status: Int, headers: HTTPHeaders, url: String, httpVersion: HTTPVersion,
            requestTime: Date, responseTime: Date, vary: String?, bodyID: String = UUID().uuidString
        ) {
            self.key = key
            self.status = status
            self.headers = headers
            self.url = url
            self.httpVersion = httpVersion
            self.requestTime = requestTime
            self.responseTime = responseTime
            self.vary = vary
            self.bodyID = bodyID
        }

        /// The head with the fields of a `304 Not Modified` merged in (RFC 9111 section 3.2): each
        /// field the `304` sends replaces the stored fields of its name, except the connection
        /// fields, `Set-Cookie`, and those that describe the stored bytes (`Content-Length`,
        /// `Content-Encoding`, `Content-Type`, `Content-Range`) or chose them (`Vary`). A `304`
        /// without `Date` is dated `received`.
        public func merging(notModified fields: HTTPHeaders, received: Date = Date()) -> Head {
            var head = self
            head.headers = CacheRules.merged(headers, with: fields, received: received)
            return head
        }
    }

    /// The head.
    public var head: Head
    /// The body.
    public var body: CachedBody

    /// Creates a stored response.
    public init(head: Head, body: CachedBody) {
        self.head = head
        self.body = body
    }
}
