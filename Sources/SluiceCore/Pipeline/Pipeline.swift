import Foundation

/// A chain of stages in front of a transport.
///
/// A request flows through the stages top to bottom, then the transport; the response flows back
/// bottom to top. The pipeline puts the stages in their places, whatever order they are given
/// in: by level (call stages above hop stages), then by rank, stages of the same placement in
/// the order given (see ``StagePlacement``). Redirects are followed by a ``Redirection`` stage,
/// the boundary between the levels, which the pipeline adds unless `redirects` is `nil` or the
/// stages already hold one. Two stages that claim the same thing (two caches, two redirect
/// stages; see ``Stage/claims``) are refused. The chain is
/// folded into nested handlers once, when the pipeline is built, so sending a request walks no
/// list; each run of one-sided stages (``RequestStage``, ``ResponseStage``) is one handler that
/// calls them in turn, as nesting them would, without a frame each. Each stage is timed as it runs (time inside the stage only, not the stages below it), and
/// an error escaping a stage is stamped with the stage's name.
///
/// ```swift
/// let pipeline = try Pipeline(transport: CurlTransport()) {
///     Stamp()
///     Logging()
/// }
/// let manager = SessionManager(pipeline: pipeline)
/// ```
public struct Pipeline: Sendable {
    /// A folded chain: runs the request through everything below and returns the response.
    ///
    /// Nonsending: a handler runs where its caller runs, so that going down the chain costs no
    /// executor check at every level (a task that prefers an executor pays a lock for each).
    typealias Handler = nonisolated(nonsending) @Sendable (Request, TaskContext) async throws -> Response

    /// The stages as they run, top (first to see a request) to bottom, sorted by placement, the
    /// added ``Redirection`` included.
    public let stages: [any Stage]
    /// The transport below the last stage.
    public let transport: any Transport
    /// Timeouts for requests that do not set their own.
    public let timeouts: Timeouts
    /// The response-body limit for requests that set none; `nil` for no limit beyond
    /// ``maxInMemoryResponseSize``.
    public let maxResponseSize: Int64?
    /// The limit for a body held in memory when neither the request nor ``maxResponseSize`` sets
    /// one: ``defaultMaxInMemoryResponseSize`` (64 MiB) unless given; `nil` for none. A body
    /// streamed to a file has no limit unless one is set, since it costs no memory.
    public let maxInMemoryResponseSize: Int64?

    /// 64 MiB: the default limit for a response body held in memory, so that a hostile or broken
    /// server cannot grow one without bound (a body streamed to a file has none by default).
    public static let defaultMaxInMemoryResponseSize: Int64 = 64 << 20
    /// The stages' names, in order.
    public let stageNames: [String]
    /// Whether a ``ResponseDecoding`` stage is in the chain; without one, a request's own
    /// ``Request/responseDecoding`` is applied to its final response.
    let decodesResponses: Bool
    /// Whether a ``Serialization`` stage writes parameters; without one, a request that chose its
    /// format is written before the chain runs.
    let serializes: Bool
    /// The chain folded once.
    let handler: Handler

    /// Creates a pipeline from a list of stages.
    /// - Parameters:
    ///   - stages: the stages, in any order: each is put in its place (its type's
    ///     ``Stage/placement-swift.type.property``), the stages of one placement kept in the order
    ///     given.
    ///   - transport: what moves the bytes (`SluiceCurl`'s initializers without this parameter use the
    ///     shared libcurl transport).
    ///   - timeouts: defaults for requests that set none; 10 s to connect, no total limit.
    ///   - redirects: the redirect stage added when `stages` holds none; `nil` follows no
    ///     redirects. Ten hops, no `https` to `http`, by default.
    ///   - maxResponseSize: the response-body limit for requests that set none; none by default.
    ///   - maxInMemoryResponseSize: the limit for bodies held in memory when neither the request
    ///     nor `maxResponseSize` sets one; 64 MiB by default, `nil` for none.
    /// - Throws: `.configuration` when two stages claim the same thing (naming both), or when a
    ///   ``ChainValidating`` stage cannot work in this chain.
    public init(
        stages: [any Stage] = [],
        transport: any Transport,
        timeouts: Timeouts = .default,
        redirects: Redirection? = Redirection(),
        maxResponseSize: Int64? = nil,
        maxInMemoryResponseSize: Int64? = Pipeline.defaultMaxInMemoryResponseSize
    ) throws(SluiceError) {
        let listed = Pipeline.addingRedirects(redirects, to: stages)
        if let conflict = Pipeline.conflicts(in: listed).first {
            throw SluiceError(kind: .configuration, stage: listed[conflict.second].name, message: Pipeline.message(for: conflict, in: listed))
        }
        let stages = Pipeline.arranged(listed)
        for case let stage as any ChainValidating in stages {
            try stage.validate(in: stages)
        }
        self.stages = stages
        self.transport = transport
        self.timeouts = timeouts.filled(from: .default)
        self.maxResponseSize = maxResponseSize
        self.maxInMemoryResponseSize = maxInMemoryResponseSize
        stageNames = stages.map(\.name)
        decodesResponses = stages.contains { $0 is ResponseDecoding }
        serializes = stages.contains { $0 is Serialization }
        handler = Pipeline.fold(stages, around: Pipeline.innermost(transport))
    }

    /// Creates a pipeline from a block of stages, which may throw (a stage whose configuration
    /// is invalid, such as ``URLResolution`` with a bad base URL).
    /// - Throws: what the block throws, and `.configuration` as the list form does.
    public init(
        transport: any Transport,
        timeouts: Timeouts = .default,
        redirects: Redirection? = Redirection(),
        maxResponseSize: Int64? = nil,
        maxInMemoryResponseSize: Int64? = Pipeline.defaultMaxInMemoryResponseSize,
        @StageBuilder _ stages: () throws -> [any Stage]
    ) throws {
        try self.init(
            stages: stages(), transport: transport, timeouts: timeouts, redirects: redirects, maxResponseSize: maxResponseSize,
            maxInMemoryResponseSize: maxInMemoryResponseSize
        )
    }

    /// The body limit for `request`: its own, else the pipeline's, else, for a body held in
    /// memory, ``maxInMemoryResponseSize``.
    func responseSizeLimit(for request: Request) -> Int64? {
        request.maxResponseSize ?? maxResponseSize ?? (request.destination == .memory ? maxInMemoryResponseSize : nil)
    }

    /// `request` as the chain takes it: written in the format it chose (``Request/parameterFormat``)
    /// with the default encodings, when no ``Serialization`` stage will write it; as it is
    /// otherwise. Written before any stage, so every stage sees the body as it is sent.
    /// - Throws: what ``Serialization/serialize(_:)`` throws.
    func prepared(_ request: Request) throws(SluiceError) -> Request {
        guard !serializes, request.parameterFormat != nil else { return request }
        return try Serialization().serialize(request)
    }

    /// The bottom of the chain: refuse a request that still carries what no stage wrote, wait while
    /// the task is suspended, then let the transport send. A body bound for a file is asked of the
    /// transport as a stream and written by the task's ``FileDownload``: a transport knows
    /// memory and streams only.
    private static func innermost(_ transport: any Transport) -> Handler {
        { request, context in
            let saved = context.handlerStarted()
            let started = ContinuousClock.now
            defer { context.handlerEnded(started: started, saved: saved) }
            let target = try sendable(request, over: transport)
            try await context.waitWhileSuspended()
            return try await target.execute(request, events: context.transportEvents)
        }
    }

    /// What sends `request`: `transport`, or a ``FileDownload`` writer over it for a body bound
    /// for a file; after refusing a request that is not resolved or carries what no stage wrote.
    /// Out of line, throwing untyped: the task's frame holds no room for a typed error.
    @inline(never)
    private static func sendable(_ request: Request, over transport: any Transport) throws -> any Transport {
        try request.checkResolved()
        try refuseUnwritten(request)
        return request.destination.isFile ? FileDownload.writing(over: transport) : transport
    }

    /// Refuses a request that reaches the transport still carrying parameters, multipart parts,
    /// path parameters, cookies of its own, or redirect rules of its own that follow redirects:
    /// the stages that apply them (``Serialization``, ``URLResolution``, ``CookieHandling``,
    /// ``Redirection``) consume them, so what is left was never applied, and sending without it
    /// would drop what the caller gave (a POST going out empty) in silence.
    /// - Throws: `.invalidRequest` naming the field and the stage that writes it.
    @inline(never)
    static func refuseUnwritten(_ request: Request) throws(SluiceError) {
        func refuse(_ what: String, _ remedy: String) -> SluiceError {
            SluiceError(
                kind: .invalidRequest, stage: "pipeline", url: request.url,
                message: "the request's \(what) would not be sent: no stage of the pipeline wrote them; \(remedy)"
            )
        }
        if request.parameters != nil {
            throw refuse("parameters", "add a Serialization stage, or choose the body's format for the request: Request(..., json:), (form:) or (multipart:)")
        }
        if !request.parts.isEmpty {
            throw refuse("multipart parts", "add Serialization(format: .multipart)")
        }
        if !request.pathParameters.isEmpty {
            let names = request.pathParameters.keys.sorted().joined(separator: ", ")
            throw refuse("path parameters (\(names))", "add a URLResolution stage, which fills {name} templates")
        }
        if request.ownCookies != nil {
            throw SluiceError(
                kind: .invalidRequest, stage: "pipeline", url: request.url,
                message: "the request's own cookies would not be sent: the pipeline has no CookieHandling stage; add one"
            )
        }
        if request.redirection?.follows == true {
            throw SluiceError(
                kind: .invalidRequest, stage: "pipeline", url: request.url,
                message: "the request's own redirect rules would not be followed: the pipeline has no Redirection stage; add one (Pipeline's redirects:)"
            )
        }
    }

    /// Wraps `innermost` in the stages, last stage innermost. A stage that sees both sides (its
    /// own `handle`) becomes a handler of its own, wrapped in its timing; each run of one-sided
    /// stages (``RequestStage``, ``ResponseStage``) becomes a single handler that calls their
    /// `prepare` and `process` in turn, so such a stage costs a call, not a nested async frame
    /// and a closure of its own.
    private static func fold(_ stages: [any Stage], around innermost: @escaping Handler) -> Handler {
        var handler = innermost
        var end = stages.count
        while end > 0 {
            var start = end
            var run: [OneSidedRun.Stage] = []
            while start > 0, let stage = OneSidedRun.Stage(stages[start - 1], at: start - 1) {
                run.insert(stage, at: 0)
                start -= 1
            }
            if run.isEmpty {
                handler = timed(stages[end - 1], at: end - 1, next: handler)
                end -= 1
            } else {
                handler = OneSidedRun(run, next: handler).handler
                end = start
            }
        }
        return handler
    }

    /// One stage as a handler that measures the time spent inside the stage itself: its whole
    /// time less that of the handlers below it, which report theirs to the task's context,
    /// however many times the stage calls `next`.
    private static func timed(_ stage: any Stage, at index: Int, next: @escaping Handler) -> Handler {
        let name = stage.name
        return { request, context in
            context.stageEntered(name: name)
            let saved = context.handlerStarted()
            let started = ContinuousClock.now
            defer { context.stageLeft(index, name: name, started: started, saved: saved) }
            do {
                return try await stage.handle(request, context: context, next: next)
            } catch {
                throw stamped(error, stage: name, url: request.url)
            }
        }
    }

    /// `error` as it escapes the stage `stage`, stamped with its name and `url`: out of line, so
    /// that the handlers' frames hold no error.
    @inline(never)
    static func stamped(_ error: any Error, stage: String, url: URL) -> any Error {
        SluiceError.wrapping(error, stage: stage, url: url)
    }
}
