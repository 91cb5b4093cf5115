/// A stage that only changes requests on their way out.
///
/// Write `prepare`; the stage then passes the prepared request on and returns the response as it is.
/// The pipeline calls `prepare` itself, one-sided stages in a row from one frame (see
/// ``Pipeline``), so a `handle` written for a `RequestStage` is not used: a stage that needs both
/// sides conforms to ``Stage``.
public protocol RequestStage: Stage {
    /// Returns the request to send on.
    func prepare(_ request: Request, context: TaskContext) async throws -> Request
}

extension RequestStage {
    /// Prepares the request, then runs the rest of the chain with it.
    public func handle(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        try await next(try await prepare(request, context: context), context)
    }
}
