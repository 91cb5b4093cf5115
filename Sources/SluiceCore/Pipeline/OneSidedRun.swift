import Foundation

/// A run of one-sided stages (``RequestStage``, ``ResponseStage``) folded into one handler that
/// behaves as the stages nested one in another would: requests prepared top to bottom, `next`
/// called once, responses processed bottom to top (each response stage given the request as it
/// sent it on), each stage timed and reported entered and left in nesting order, and an error
/// stamped with the name of the stage it escaped (an error from `next`, with the innermost
/// stage's). Such a stage costs a call, not a nested async frame and a closure of its own; a
/// ``SynchronousRequestStage`` or ``SynchronousResponseStage`` a plain call, made from a function
/// with no async frame, and a run of nothing else no async frame beyond the handler's.
///
/// While `next` runs, the handler's frame is what every task in flight holds, so the requests
/// are prepared and the responses processed in frames of their own, gone by then: the handler
/// keeps the request as sent, the response and the times.
struct OneSidedRun: Sendable {
    /// A stage that touches one side of the exchange only.
    struct Stage: Sendable {
        enum Side: Sendable {
            case request(any RequestStage)
            case response(any ResponseStage)
            /// A request stage that never suspends, called without an async frame.
            case requestNow(any SynchronousRequestStage)
            /// A response stage that never suspends, called without an async frame.
            case responseNow(any SynchronousResponseStage)
        }

        /// The stage's place in the pipeline.
        let index: Int
        let name: String
        let side: Side

        /// `nil` for a stage with a `handle` of its own (one that conforms to both protocols
        /// included, since it must write `handle` itself).
        init?(_ stage: any SluiceCore.Stage, at index: Int) {
            // The protocols asked of the type, then the stage cast once: a cast of the value copies
            // a large stage into a box of its own, as often as a pipeline is built.
            let type = type(of: stage)
            switch (type is any RequestStage.Type, type is any ResponseStage.Type) {
            case (true, false):
                if let now = stage as? any SynchronousRequestStage { side = .requestNow(now) } else { side = .request(stage as! any RequestStage) }
            case (false, true):
                if let now = stage as? any SynchronousResponseStage { side = .responseNow(now) } else { side = .response(stage as! any ResponseStage) }
            default:
                return nil
            }
            self.index = index
            name = stage.name
        }

        var isResponse: Bool {
            switch side {
            case .response, .responseNow: true
            case .request, .requestNow: false
            }
        }

        var isSynchronous: Bool {
            switch side {
            case .requestNow, .responseNow: true
            case .request, .response: false
            }
        }
    }

    /// Where one task is in the run.
    private struct Progress {
        /// The time inside each stage.
        var spent: [Duration]
        /// How many stages were entered.
        var entered = 0
        /// The URL the last stage entered was given.
        var received: URL
        /// The request each response stage sent on, when ``keepsRequests``.
        var sentOn: [Request] = []
        /// What the task's context had counted under the handler above the run when it started.
        let saved: Duration
        /// When the run started.
        let started = ContinuousClock.now
    }

    private let stages: [Stage]
    private let next: Pipeline.Handler
    /// Whether a request stage follows a response stage, so that the two see different requests;
    /// never in a chain sorted by placement, where every response stage of a run sees the same one.
    private let keepsRequests: Bool

    init(_ stages: [Stage], next: @escaping Pipeline.Handler) {
        self.stages = stages
        self.next = next
        keepsRequests = (stages.firstIndex(where: \.isResponse) ?? stages.count) < (stages.lastIndex { !$0.isResponse } ?? -1)
    }

    /// The run as a handler: the request through the stages and `next`, and the response back;
    /// prepared and processed in plain calls when every stage is synchronous.
    var handler: Pipeline.Handler {
        stages.allSatisfy(\.isSynchronous) ? handleNow : handle
    }

    /// The handler of a run with a stage that may suspend.
    @Sendable
    nonisolated(nonsending) private func handle(_ request: Request, context: TaskContext) async throws -> Response {
        var progress = Progress(spent: [Duration](repeating: .zero, count: stages.count), received: request.url, saved: context.handlerStarted())
        defer { report(progress, to: context) }
        let sent = try await prepare(request, context: context, progress: &progress)
        let response: Response
        do {
            response = try await next(sent, context)
        } catch {
            throw Pipeline.stamped(error, stage: stages[stages.count - 1].name, url: progress.received)
        }
        return try await process(response, sent: sent, context: context, progress: &progress)
    }

    /// The handler of a run of synchronous stages only: its one async frame is its own. A function
    /// apart from `handle`: one that chose between the two paths held both paths' values in its
    /// frame (1,088 bytes, against 480 for this one).
    @Sendable
    nonisolated(nonsending) private func handleNow(_ request: Request, context: TaskContext) async throws -> Response {
        var progress = Progress(spent: [Duration](repeating: .zero, count: stages.count), received: request.url, saved: context.handlerStarted())
        defer { report(progress, to: context) }
        let sent = try prepareNow(request, context: context, progress: &progress)
        let response: Response
        do {
            response = try await next(sent, context)
        } catch {
            throw Pipeline.stamped(error, stage: stages[stages.count - 1].name, url: progress.received)
        }
        return try processNow(response, sent: sent, context: context, progress: &progress)
    }

    /// The request as the stages leave it, top to bottom, in a run with a stage that may suspend.
    /// Never inlined into `handle`, nor is `process`: their frames are gone while `next` runs.
    /// Each holds little more than the value it passes on, the bookkeeping and the synchronous
    /// stages' calls being made out of line.
    @inline(never)
    nonisolated(nonsending) private func prepare(_ request: Request, context: TaskContext, progress: inout Progress) async throws -> Request {
        var request = request
        for position in stages.indices {
            guard let preparing = try enter(position, with: &request, context: context, progress: &progress) else { continue }
            let start = ContinuousClock.now
            do {
                request = try await preparing.prepare(request, context: context)
            } catch {
                progress.spent[position] = ContinuousClock.now - start
                throw Pipeline.stamped(error, stage: stages[position].name, url: progress.received)
            }
            progress.spent[position] = ContinuousClock.now - start
        }
        return request
    }

    /// The request as the stages leave it, top to bottom, in a run of synchronous stages only.
    @inline(never)
    private func prepareNow(_ request: Request, context: TaskContext, progress: inout Progress) throws -> Request {
        var request = request
        for position in stages.indices {
            _ = try enter(position, with: &request, context: context, progress: &progress)
        }
        return request
    }

    /// Reports the stage at `position` entered with `request`. A synchronous request stage
    /// prepares `request` here, its time kept; a request stage that may suspend is returned, for
    /// the caller to await; a response stage keeps the request it will be given when
    /// ``keepsRequests``.
    @inline(never)
    private func enter(_ position: Int, with request: inout Request, context: TaskContext, progress: inout Progress) throws -> (any RequestStage)? {
        context.stageEntered(name: stages[position].name)
        progress.entered += 1
        progress.received = request.url
        switch stages[position].side {
        case .request(let preparing):
            return preparing
        case .requestNow(let preparing):
            let start = ContinuousClock.now
            defer { progress.spent[position] = ContinuousClock.now - start }
            do {
                request = try preparing.prepare(request, context: context)
            } catch {
                throw Pipeline.stamped(error, stage: stages[position].name, url: progress.received)
            }
        case .response, .responseNow:
            if keepsRequests { progress.sentOn.append(request) }
        }
        return nil
    }

    /// The response as the stages leave it, bottom to top, each given the request it sent on, in
    /// a run with a stage that may suspend.
    @inline(never)
    nonisolated(nonsending) private func process(_ response: Response, sent: Request, context: TaskContext, progress: inout Progress) async throws -> Response {
        var response = response
        var request = sent
        for position in stages.indices.reversed() {
            guard let processing = try leave(position, response: &response, request: &request, context: context, progress: &progress) else { continue }
            let start = ContinuousClock.now
            do {
                response = try await processing.process(response, for: request, context: context)
            } catch {
                progress.spent[position] += ContinuousClock.now - start
                throw Pipeline.stamped(error, stage: stages[position].name, url: request.url)
            }
            progress.spent[position] += ContinuousClock.now - start
        }
        return response
    }

    /// The response as the stages leave it, bottom to top, in a run of synchronous stages only.
    @inline(never)
    private func processNow(_ response: Response, sent: Request, context: TaskContext, progress: inout Progress) throws -> Response {
        var response = response
        var request = sent
        for position in stages.indices.reversed() {
            _ = try leave(position, response: &response, request: &request, context: context, progress: &progress)
        }
        return response
    }

    /// Leaves the stage at `position` on the way back, `request` then the one it sent on. A
    /// synchronous response stage processes `response` here, its time kept; a response stage
    /// that may suspend is returned, for the caller to await.
    @inline(never)
    private func leave(
        _ position: Int, response: inout Response, request: inout Request, context: TaskContext, progress: inout Progress
    ) throws -> (any ResponseStage)? {
        switch stages[position].side {
        case .request, .requestNow:
            return nil
        case .response(let processing):
            if keepsRequests { request = progress.sentOn.removeLast() }
            return processing
        case .responseNow(let processing):
            if keepsRequests { request = progress.sentOn.removeLast() }
            let start = ContinuousClock.now
            defer { progress.spent[position] += ContinuousClock.now - start }
            do {
                response = try processing.process(response, for: request, context: context)
            } catch {
                throw Pipeline.stamped(error, stage: stages[position].name, url: request.url)
            }
            return nil
        }
    }

    /// Records the times of the stages entered in the task's metrics.
    @inline(never)
    private func report(_ progress: Progress, to context: TaskContext) {
        context.stagesLeft(
            stages.prefix(progress.entered).lazy.map { ($0.index, $0.name) }, spent: progress.spent, started: progress.started, saved: progress.saved
        )
    }
}
