/// The HTTP version written at the start of a response line.
public enum HurlHTTPVersion: String, Sendable, Hashable, CaseIterable {
    /// `HTTP`: any version.
    case any = "HTTP"
    /// `HTTP/1.0`.
    case http1_0 = "HTTP/1.0"
    /// `HTTP/1.1`.
    case http1_1 = "HTTP/1.1"
    /// `HTTP/2`.
    case http2 = "HTTP/2"
    /// `HTTP/3`.
    case http3 = "HTTP/3"
}
