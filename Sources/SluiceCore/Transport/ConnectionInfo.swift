/// The connection an exchange is about to use, as the transport shows it to trust evaluation:
/// after the TCP connection and TLS handshake, before any byte of the request is written.
///
/// Valid only during the call it is passed to: `tlsSession` points into the live connection.
public struct ConnectionInfo {
    /// The host the request is for, as written in its URL.
    public var host: String
    /// The port the request is for.
    public var port: Int
    /// `http` or `https`.
    public var scheme: String
    /// The peer's address, for example `127.0.0.1`.
    public var remoteAddress: String
    /// The peer's port.
    public var remotePort: Int
    /// For `https` over the libcurl transport: OpenSSL's `SSL *` for the connection
    /// (libcurl's CURLINFO_TLS_SSL_PTR), from which the peer's certificate chain can be read.
    /// `nil` for plain HTTP and for transports without TLS.
    public var tlsSession: OpaquePointer?

    /// Creates connection details.
    public init(host: String, port: Int, scheme: String, remoteAddress: String, remotePort: Int, tlsSession: OpaquePointer? = nil) {
        self.host = host
        self.port = port
        self.scheme = scheme
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.tlsSession = tlsSession
    }
}
