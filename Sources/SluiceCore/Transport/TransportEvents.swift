import Foundation

/// Pauses and resumes one exchange under way. A transport hands one to ``TransportEvents`` when an
/// exchange starts, so the task can be suspended mid-transfer.
public protocol TransferControl: AnyObject, Sendable {
    /// Stops moving bytes until `resume()`; timeouts keep running.
    func suspend()
    /// Moves bytes again.
    func resume()
}

/// What a transport reports while it moves one exchange, each report keyed by task id.
///
/// The session manager implements it: it finds the task's context by id and hands the report on.
/// A report for a task the manager no longer knows is dropped, and its trust check fails, so a
/// stray callback can never reach a finished task.
public protocol TransportEvents: Sendable {
    /// An exchange began; `control` pauses and resumes it until it finishes.
    func transferStarted(_ task: TaskID, url: URL, control: any TransferControl)
    /// The connection is ready (connected, TLS done, or reused) and no request byte is written
    /// yet: the task's trust policy decides whether the exchange may go on.
    func evaluateTrust(_ task: TaskID, connection: ConnectionInfo) -> TrustDecision
    /// The whole request, body included, was handed to the connection.
    func requestSent(_ task: TaskID)
    /// The status line of the final response arrived.
    func responseStarted(_ task: TaskID, status: Int)
    /// Bytes moved in either direction.
    func progressed(_ task: TaskID, _ progress: TaskProgress)
    /// The exchange ended, successfully or not; `control` is the one given at the start.
    func transferFinished(_ task: TaskID, control: any TransferControl, metrics: TransferMetrics?)
}
