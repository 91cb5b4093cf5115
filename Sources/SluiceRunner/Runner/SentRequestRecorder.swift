import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// The bottom stage of a runner's pipeline: it keeps the first request that reaches the
/// transport (every request-side stage applied) in the task's storage, and in a dry run stops it
/// there, so nothing is sent. It also notes each redirect the task followed, for the `redirects`
/// query.
struct SentRequestRecorder: Stage {
    /// The storage key of the request as sent.
    enum Key: TaskStorageKey {
        typealias Value = Request
    }

    /// The storage key of the redirects followed, in order.
    enum RedirectsKey: TaskStorageKey {
        typealias Value = [RedirectHop]
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
        let response = try await next(request, context)
        if (300..<400).contains(response.status) {
            SentRequestRecorder.note(response, of: request, in: context)
        }
        return response
    }

    /// Keeps the first request the chain sends, and stops there when asked to. Out of line, so
    /// that the task's frame holds none of what it copies.
    @inline(never)
    private func record(_ request: Request, in context: TaskContext) throws {
        if context.storage[Key.self] == nil {
            context.storage[Key.self] = request
        }
        if stops { throw Stop() }
    }

    /// Notes a redirect response: its status and where its `Location` leads. Whether the chain
    /// follows it is the redirect stage's to say: a hop not followed is the final response, and
    /// is dropped again when the task ends with it.
    @inline(never)
    private static func note(_ response: Response, of request: Request, in context: TaskContext) {
        guard let location = response.headers["Location"], let target = URL(string: location, relativeTo: request.url)?.absoluteURL else { return }
        var hops = context.storage[RedirectsKey.self] ?? []
        hops.append(RedirectHop(status: response.status, location: target.absoluteString))
        context.storage[RedirectsKey.self] = hops
    }
}
