import Foundation

/// One moment in a task's life, as event monitors receive it.
///
/// An event holds values only, never the task's context, so a monitor that keeps events keeps no
/// task alive.
public struct TaskEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The task was created and registered with its manager.
        case created
        /// A stage began handling the request.
        case stageEntered(String)
        /// A stage handed its response or error back up; the duration is the time spent inside it.
        case stageLeft(String, Duration)
        /// The transport began an exchange for this URL (once per call of the innermost `next`).
        case transferStarted(URL)
        /// The whole request, body included, was handed to the connection.
        case requestSent
        /// The first byte of the final response arrived; its status code.
        case firstByte(status: Int)
        /// The transport ended an exchange, with its metrics when it measured them.
        case transferFinished(TransferMetrics?)
        /// A stage reported something about the task (a retry, a token refresh).
        case note(StageNote)
        /// The task ended with a response.
        case completed(status: Int)
        /// The task ended with an error.
        case failed(SluiceError)
        /// The task was cancelled.
        case cancelled
    }

    /// The task's id.
    public let taskID: TaskID
    /// The request the task was created with.
    public let request: Request
    /// What happened.
    public let kind: Kind
    /// When it happened.
    public let time: ContinuousClock.Instant

    /// Creates an event.
    public init(taskID: TaskID, request: Request, kind: Kind, time: ContinuousClock.Instant = .now) {
        self.taskID = taskID
        self.request = request
        self.kind = kind
        self.time = time
    }
}
