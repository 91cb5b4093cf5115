/// What trust evaluation decided about a connection.
public enum TrustDecision: Sendable, Equatable {
    /// The request may be written on this connection.
    case proceed
    /// The connection is refused before any request byte is sent; the task fails with a
    /// `.trustEvaluation` error carrying the reason.
    case reject(reason: String)
}

/// A task's trust policy, which the transport consults after every TLS handshake (and on every
/// reused connection) before it writes one byte of the request.
///
/// A stage installs one for its task with ``TaskContext/trustEvaluator``. It runs on the
/// transport's I/O thread: it must be quick and must not block.
public protocol TrustEvaluating: Sendable {
    /// Decides whether the request may go out on this connection.
    func evaluate(_ connection: ConnectionInfo) -> TrustDecision
}
