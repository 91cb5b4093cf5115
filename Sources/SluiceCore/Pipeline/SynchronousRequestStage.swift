/// A ``RequestStage`` whose `prepare` never suspends: it reads and writes the request and
/// nothing it waits for.
///
/// Write one synchronous `prepare`; it serves as the stage's ``RequestStage`` `prepare` too. The
/// pipeline calls it as a plain function call, with no async frame of its own, so a run of such
/// stages costs the task what a loop of calls costs. A stage that awaits anything (a token it
/// refreshes, a file it reads, a lock it waits for) conforms to ``RequestStage`` instead.
///
/// ```swift
/// struct Stamp: SynchronousRequestStage {
///     var name: String { "stamp" }
///     func prepare(_ request: Request, context: TaskContext) throws -> Request {
///         var request = request
///         request.headers["X-Stamp"] = "1"
///         return request
///     }
/// }
/// ```
public protocol SynchronousRequestStage: RequestStage {
    /// Returns the request to send on.
    func prepare(_ request: Request, context: TaskContext) throws -> Request
}
