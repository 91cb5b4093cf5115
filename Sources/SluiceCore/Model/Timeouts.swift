/// How long a request may take to connect and to finish.
///
/// A `nil` field means "not set here": a request's unset fields take the pipeline's values, and a
/// pipeline's unset `total` means no limit. Timeouts keep running while a task is suspended.
public struct Timeouts: Sendable, Hashable {
    /// The longest the transport may take to resolve the host and establish the connection,
    /// TLS handshake included.
    public var connect: Duration?
    /// The longest the whole exchange may take, from the start of connecting to the last byte
    /// of the response.
    public var total: Duration?

    /// Creates timeouts; both fields are unset by default.
    public init(connect: Duration? = nil, total: Duration? = nil) {
        self.connect = connect
        self.total = total
    }

    /// The pipeline default: 10 seconds to connect, no limit on the total.
    public static let `default` = Timeouts(connect: .seconds(10), total: nil)

    /// These timeouts, with every unset field taken from `defaults`.
    public func filled(from defaults: Timeouts) -> Timeouts {
        Timeouts(connect: connect ?? defaults.connect, total: total ?? defaults.total)
    }
}
