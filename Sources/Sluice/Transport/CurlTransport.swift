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
    /// The I/O loop, or why libcurl could not start; then every exchange fails with that error.
    private let loop: Result<CurlMultiLoop, SluiceError>

    /// Creates a transport with its own connection pool and I/O thread. Should libcurl fail to
    /// start, every exchange fails with a `.transport` error that says why.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        loop = Result { () throws(SluiceError) in try CurlMultiLoop(configuration: configuration) }
        if case .success(let loop) = loop {
            loop.start(name: "sluice.curl")
        }
    }

    deinit {
        if case .success(let loop) = loop {
            loop.enqueue(.stop(nil))
        }
    }

    /// Ends every exchange under way with `.cancelled`, closes every connection and stops the I/O
    /// thread; returns when all of that is done. Later exchanges fail with `.invalidated`. Calling
    /// it again does nothing. Without it, a transport shuts down when its last reference goes.
    public func shutdown() async {
        guard case .success(let loop) = loop else { return }
        await withCheckedContinuation { continuation in
            if !loop.enqueue(.stop(continuation)) {
                continuation.resume()
            }
        }
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
