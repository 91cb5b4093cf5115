import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// The bottom stage of a runner's pipeline: it keeps the request of the task's first hop as it
/// reaches the transport (every request-side stage applied) in the task's storage, and in a dry
/// run stops it there, so nothing is sent. A first hop answered by a cache above it never reaches
/// it; the redirects followed are the redirect stage's to tell (``Redirection/Followed``). For
/// `--verbose` it keeps every exchange on the wire too: each hop's request and response head.
struct SentRequestRecorder: Stage {
    /// The storage key of the request as sent.
    enum Key: TaskStorageKey {
        typealias Value = Request
    }

    /// The storage key of every exchange that reached the transport, in order: each redirect hop,
    /// a cache's revalidation as the server answered it.
    enum Exchanges: TaskStorageKey {
        typealias Value = [RequestResult.Exchange]
    }

    /// The error that ends a dry run's request at the bottom of the chain.
    struct Stop: Error {}

    /// Whether requests stop here instead of going to the transport.
    let stops: Bool
    /// Whether every exchange is kept (``Exchanges``), for `--verbose`.
    var recordsExchanges = false

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
        if recordsExchanges { return try await sendKeeping(request, context: context, next: next) }
        return try await next(request, context)
    }

    /// Sends the request and keeps the exchange: out of line, so that the frame of every task
    /// that does not keep them (all but `--verbose`'s) holds none of this.
    @inline(never)
    private func sendKeeping(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        do {
            let response = try await next(request, context)
            keep(request, response, in: context)
            return response
        } catch {
            keep(request, (error as? SluiceError)?.response, in: context)
            throw error
        }
    }

    /// Adds an exchange to the task's ``Exchanges``: the request and the response's head.
    private func keep(_ request: Request, _ response: Response?, in context: TaskContext) {
        let head = response.map { Response(status: $0.status, headers: $0.headers, url: $0.url, httpVersion: $0.httpVersion, metrics: $0.metrics) }
        context.storage.update(Exchanges.self) { $0 = ($0 ?? []) + [RequestResult.Exchange(request: request, response: head)] }
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
