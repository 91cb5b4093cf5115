internal import CCurl
import Foundation
import SluiceCore

/// The transport that moves bytes with libcurl.
///
/// A multi handle on an I/O thread serves the exchanges: connections are kept alive and reused,
/// HTTPS goes over HTTP/2 with multiplexing where the server offers it, responses are decoded from
/// gzip, brotli, zstd and deflate, easy handles are pooled. TLS is verified against the system
/// trust store (or ``Configuration/caBundle``) with host-name checking; TLS early data is never
/// used. After each connection is ready and before the request is written, the task's trust
/// policy is consulted (CURLOPT_PREREQFUNCTION), on new and reused connections alike. Redirects
/// are not followed here: a stage follows them, so every hop runs through the chain.
///
/// The transport has ``Configuration/ioThreads`` I/O threads, each with its multi handle and
/// connections, each a task executor (``executors``). An exchange goes to the thread its session
/// manager chose for its task (`TransportEvents.executor`), else to the one the calling task
/// prefers; a task that runs on none of them (on the global executor, say) uses the first, so that by
/// default one thread and one pool of connections serve everything. Spread tasks over
/// ``executors`` to use more cores: a load run does.
public final class CurlTransport: Transport {
    /// A transport with the default configuration, shared by every pipeline that names none.
    public static let shared = CurlTransport()

    /// How the transport was configured.
    public let configuration: Configuration

    private struct Loops {
        /// Each I/O loop once something started it, or why libcurl could not start it (then every
        /// exchange sent there fails with that error); `nil` until first use.
        var started: [Result<CurlMultiLoop, SluiceError>?]
        var isShutDown = false
    }

    private let loops: Locked<Loops>
    /// What marks the loops as this transport's.
    private let group = CurlMultiLoop.Group()

    /// Creates a transport with its own connection pools. libcurl and the I/O threads start on
    /// first use, each on its own, so a transport that sends nothing (a dry run, a validation)
    /// costs nothing, and one whose tasks never leave the first thread runs one. Should libcurl
    /// fail to start, every exchange fails with a `.transport` error that says why.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        loops = Locked(Loops(started: Array(repeating: nil, count: max(1, configuration.ioThreads))))
    }

    deinit {
        for case .success(let loop)? in loops.withLock({ $0.started }) {
            loop.enqueue(.stop(nil))
        }
    }

    /// I/O loop `index`, started on first use; after `shutdown()` a loop that never started fails
    /// with `.invalidated` (a stopped one refuses new transfers itself).
    private func loop(_ index: Int) -> Result<CurlMultiLoop, SluiceError> {
        loops.withLock { loops in loop(index, in: &loops) }
    }

    private func loop(_ index: Int, in loops: inout Loops) -> Result<CurlMultiLoop, SluiceError> {
        if let started = loops.started[index] { return started }
        guard !loops.isShutDown else {
            return .failure(SluiceError(kind: .invalidated, stage: "transport", message: "the transport was shut down"))
        }
        let loop = Result { () throws(SluiceError) in try CurlMultiLoop(configuration: configuration, group: group) }
        if case .success(let loop) = loop {
            loop.start(name: index == 0 ? "sluice.curl" : "sluice.curl.\(index)")
        }
        loops.started[index] = loop
        return loop
    }

    /// The loop the task runs on, as its session manager chose it (no lock, no search); for a
    /// caller that brings none of this transport's, the loop whose thread the calling task
    /// prefers, else the first.
    private func loop(for events: any TransportEvents) -> Result<CurlMultiLoop, SluiceError> {
        if let chosen = events.executor as? CurlMultiLoop, chosen.group === group {
            return .success(chosen)
        }
        return loopForCaller()
    }

    /// The loop whose thread the calling task prefers, else the first.
    private func loopForCaller() -> Result<CurlMultiLoop, SluiceError> {
        let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
        return loops.withLock { loops in
            let index = preferred.flatMap { preferred in
                loops.started.firstIndex { started in
                    guard case .success(let loop)? = started else { return false }
                    return loop.asUnownedTaskExecutor() == preferred
                }
            }
            return loop(index ?? 0, in: &loops)
        }
    }

    /// Ends every exchange under way with `.cancelled`, closes every connection and stops the I/O
    /// threads; returns when all of that is done. Later exchanges fail with `.invalidated`. Calling
    /// it again does nothing. Without it, a transport shuts down when its last reference goes.
    public func shutdown() async {
        let running = loops.withLock { loops -> [CurlMultiLoop] in
            loops.isShutDown = true
            return loops.started.compactMap { try? $0?.get() }
        }
        for loop in running {
            await withCheckedContinuation { continuation in
                if !loop.enqueue(.stop(continuation)) {
                    continuation.resume()
                }
            }
        }
    }

    /// The first I/O thread as a task executor: a task that prefers it runs its stages, starts its
    /// transfers and gets their responses on the I/O thread, with no thread switch. Run your own
    /// calling task there (`withTaskExecutorPreference(transport.executor)`, or
    /// `Task(executorPreference: transport.executor)`) and a request costs no thread switch at
    /// all; ``executors`` has every thread. Keep what runs there short: a job that blocks holds up
    /// every transfer of its thread. `nil` when libcurl could not start.
    public var executor: (any TaskExecutor)? {
        try? loop(0).get()
    }

    /// Every I/O thread as a task executor (``Configuration/ioThreads`` of them), each started
    /// when this is read. Spread tasks over them (task `i` on `executors[i % executors.count]`)
    /// to use as many cores; each thread has its own connections, so connection limits hold per
    /// thread. Empty when libcurl could not start.
    public var executors: [any TaskExecutor] {
        (0..<max(1, configuration.ioThreads)).compactMap { try? loop($0).get() }
    }

    /// The I/O thread the calling task runs on, if it runs on one of this transport's.
    public var callersExecutor: (any TaskExecutor)? {
        guard let preferred = withUnsafeCurrentTask(body: { $0?.unownedTaskExecutor }) else { return nil }
        return loops.withLock { loops in
            loops.started.lazy.compactMap { try? $0?.get() }.first { $0.asUnownedTaskExecutor() == preferred }
        }
    }

    /// The configuration's `maxConnectionsPerHost`, or its `maxConnections` when that is lower.
    public var connectionsPerHost: Int? {
        configuration.maxConnections == 0
            ? configuration.maxConnectionsPerHost : min(configuration.maxConnectionsPerHost, configuration.maxConnections)
    }

    /// The version of the libcurl in use, for example `7.88.1`.
    public static var libcurlVersion: String {
        CurlGlobal.version
    }

    /// Sends the request over libcurl, its body delivered in memory or as a stream; a `.file`
    /// destination is refused (`SluiceError.fileDestinationAtTransport(url:)`): a pipeline writes downloads.
    public func execute(_ request: Request, events: any TransportEvents) async throws -> Response {
        try await exchange(request, events: events)
    }

    /// One exchange on the I/O thread.
    nonisolated(nonsending) private func exchange(_ request: Request, events: any TransportEvents) async throws -> Response {
        let (loop, transfer) = try started(request, events: events)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                transfer.start(continuation)
                if !loop.enqueue(.start(transfer)) {
                    CurlTransport.abortShutDown(transfer)
                }
            }
        } onCancel: {
            transfer.requestCancel()
        }
    }

    /// The transfer for `request` on the caller's I/O thread, reported started.
    private func started(_ request: Request, events: any TransportEvents) throws(SluiceError) -> (CurlMultiLoop, CurlTransfer) {
        let loop = try loop(for: events).get()
        let transfer = try CurlTransfer.make(request: request, events: events, loop: loop, configuration: configuration)
        if request.destination.isStream { transfer.owner = self }
        events.transferStarted(url: request.url, control: transfer)
        return (loop, transfer)
    }

    /// Ends `transfer`, which the loop would not take, with `.invalidated`. It reads the URL from
    /// the transfer: a request the continuation's closure captured would sit in the task's frame.
    @inline(never)
    private static func abortShutDown(_ transfer: CurlTransfer) {
        transfer.abort(with: SluiceError(kind: .invalidated, stage: "transport", url: transfer.request.url, message: "the transport was shut down"))
    }
}
