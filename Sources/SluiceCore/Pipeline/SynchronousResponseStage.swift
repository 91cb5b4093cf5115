/// A ``ResponseStage`` whose `process` never suspends: it reads and writes the response and
/// nothing it waits for.
///
/// Write one synchronous `process`; it serves as the stage's ``ResponseStage`` `process` too. The
/// pipeline calls it as a plain function call, with no async frame of its own, as it calls a
/// ``SynchronousRequestStage``. A stage that awaits anything conforms to ``ResponseStage``
/// instead.
///
/// ```swift
/// struct RequireJSON: SynchronousResponseStage {
///     var name: String { "require-json" }
///     func process(_ response: Response, for request: Request, context: TaskContext) throws -> Response {
///         guard response.headers["Content-Type"]?.hasPrefix("application/json") == true else {
///             throw SluiceError(kind: .unacceptableContentType, message: "not JSON")
///         }
///         return response
///     }
/// }
/// ```
public protocol SynchronousResponseStage: ResponseStage {
    /// Returns the response to hand back up the chain.
    /// - Parameters:
    ///   - response: the response from the stages below.
    ///   - request: the request as this stage sent it on.
    ///   - context: the task's context.
    func process(_ response: Response, for request: Request, context: TaskContext) throws -> Response
}
