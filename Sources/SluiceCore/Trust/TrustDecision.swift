/// What trust evaluation decided about a connection.
public enum TrustDecision: Sendable, Equatable {
    /// The request may be written on this connection.
    case proceed
    /// The connection is refused before any request byte is sent; the task fails with a
    /// `.trustEvaluation` error carrying the reason.
    case reject(reason: String)
}
