/// A stage that only changes responses on their way back.
///
/// Write `process`; the stage passes the request on as it is and hands the response it gets back
/// to `process`. The pipeline calls `process` itself, one-sided stages in a row from one frame (see
/// ``Pipeline``), so a `handle` written for a `ResponseStage` is not used: a stage that needs both
/// sides conforms to ``Stage``.
public protocol ResponseStage: Stage {
    /// Returns the response to hand back up the chain.
    /// - Parameters:
    ///   - response: the response from the stages below.
    ///   - request: the request as this stage sent it on.
    ///   - context: the task's context.
    func process(_ response: Response, for request: Request, context: TaskContext) async throws -> Response
}

extension ResponseStage {
    /// Runs the rest of the chain, then processes its response.
    public func handle(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        try await process(try await next(request, context), for: request, context: context)
    }
}
