import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// The bottom stage of a runner's pipeline: it keeps the request of the task's first hop as it
/// reaches the transport (every request-side stage applied) in the task's storage, and in a dry
/// run stops it there, so nothing is sent. A first hop answered by a cache above it never reaches
/// it; the redirects followed are the redirect stage's to tell (``Redirection/Followed``).
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
        try record(request, in: context)
        return try await next(request, context)
    }

    /// Keeps the request of the first hop, when it comes this far (a later hop's, after a first
    /// one the cache answered, is not the request the user wrote), and stops there when asked to.
    /// Out of line, so that the task's frame holds none of what it copies.
    @inline(never)
    private func record(_ request: Request, in context: TaskContext) throws {
        if context.storage[Key.self] == nil, context.storage[Redirection.Followed.self] == nil {
            context.storage[Key.self] = request
        }
        if stops { throw Stop() }
    }
}
