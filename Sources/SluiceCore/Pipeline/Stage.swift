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
///
/// Where a stage runs is its type's ``placement-swift.type.property``: a call stage (the default)
/// sees each task's request once and its final response; a hop stage sees every exchange (each
/// redirect hop, each retry). The pipeline sorts stages by placement, whatever order they are
/// listed in. The placement belongs to the type, not to each stage, so a stage descriptor reads it
/// without making a stage, and every stage of a type runs at the same place
/// (`static var placement: StagePlacement { .hop }`; ``StagePlacement`` has an example).
///
/// A stage written for an earlier version of Sluice, which declared an instance
/// `var placement`, now declares it `static`: the pipeline no longer reads an instance property
/// left in its place, and runs the stage at ``StagePlacement/call``.
public protocol Stage: Sendable {
    /// The name the stage reports in metrics, events and errors. Defaults to the type's name.
    var name: String { get }

    /// The level and rank in the chain of every stage of this type; ``StagePlacement/call`` by
    /// default.
    static var placement: StagePlacement { get }

    /// What this stage alone may do in a pipeline (`the Authorization header`, `the cache`): two
    /// stages that claim the same thing cannot work together, since the lower one would undo or
    /// hide what the upper one did, and ``Pipeline`` refuses them, naming both. None by default.
    var claims: [String] { get }

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

    /// ``StagePlacement/call``: a custom stage sees each task's request once, fully built, and its
    /// final response.
    public static var placement: StagePlacement { .call }

    /// The placement of the stage's type, ``placement-swift.type.property``, read from a stage (an
    /// `any Stage` included).
    public var placement: StagePlacement { Self.placement }

    /// None.
    public var claims: [String] { [] }
}
