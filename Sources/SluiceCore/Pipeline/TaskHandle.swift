/// A task in flight: its id, progress and context, and the controls to cancel, suspend and
/// resume it. `value` waits for the response.
public struct TaskHandle: Sendable {
    /// The task's context.
    public let context: TaskContext
    private let task: Task<Response, any Error>

    init(context: TaskContext, task: Task<Response, any Error>) {
        self.context = context
        self.task = task
    }

    /// The task's id.
    public var id: TaskID { context.id }

    /// The task's upload and download progress.
    public var progress: ProgressReporter { context.progress }

    /// The response, once the task ends; throws the task's `SluiceError` (`.cancelled` after
    /// `cancel()`). Waiting does not start or hurry the task, and cancelling the waiter does not
    /// cancel the task: call `cancel()` for that.
    public var value: Response {
        get async throws { try await task.value }
    }

    /// Cancels the task; the exchange under way ends at once.
    public func cancel() {
        context.cancel()
    }

    /// Pauses the task's transfer until `resume()`.
    public func suspend() {
        context.suspend()
    }

    /// Lets a suspended task go on.
    public func resume() {
        context.resume()
    }
}
