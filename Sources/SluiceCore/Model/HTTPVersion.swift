/// The HTTP version a response came over.
public enum HTTPVersion: String, Sendable, Hashable, CustomStringConvertible {
    /// HTTP/1.0.
    case http1_0 = "HTTP/1.0"
    /// HTTP/1.1.
    case http1_1 = "HTTP/1.1"
    /// HTTP/2.
    case http2 = "HTTP/2"
    /// HTTP/3.
    case http3 = "HTTP/3"
    /// Not known: the response did not come over the network.
    case unknown = "HTTP/?"

    /// The version as written on a status line, for example `HTTP/2`.
    public var description: String { rawValue }
}
