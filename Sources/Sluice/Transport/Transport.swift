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
}
