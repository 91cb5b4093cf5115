import Foundation
import Logging

/// Runs requests through a pipeline as tasks, and keeps every task's context while it runs.
///
/// Like AFURLSessionManager, it maps each task to its own context: it hands out a fresh ``TaskID``,
/// keeps `[TaskID: TaskContext]` under a lock, and routes every report of the transport (bytes,
/// progress, trust checks, completion) to the task's context by id. A task's entry is removed when
/// the task ends, however it ends.
///
/// ```swift
/// import Sluice
///
/// let manager = SessionManager(pipeline: try Pipeline())
/// let response = try await manager.send(Request(url: url))   // such as URL(string: "https://example.com/")!
/// ```
public final class SessionManager: Sendable {
    /// The pipeline every task runs through.
    public let pipeline: Pipeline
    private let monitors: [any EventMonitor]
    private let logger: Logger
    private let registry = TaskRegistry()

    /// Creates a manager.
    /// - Parameters:
    ///   - pipeline: the stages and transport every task goes through.
    ///   - monitors: observers of every task's events.
    ///   - logger: the logger tasks log to (at debug level and below only), with a `task-id`
    ///     metadata key.
    public init(pipeline: Pipeline, monitors: [any EventMonitor] = [], logger: Logger = Logger(label: "sluice")) {
        self.pipeline = pipeline
        self.monitors = monitors
        self.logger = logger
    }

    // MARK: Tasks

    /// Starts a task for `request` and returns its handle at once.
    ///
    /// The request's body and destination say what kind of task it is: `.data`/`.file` bodies
    /// upload, a `.file` destination downloads to disk. Once the manager is invalidated the task
    /// fails at once with `.invalidated`.
    /// - Parameters:
    ///   - request: the request.
    ///   - startsImmediately: start the task as ``send(_:)`` does: on the calling thread, up to its
    ///     first suspension, when the caller runs on one of the transport's executors (so the
    ///     stages before the exchange cost no thread switch, and a clock read before the call
    ///     covers them); otherwise on the transport's executor. Cancelling the caller does not
    ///     cancel the task: cancel its handle.
    public func task(_ request: Request, startsImmediately: Bool = false) -> TaskHandle {
        start(request, immediately: startsImmediately)
    }

    /// Sends `request` and returns its response: a data task, awaited.
    ///
    /// Called from a task that runs on one of the transport's executors (``Transport/executors``,
    /// the libcurl I/O threads), the whole task stays on that thread and costs no thread switch at
    /// all. Called from anywhere else, the task prefers the transport's ``Transport/executor``: its
    /// chain and its exchange run on that I/O thread and only the caller's resumption switches
    /// back, two switches a request. Keep long computation out of the chain's stages (see the
    /// libcurl transport's article). Cancelling the calling Swift task cancels the request.
    public func send(_ request: Request) async throws -> Response {
        let handle = start(request, immediately: true)
        return try await withTaskCancellationHandler {
            try await handle.value
        } onCancel: {
            handle.cancel()
        }
    }

    /// Creates the task's context, registers it, and starts the Swift task that runs the chain.
    /// The task prefers the transport's executor the caller runs on, and then starts on the
    /// calling thread when `immediately`; else it prefers the transport's first
    /// (``Transport/executor``) and starts there. With a transport without executors, it starts
    /// on the calling thread when `immediately`, on the global executor otherwise.
    private func start(_ request: Request, immediately: Bool) -> TaskHandle {
        var request = request
        request.timeouts = request.timeouts.filled(from: pipeline.timeouts)
        request.maxResponseSize = pipeline.responseSizeLimit(for: request)
        // A caller on none of the transport's executors would only run the first stages before
        // the task went to the I/O thread: the task goes there at once, and stays. The choice
        // travels with the task to the transport, which does not look for it again.
        let callersExecutor = pipeline.transport.callersExecutor
        let executor = callersExecutor ?? pipeline.transport.executor
        let context = TaskContext(
            id: .next(),
            request: request,
            stageNames: pipeline.stageNames,
            logger: logger,
            monitors: monitors,
            transport: pipeline.transport,
            executor: executor
        )
        let accepted = registry.insert(context)
        let operation = { @Sendable [weak self, pipeline, registry] () async throws -> Response in
            guard accepted else { throw SessionManager.refuse(context) }
            defer { SessionManager.end(context, in: registry) }
            let response = try await SessionManager.run(context, through: pipeline)
            self?.sendAfterResponse(of: context)
            return response
        }
        let task = immediately && (callersExecutor != nil || executor == nil)
            ? Task.immediate(executorPreference: executor, operation: operation)
            : Task(executorPreference: executor, operation: operation)
        context.attach(task)
        return TaskHandle(context: context, task: task)
    }

    // The task's work outside its async frames: what is done here lives on the thread's stack, not
    // in the task's frames, which every task in flight holds and every task allocates again.

    /// The error of a task started after the manager was invalidated, the task ended.
    @inline(never)
    private static func refuse(_ context: TaskContext) -> SluiceError {
        context.finish()
        return SluiceError(kind: .invalidated, url: context.request.url, message: "the session manager was invalidated")
    }

    /// Ends a task: its context finished and out of the table.
    @inline(never)
    private static func end(_ context: TaskContext, in registry: TaskRegistry) {
        context.finish()
        registry.remove(context.id)
    }

    /// Starts what a stage asked to send once this task had its response (a background revalidation).
    @inline(never)
    private func sendAfterResponse(of context: TaskContext) {
        for later in context.takeAfterResponse() { _ = task(later) }
    }

    /// Uploads `data` as the body of `request` and returns the response.
    public func upload(_ request: Request, from data: Data) async throws -> Response {
        var request = request
        request.body = .data(data)
        return try await send(request)
    }

    /// Uploads the file at `file` as the body of `request`, streamed from disk, and returns the response.
    public func upload(_ request: Request, fromFile file: URL) async throws -> Response {
        var request = request
        request.body = .file(file)
        return try await send(request)
    }

    /// Downloads the response body of `request` to `destination`, streamed to disk so memory stays
    /// flat, and returns the response, whose `bodyFile` is `destination`.
    ///
    /// The body is written through to what `destination` names, as curl's `-o` writes, and
    /// nothing there is replaced (see ``OutputFile``): a symbolic link is followed; a device, a
    /// FIFO or a terminal (`/dev/null`, a named pipe) is written as the final body arrives; an
    /// existing regular file keeps its inode, so its hard links, mode and owner stay, and changes
    /// only when the task succeeds (a failed or cancelled download leaves it as it was); a new
    /// file appears only when the task succeeds. Redirect and retry hops never reach the file:
    /// only the final response's body does. A directory, a socket or a path the system refuses
    /// fails the task with `.fileIO` before anything is sent.
    ///
    /// With `resumable`, a download that fails or is cancelled once its body began keeps what it
    /// got beside the destination, named in the error's ``SluiceError/resumeData`` for
    /// ``download(resumingFrom:request:)`` (``Request/keepsPartialDownload``); without, it leaves
    /// nothing behind.
    public func download(_ request: Request, to destination: URL, resumable: Bool = false) async throws -> Response {
        var request = request
        request.destination = .file(destination)
        if resumable { request.keepsPartialDownload = true }
        return try await send(request)
    }

    /// Goes on with a download that failed or was cancelled (``SluiceError/resumeData``), as
    /// AFNetworking's `downloadTaskWithResumeData:` and curl's `-C -` do: asks for the bytes
    /// after those kept, with `If-Range` so that a changed resource comes whole.
    ///
    /// - A `206` that starts where the kept bytes end is appended to them, and the whole file put
    ///   in place at the destination.
    /// - A `200` (the server ignored the range, or the resource changed) is written from the start.
    /// - A `416` whose `Content-Range` says the resource is as long as the bytes kept means they
    ///   are the whole body: they are put in place, and the `416` returned with its `bodyFile`.
    ///   Any other `416` (the resource is shorter now) starts the download over.
    /// - Any other status is returned with its body in memory, the kept bytes and the destination
    ///   untouched: `resumeData` still holds.
    ///
    /// A failure throws as a download's does, with new resume data counting the bytes gained.
    /// - Parameters:
    ///   - resumeData: where the download stopped.
    ///   - template: a request whose headers, trust policy, proxy and timeouts the resumed one
    ///     keeps (``DownloadResumeData/request(from:)``); a plain `GET` when `nil`.
    public func download(resumingFrom resumeData: DownloadResumeData, request template: Request? = nil) async throws -> Response {
        let response = try await send(template.map(resumeData.request(from:)) ?? resumeData.request)
        // A 416 that does not say the kept bytes are the whole body: the resource is shorter now.
        guard response.status == 416, response.bodyFile == nil else { return response }
        if resumeData.partialFile.standardizedFileURL != resumeData.destination.standardizedFileURL {
            try? FileManager.default.removeItem(at: resumeData.partialFile)
        }
        var fresh = template ?? Request(url: resumeData.url)
        fresh.url = resumeData.url
        return try await download(fresh, to: resumeData.destination)
    }

    /// Sends `request` and returns its response as soon as the head has arrived, the body to be
    /// read from `Response.bodyStream` as it arrives (see ``ResponseBodyStream``).
    ///
    /// The stages run on the head: the response comes back through them before its body, so
    /// redirects are followed, status and content type validated, headers read; stages that need
    /// the whole body (decoding, the cache's storing) leave a streamed one alone. The task ends
    /// with the head; the body's transfer goes on until the reader has it all, stops reading or
    /// is cancelled.
    /// - Parameters:
    ///   - request: the request; its destination is set to a stream.
    ///   - bufferSize: how far the reader may fall behind before the transfer pauses.
    public func stream(
        _ request: Request, bufferSize: Int = ResponseDestination.defaultStreamBufferSize
    ) async throws -> Response {
        var request = request
        request.destination = .stream(bufferSize: bufferSize)
        return try await send(request)
    }

    // MARK: The tasks in flight

    /// The contexts of the tasks in flight, oldest first.
    public var tasks: [TaskContext] {
        registry.contexts
    }

    /// Cancels every task in flight.
    public func cancelAll() {
        for context in registry.contexts {
            context.cancel()
        }
    }

    /// Stops accepting tasks, and returns once every task in flight has ended.
    /// - Parameter cancelingTasks: `true` cancels the tasks in flight; `false` lets them finish.
    public func invalidate(cancelingTasks: Bool) async {
        registry.invalidate()
        if cancelingTasks { cancelAll() }
        await registry.drained()
    }

    /// Whether the manager was invalidated and refuses new tasks.
    public var isInvalidated: Bool {
        registry.isInvalidated
    }

    // MARK: Running one task

    /// Never inlined into the task's closure, whose frame the task keeps for its whole life:
    /// nonsending lets the optimizer fold this function in, which more than doubled that frame.
    /// Its frame holds the request and the response only: what is done before and after the
    /// chain is done in synchronous functions out of line, which throw untyped errors so that the
    /// frame keeps no room for a typed one.
    @inline(never)
    nonisolated(nonsending) private static func run(_ context: TaskContext, through pipeline: Pipeline) async throws -> Response {
        do {
            let request = try begin(context, through: pipeline)
            // One call site: each would keep a response of its own in the frame.
            let response = try await handler(for: request, through: pipeline)(request, context)
            return try completed(response, of: request, context: context, through: pipeline)
        } catch {
            throw failed(error, context: context)
        }
    }

    /// The chain, or for a download the chain run by a ``FileDownload``, which owns the file from
    /// there to the end (a closure made for downloads only).
    @inline(never)
    private static func handler(for request: Request, through pipeline: Pipeline) -> Pipeline.Handler {
        guard case .file(let destination) = request.destination else { return pipeline.handler }
        return { request, context in
            try await FileDownload(request, to: destination).run(request) { try await pipeline.handler($0, context) }
        }
    }

    /// Reports the task created and returns its request as the chain takes it. The request is
    /// read from the context here, not passed in: an argument to an async call stays in the
    /// caller's frame across it.
    @inline(never)
    private static func begin(_ context: TaskContext, through pipeline: Pipeline) throws -> Request {
        let request = context.request
        context.emit(.created)
        if context.logs(at: .debug) {
            context.logger.debug("task started", metadata: ["method": "\(request.method)", "url": "\(request.url.absoluteString)"])
        }
        try request.checkURL()
        return try pipeline.prepared(request)
    }

    /// Reports the task completed with `response`, which a pipeline without a
    /// ``ResponseDecoding`` stage first accepts and decodes by the request's own rules, last.
    @inline(never)
    private static func completed(_ response: Response, of request: Request, context: TaskContext, through pipeline: Pipeline) throws -> Response {
        var response = response
        if !pipeline.decodesResponses, let own = request.responseDecoding {
            response = try own.decode(response, for: request)
        }
        context.emit(.completed(status: response.status))
        if context.logs(at: .debug) {
            context.logger.debug("task completed", metadata: ["status": "\(response.status)"])
        }
        return response
    }

    /// The task's error for `error` that ended its chain, reported: `.cancelled` once the task was
    /// cancelled, whatever the stage made of it.
    @inline(never)
    private static func failed(_ error: any Error, context: TaskContext) -> SluiceError {
        // A request made from a string that is not a URL holds about:blank, which names nothing.
        let url = context.request.stageValues[Request.UnparsedURL.self] == nil ? context.request.url : nil
        var failure = SluiceError.wrapping(error, stage: nil, url: url)
        if context.isCancelled, failure.kind != .cancelled {
            let resumeData = failure.resumeData
            failure = .cancelled(url: url, stage: failure.stage)
            failure.resumeData = resumeData
        }
        if failure.kind == .cancelled {
            context.emit(.cancelled)
        } else {
            context.emit(.failed(failure))
        }
        if context.logs(at: .debug) {
            context.logger.debug("task failed", metadata: ["error": "\(failure)"])
        }
        return failure
    }
}
