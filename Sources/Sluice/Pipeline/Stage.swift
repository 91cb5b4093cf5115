/// One step of a pipeline: it sees every request on its way out and every response on its way back.
///
/// Stages nest like an onion. `handle` gets the request, the task's context, and `next`, which runs
/// the rest of the chain (the stages below, then the transport). A stage may change the request
/// before calling `next`, call it zero times (answer from a cache, reject), once, or several times
/// (retry, redirects), and change or replace the response it gets back.
///
/// ```swift
/// struct Stamp: Stage {
///     func handle(_ request: Request, context: TaskContext,
///                 next: (Request, TaskContext) async throws -> Response) async throws -> Response {
///         var request = request
///         request.headers["X-Stamp"] = "1"
///         return try await next(request, context)
///     }
/// }
/// ```
///
/// Stages that touch only one side conform to ``RequestStage`` or ``ResponseStage`` instead and
/// write one method. A stage is shared by every task of its pipeline: keep per-task state in
/// ``TaskContext/storage``, never in the stage.
public protocol Stage: Sendable {
    /// The name the stage reports in metrics, events and errors. Defaults to the type's name.
    var name: String { get }

    /// Runs the stage for one request.
    /// - Parameters:
    ///   - request: the request as the stages above left it.
    ///   - context: the task's context.
    ///   - next: the rest of the chain; call it to send a request on and get its response.
    func handle(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response
}

extension Stage {
    /// The type's name, for example `HeaderInjection`.
    public var name: String { String(describing: type(of: self)) }
}
