/// How one exchange went on the wire, as the transport measured it.
///
/// The phase fields follow libcurl's timeline (CURLINFO_*_TIME_T). `dnsLookup`, `connect` and
/// `tlsHandshake` are the lengths of those phases (zero on a reused connection); `timeToPreTransfer`,
/// `timeToFirstByte` and `total` are measured from the start of the exchange.
public struct TransferMetrics: Sendable, Hashable {
    /// Time spent resolving the host name.
    public var dnsLookup: Duration
    /// Time spent establishing the TCP connection.
    public var connect: Duration
    /// Time spent in the TLS handshake; zero for plain HTTP.
    public var tlsHandshake: Duration
    /// From the start until the request was about to be sent.
    public var timeToPreTransfer: Duration
    /// From the start until the first response byte arrived.
    public var timeToFirstByte: Duration
    /// From the start until the exchange ended.
    public var total: Duration
    /// Bytes sent: request line, headers and body.
    public var bytesSent: Int64
    /// Bytes received: status line, headers and body (the body as it came on the wire).
    public var bytesReceived: Int64
    /// Bytes of the response body received, as they came on the wire: before any content
    /// decoding, so a compressed body counts its compressed size (curl's `%{size_download}`).
    /// Part of ``bytesReceived``.
    public var bodyBytesReceived: Int64 = 0
    /// Whether the exchange ran on a connection kept alive from an earlier one.
    public var connectionReused: Bool
    /// The HTTP version used.
    public var httpVersion: HTTPVersion
    /// The address of the peer, for example `127.0.0.1`.
    public var remoteAddress: String?
    /// The port of the peer.
    public var remotePort: Int?
    /// The local port of the connection, which tells connections to the same peer apart.
    public var localPort: Int?
    /// The local address of the connection, for example `127.0.0.1`.
    public var localAddress: String?
    /// The status of a proxy's answer to the `CONNECT` that opened a tunnel for the exchange
    /// (`200`), `nil` when none was asked for.
    public var proxyTunnelStatus: Int?
    /// The TLS library's verdict on the server's certificate chain (OpenSSL's `X509_V_*` code: `0`
    /// verified, `18` self-signed, `10` expired), curl's `%{ssl_verify_result}`: `0` over plain
    /// HTTP, and meaningful over TLS whether or not verification was required.
    public var tlsVerifyResult = 0
    /// The certificates the server presented on the connection, its own first, when the request
    /// asked for them (`Request.recordsPeerCertificates`); empty otherwise and over plain HTTP.
    public var peerCertificates: [X509Certificate] = []
    /// When the request went on the wire: its connection was ready (new or reused) and the
    /// transport was about to send it (libcurl's pre-request callback); `nil` when it never got
    /// that far. Time before it went to waiting for a connection, DNS, connecting and the TLS
    /// handshake; libcurl 7.88 cannot tell the wait for a connection apart from the rest
    /// (`CURLINFO_QUEUE_TIME_T` is 8.6's), so this is where a server's time starts.
    public var requestSentAt: ContinuousClock.Instant?
    /// The reason phrase of the final response's status line as the server sent it (`Not Found`),
    /// `nil` when it sent none (HTTP/2 and HTTP/3 have none).
    public var reasonPhrase: String?
    /// The request head as the transport wrote it to the wire (libcurl's own fields, such as
    /// `Accept` and `Host`, included), when the request asked for it
    /// (``Request/recordsSentHead``); `nil` otherwise. Over HTTP/2 it is libcurl's HTTP/1-style
    /// rendering of the header frame.
    public var sentHead: String?

    /// libcurl's timeline cut into its phases after the handshakes: from the connection being ready
    /// (DNS, connect and TLS done, or a reused connection) until the request was about to be sent.
    public var preparing: Duration { max(.zero, timeToPreTransfer - dnsLookup - connect - tlsHandshake) }
    /// From the request about to be sent until the first response byte: the server's time.
    public var waiting: Duration { max(.zero, timeToFirstByte - timeToPreTransfer) }
    /// From the first response byte until the exchange ended.
    public var receiving: Duration { max(.zero, total - timeToFirstByte) }

    /// Creates metrics.
    public init(
        dnsLookup: Duration = .zero,
        connect: Duration = .zero,
        tlsHandshake: Duration = .zero,
        timeToPreTransfer: Duration = .zero,
        timeToFirstByte: Duration = .zero,
        total: Duration = .zero,
        bytesSent: Int64 = 0,
        bytesReceived: Int64 = 0,
        connectionReused: Bool = false,
        httpVersion: HTTPVersion = .unknown,
        remoteAddress: String? = nil,
        remotePort: Int? = nil,
        localPort: Int? = nil
    ) {
        self.dnsLookup = dnsLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.timeToPreTransfer = timeToPreTransfer
        self.timeToFirstByte = timeToFirstByte
        self.total = total
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.connectionReused = connectionReused
        self.httpVersion = httpVersion
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.localPort = localPort
    }
}
