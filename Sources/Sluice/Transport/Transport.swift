/// Moves the bytes of one exchange: the innermost `next` of every pipeline.
///
/// A transport reports what happens during the exchange to `events`, keyed by the task's id (the
/// session manager routes each report to the task's context, as AFURLSessionManager routes each
/// callback to its task's delegate), and returns the response or throws a `SluiceError` whose
/// `stage` is `transport`. It must honour Swift task cancellation by ending the exchange at once
/// with a `.cancelled` error.
public protocol Transport: Sendable {
    /// Sends `request` and returns its response.
    /// - Parameters:
    ///   - request: an absolute `http` or `https` request, as the stages left it.
    ///   - task: the id of the task the exchange belongs to.
    ///   - events: where to report the exchange's progress, trust checks and end.
    func execute(_ request: Request, for task: TaskID, events: any TransportEvents) async throws -> Response

    /// The executor the session manager runs this transport's tasks on, or `nil` for the global
    /// concurrent executor. A transport with an I/O thread offers it, so that a task's stages and
    /// its exchange run on one thread, with no switch between them.
    var executor: (any TaskExecutor)? { get }
}

extension Transport {
    /// No executor of its own: tasks run on the global concurrent executor.
    public var executor: (any TaskExecutor)? { nil }
}
