/// The connection an exchange is about to use, as the transport shows it to trust evaluation:
/// after the TCP connection and TLS handshake, before any byte of the request is written.
///
/// Valid only during the call it is passed to: `peer` reads from the live connection.
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
    /// For `https`: the certificates the TLS handshake showed. `nil` for plain HTTP, and for a
    /// transport that cannot show them (a pinned request is then refused).
    public var peer: (any TLSPeer)?

    /// Creates connection details.
    public init(host: String, port: Int, scheme: String, remoteAddress: String, remotePort: Int, peer: (any TLSPeer)? = nil) {
        self.host = host
        self.port = port
        self.scheme = scheme
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.peer = peer
    }
}

/// The certificates a TLS connection shows, read only when trust evaluation asks for them: a
/// transport implements it over its TLS library.
public protocol TLSPeer {
    /// The certificates the server sent, its own first; empty when the connection shows none.
    func presentedCertificates() -> [X509Certificate]
    /// The chain the TLS library verified for the connection, leaf first and trust anchor last;
    /// `nil` when it verified none (validation off, or it failed).
    func verifiedChain() -> [X509Certificate]?
}
