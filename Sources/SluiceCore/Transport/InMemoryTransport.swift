import Foundation

/// A transport that answers from a closure instead of the network, for testing stages and
/// pipelines without sockets.
///
/// It reports to the task the same events a network transport does (exchange started, trust
/// asked, request sent, first byte, finished), so event monitors, suspension and metrics behave as in production,
/// and it holds a body to the request's `maxResponseSize` as the libcurl transport does. A request
/// whose destination is a stream gets the body as a ``ResponseBodyStream`` (a pipeline asks for
/// one for a download, and writes the file itself).
///
/// It asks the task about trust as a network transport does, showing for an `https` request the
/// certificates it was made `presenting` (taken as the verified chain, leaf first): a pinned
/// request is checked against them, and refused when there are none, never let through unchecked.
///
/// ```swift
/// let transport = InMemoryTransport { request in
///     Response(status: 200, body: Data("hello".utf8), url: request.url)
/// }
/// ```
public struct InMemoryTransport: Transport {
    private let respond: @Sendable (Request) async throws -> Response
    private let certificates: [X509Certificate]

    /// Creates a transport that answers every request with `respond`.
    /// - Parameters:
    ///   - certificates: the chain an `https` request's connection shows, leaf first, for pins to
    ///     be checked against; none by default, so a pinned request is refused.
    ///   - respond: the answer to each request.
    public init(presenting certificates: [X509Certificate] = [], _ respond: @escaping @Sendable (Request) async throws -> Response) {
        self.certificates = certificates
        self.respond = respond
    }

    /// Answers the request with the closure and reports the exchange to `events`.
    public func execute(_ request: Request, events: any TransportEvents) async throws -> Response {
        let control = InMemoryTransferControl()
        events.transferStarted(url: request.url, control: control)
        let started = ContinuousClock.now
        do {
            try Task.checkCancellation()
            if case .file = request.destination { throw SluiceError.fileDestinationAtTransport(url: request.url) }
            try askTrust(request, events: events)
            events.requestSent()
            var response = try await respond(request)
            if let limit = request.maxResponseSize, response.body.count > limit {
                throw SluiceError.responseTooLarge(limit: limit, url: request.url)
            }
            events.responseStarted(status: response.status)
            let bytes = Int64(response.body.count)
            events.progressed(TaskProgress(download: TransferProgress(completed: bytes, expected: bytes)))
            var metrics = TransferMetrics(total: .now - started, bytesReceived: bytes)
            metrics.bodyBytesReceived = bytes
            response.metrics = response.metrics ?? metrics
            switch request.destination {
            case .stream where response.bodyStream == nil:
                // As the network transport does: the body goes to the caller as a stream.
                response.bodyStream = ResponseBodyStream(response.body, url: response.url ?? request.url)
                response.body = Data()
            default:
                break
            }
            events.transferFinished(control: control, metrics: metrics)
            return response
        } catch {
            events.transferFinished(control: control, metrics: nil)
            throw SluiceError.wrapping(error, stage: "transport", url: request.url)
        }
    }

    /// Asks the task about trust as a network transport does, with the certificates presented
    /// (none: a pinned request is refused). Out of the async frame, which every task waiting in
    /// this transport holds: the connection's description is needed only for the question.
    @inline(never)
    private func askTrust(_ request: Request, events: any TransportEvents) throws(SluiceError) {
        let scheme = request.url.scheme?.lowercased() ?? "http"
        let connection = ConnectionInfo(
            host: request.url.host ?? "", port: request.url.portOrDefault, scheme: scheme,
            remoteAddress: "in-memory", remotePort: 0,
            peer: scheme == "https" && !certificates.isEmpty ? InMemoryPeer(certificates: certificates) : nil
        )
        if case .reject(let reason) = events.evaluateTrust(connection, for: request) {
            throw SluiceError(kind: .trustEvaluation, stage: "trust-evaluation", url: request.url, message: reason)
        }
    }
}

/// The certificates an in-memory server shows, taken as verified.
private struct InMemoryPeer: TLSPeer {
    let certificates: [X509Certificate]

    func presentedCertificates() -> [X509Certificate] { certificates }
    func verifiedChain() -> [X509Certificate]? { certificates }
}

/// The control of an in-memory exchange: there are no bytes in flight to pause.
private final class InMemoryTransferControl: TransferControl {
    func suspend() {}
    func resume() {}
}
