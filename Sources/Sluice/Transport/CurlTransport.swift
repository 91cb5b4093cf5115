internal import CCurl
import Foundation

/// The transport that moves bytes with libcurl.
///
/// One multi handle on one I/O thread serves every exchange: connections are kept alive and
/// reused, HTTPS goes over HTTP/2 with multiplexing where the server offers it, responses are
/// decoded from gzip, brotli, zstd and deflate, easy handles are pooled. TLS is verified against
/// the system trust store (or ``Configuration/caBundle``) with host-name checking; TLS early data
/// is never used. After each connection is ready and before the request is written, the task's
/// trust policy is consulted (CURLOPT_PREREQFUNCTION), on new and reused connections alike.
/// Redirects are not followed here: a stage follows them, so every hop runs through the chain.
public final class CurlTransport: Transport {
    /// A transport with the default configuration, shared by every pipeline that names none.
    public static let shared = CurlTransport()

    /// How the transport was configured.
    public let configuration: Configuration
    /// The I/O loop once the first exchange started it, or why libcurl could not start; then
    /// every exchange fails with that error.
    private let started = Locked<Result<CurlMultiLoop, SluiceError>?>(nil)

    /// Creates a transport with its own connection pool. libcurl and the I/O thread start with
    /// the first exchange, so a transport that sends nothing (a dry run, a validation) costs
    /// nothing. Should libcurl fail to start, every exchange fails with a `.transport` error that
    /// says why.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    deinit {
        if case .success(let loop) = started.withLock({ $0 }) {
            loop.enqueue(.stop(nil))
        }
    }

    /// The I/O loop, started on first use.
    private var loop: Result<CurlMultiLoop, SluiceError> {
        started.withLock { started in
            if let started { return started }
            let loop = Result { () throws(SluiceError) in try CurlMultiLoop(configuration: configuration) }
            if case .success(let loop) = loop {
                loop.start(name: "sluice.curl")
            }
            started = loop
            return loop
        }
    }

    /// Ends every exchange under way with `.cancelled`, closes every connection and stops the I/O
    /// thread; returns when all of that is done. Later exchanges fail with `.invalidated`. Calling
    /// it again does nothing. Without it, a transport shuts down when its last reference goes.
    public func shutdown() async {
        let running = started.withLock { started -> CurlMultiLoop? in
            guard let started else {
                started = .failure(SluiceError(kind: .invalidated, stage: "transport", message: "the transport was shut down"))
                return nil
            }
            return try? started.get()
        }
        guard let loop = running else { return }
        await withCheckedContinuation { continuation in
            if !loop.enqueue(.stop(continuation)) {
                continuation.resume()
            }
        }
    }

    /// The I/O thread as a task executor: a task that prefers it runs its stages, starts its
    /// transfers and gets their responses on the I/O thread, with no thread switch. The session
    /// manager runs every task of a pipeline over this transport there; run your own calling task
    /// there too (`withTaskExecutorPreference(transport.executor)`, or
    /// `Task(executorPreference: transport.executor)`) and a request costs no thread switch at
    /// all. Keep what runs there short: a job that blocks holds up every transfer. `nil` when
    /// libcurl could not start.
    public var executor: (any TaskExecutor)? {
        try? loop.get()
    }

    /// The version of the libcurl in use, for example `7.88.1`.
    public static var libcurlVersion: String {
        CurlGlobal.version
    }

    /// Sends the request over libcurl.
    public func execute(_ request: Request, for task: TaskID, events: any TransportEvents) async throws -> Response {
        let loop = try loop.get()
        let transfer = try CurlTransfer.make(
            request: request, task: task, events: events, loop: loop, configuration: configuration
        )
        events.transferStarted(task, url: request.url, control: transfer)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                transfer.continuation = continuation
                if !loop.enqueue(.start(transfer)) {
                    transfer.abort(with: SluiceError(
                        kind: .invalidated, stage: "transport", url: request.url, message: "the transport was shut down"
                    ))
                }
            }
        } onCancel: {
            transfer.requestCancel()
        }
    }
}
