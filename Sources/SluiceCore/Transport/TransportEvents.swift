import Foundation

/// Pauses and resumes one exchange under way. A transport hands one to ``TransportEvents`` when an
/// exchange starts, so the task can be suspended mid-transfer.
public protocol TransferControl: AnyObject, Sendable {
    /// Stops moving bytes until `resume()`; timeouts keep running.
    func suspend()
    /// Moves bytes again.
    func resume()
}

/// What a transport reports while it moves one task's exchange: the task's own listener, handed
/// to ``Transport/execute(_:events:)`` with the request, as OkHttp hands each call its own
/// `EventListener`.
///
/// The session manager gives every task its own; each report goes straight to the task, with no
/// lookup. Reports may come from any thread (a transport's I/O thread, typically) and must be
/// cheap to make: a method returns at once.
public protocol TransportEvents: Sendable {
    /// The executor the task runs on, chosen by its session manager from the transport's own
    /// (``Transport/executors``) when the task started: a transport with several I/O threads serves
    /// the exchange on that one, without looking for it again. `nil` (the default) for a task on
    /// no executor of the transport's.
    var executor: (any TaskExecutor)? { get }
    /// An exchange began; `control` pauses and resumes it until it finishes.
    func transferStarted(url: URL, control: any TransferControl)
    /// The connection is ready (connected, TLS done, or reused) and no request byte is written
    /// yet: the request's trust policy (``Request/trustPolicy``) decides whether the exchange may
    /// go on, from the certificates the connection shows. A transport calls it for every
    /// exchange, on new and reused connections alike, and refuses the exchange on `.reject`.
    func evaluateTrust(_ connection: ConnectionInfo, for request: Request) -> TrustDecision
    /// The whole request, body included, was handed to the connection.
    func requestSent()
    /// The status line of the final response arrived.
    func responseStarted(status: Int)
    /// Bytes moved in either direction.
    func progressed(_ progress: TaskProgress)
    /// The exchange ended, successfully or not; `control` is the one given at the start.
    func transferFinished(control: any TransferControl, metrics: TransferMetrics?)
}

extension TransportEvents {
    /// None: the transport serves the exchange where it would for any caller.
    public var executor: (any TaskExecutor)? { nil }
}
