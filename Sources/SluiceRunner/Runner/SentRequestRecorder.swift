import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// The bottom stage of a runner's pipeline: it keeps the first request that reaches the
/// transport (every request-side stage applied) in the task's storage, and in a dry run stops it
/// there, so nothing is sent.
struct SentRequestRecorder: Stage {
    /// The storage key of the request as sent.
    enum Key: TaskStorageKey {
        typealias Value = Request
    }

    /// The error that ends a dry run's request at the bottom of the chain.
    struct Stop: Error {}

    /// Whether requests stop here instead of going to the transport.
    let stops: Bool

    var name: String { RunInfoStage.stageName }

    /// Below every other stage, the exchange observers included: what it keeps is what the
    /// transport is given.
    static var placement: StagePlacement { StagePlacement(.hop, rank: .max) }

    func handle(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        if context.storage[Key.self] == nil {
            context.storage[Key.self] = request
        }
        if stops { throw Stop() }
        return try await next(request, context)
    }
}
