internal import CCurl
import Foundation
import Synchronization
import SluiceCore

/// One exchange on the libcurl transport: its easy handle, its body source and sink, and the
/// callbacks libcurl calls while it moves the bytes. Its decisions are ``TransferState``'s (phases,
/// pauses, limits, its end); its parts are in files of their own: the request as libcurl options
/// (`CurlTransfer+Options`), where bytes go (`CurlTransfer+Sinks`), its figures
/// (`CurlTransfer+Metrics`), and libcurl's C callbacks (`CurlTransferCallbacks`). Trust is the
/// task's: the connection is shown to it with an `OpenSSLPeer`.
///
/// Threading: a transfer is configured on the task's thread, then handed to the I/O thread
/// (through the loop's locked inbox, which orders the two), and from then on only the I/O thread
/// touches its state. The exceptions are `requestCancel()`, `suspend()` and `resume()`, which only
/// set an atomic flag and post a command to the loop.
final class CurlTransfer: TransferControl, @unchecked Sendable {
    /// The exchange's state machine, its caller the task's continuation.
    typealias State = TransferState<UnsafeContinuation<Response, any Error>>

    let request: Request
    /// Where the request goes, read from its URL once.
    let endpoint: Endpoint
    let events: any TransportEvents
    let easy: CurlEasyHandle
    /// The request's trust policy, when it governs the request's host, decided once (matching
    /// normalizes the host): configuration, the loop's connection cache and the pre-request check
    /// all ask. Transfers under one policy share connections only with each other (the loop gives
    /// each policy its own connection cache).
    let governingTrustPolicy: TrustPolicy?
    let loop: CurlMultiLoop
    /// The transport the exchange belongs to, handed to a streamed body so that it outlives the
    /// caller's last other reference to it.
    var owner: (any Transport)?
    let cancelRequested = Atomic<Bool>(false)

    var upload: UploadSource?
    var streamedUpload: StreamedUpload?
    /// Where a streamed response body goes, for a `.stream` destination.
    var bodyChannel: ResponseBodyChannel?
    /// The exchange's decisions: pauses, limits, its first failure, how its end becomes a
    /// result. I/O thread only.
    var state: State
    var body = Data()
    /// Whether the transport asks for compressed responses and decodes them.
    var decodesContent = false
    /// Undoes the final response's content codings for a body taken whole (a streamed body is
    /// decoded by its reader); `nil` when there are none to undo.
    var decoder: ContentDecoder?
    /// The header lines libcurl sends, shared with other transfers that send the same lines.
    var headerList: CurlHeaderList?
    /// The request head as libcurl wrote it, when the request asked for it (`recordsSentHead`).
    var sentHead: [UInt8]?
    /// The request's connection overrides as libcurl's `CURLOPT_CONNECT_TO` list.
    var connectToList: UnsafeMutablePointer<curl_slist>?
    var lastProgress = TaskProgress()
    /// The key under which this transfer's TLS handshake records what the server presented, for
    /// the error should the handshake fail; `nil` for plain http, which has no handshake.
    let presentedChainKey: Int?
    /// The certificates of the connection, read before the request when it asks for them.
    var peerCertificates: [X509Certificate] = []
    /// When the connection was ready and the request about to be sent (the pre-request callback).
    var requestSentAt: ContinuousClock.Instant?

    deinit {
        if let presentedChainKey { _ = PresentedChainRecorder.take(presentedChainKey) }
    }

    /// Prepares an exchange: validates the request, opens its upload file and configures an easy
    /// handle from the pool. Throws `.invalidRequest` or `.fileIO` without touching the network.
    static func make(
        request: Request,
        events: any TransportEvents,
        loop: CurlMultiLoop,
        configuration: CurlTransport.Configuration
    ) throws(SluiceError) -> CurlTransfer {
        let endpoint = try validate(request)
        var upload: UploadSource?
        var streamedUpload: StreamedUpload?
        switch request.body {
        case .stream(let stream):
            streamedUpload = try StreamedUpload(stream, url: request.url)
        case .none:
            // No source asked for: a class's failable init allocates the object before it can
            // return nil, and most requests have no body.
            break
        default:
            upload = try UploadSource(request.body, url: request.url)
        }
        var bodyChannel: ResponseBodyChannel?
        if case .stream(let bufferSize) = request.destination {
            bodyChannel = ResponseBodyChannel(capacity: bufferSize)
        }
        let easy: CurlEasyHandle
        do {
            easy = try loop.pool.take()
        } catch {
            streamedUpload?.cancel()
            throw error
        }
        let transfer = CurlTransfer(
            request: request, endpoint: endpoint, events: events, easy: easy, loop: loop, upload: upload
        )
        transfer.streamedUpload = streamedUpload
        transfer.bodyChannel = bodyChannel
        streamedUpload?.start { [transfer] in loop.enqueue(.resumeSending(transfer)) }
        do {
            try transfer.configure(configuration)
        } catch {
            transfer.releaseResources()
            throw error
        }
        return transfer
    }

    private init(
        request: Request,
        endpoint: Endpoint,
        events: any TransportEvents,
        easy: CurlEasyHandle,
        loop: CurlMultiLoop,
        upload: UploadSource?
    ) {
        self.request = request
        self.endpoint = endpoint
        state = TransferState(url: request.url, maxResponseSize: request.maxResponseSize)
        presentedChainKey = endpoint.isHTTPS ? PresentedChainRecorder.register() : nil
        governingTrustPolicy = request.governingTrustPolicy
        self.events = events
        self.easy = easy
        self.loop = loop
        self.upload = upload
    }

    // MARK: Control (any thread)

    /// Whether the task asked to cancel this exchange.
    var isCancelRequested: Bool {
        cancelRequested.load(ordering: .acquiring)
    }

    /// Asks the I/O thread to end the exchange with `.cancelled`.
    func requestCancel() {
        cancelRequested.store(true, ordering: .releasing)
        loop.enqueue(.cancel(self))
    }

    func suspend() {
        loop.enqueue(.pause(self))
    }

    func resume() {
        loop.enqueue(.unpause(self))
    }

    // MARK: Pausing (I/O thread)

    /// Records a change to what pauses the exchange and returns libcurl's pause bits for its
    /// whole state: the loop applies them.
    func pauseMask(after change: State.PauseChange) -> Int32 {
        let pauses = state.pauses(after: change)
        return (pauses.contains(.receive) ? Int32(SLUICE_CURLPAUSE_RECV) : 0) | (pauses.contains(.send) ? Int32(SLUICE_CURLPAUSE_SEND) : 0)
    }

    // MARK: Progress and the connection (I/O thread, from libcurl's callbacks)

    /// Reports bytes moved, when they changed.
    func reportProgress(downloadTotal: Int64, downloadNow: Int64, uploadNow: Int64) {
        let progress = TaskProgress(
            upload: TransferProgress(completed: uploadNow, expected: upload?.size),
            download: TransferProgress(completed: downloadNow, expected: downloadTotal > 0 ? downloadTotal : nil)
        )
        guard progress != lastProgress else { return }
        lastProgress = progress
        events.progressed(progress)
    }

    /// The connection is ready for the request: the task is asked about trust, and the transfer
    /// goes on or is aborted before one byte is written.
    func connectionReady(remoteAddress: String, remotePort: Int) -> Int32 {
        state.connectionReady()
        let connection = ConnectionInfo(
            host: endpoint.host,
            port: endpoint.port,
            scheme: endpoint.isHTTPS ? "https" : "http",
            remoteAddress: remoteAddress,
            remotePort: remotePort,
            peer: endpoint.isHTTPS ? openSSLSession().map(OpenSSLPeer.init(session:)) : nil
        )
        if request.recordsPeerCertificates, let peer = connection.peer {
            peerCertificates = peer.presentedCertificates()
        }
        switch events.evaluateTrust(connection, for: request) {
        case .proceed:
            requestSentAt = .now
            if streamedUpload == nil, upload?.isExhausted ?? true { reportRequestSent() }
            return Int32(CURL_PREREQFUNC_OK)
        case .reject(let reason):
            state.rejectTrust(.init(reason: reason, stage: "trust-evaluation", presented: connection.peer?.presentedCertificates() ?? []))
            return Int32(CURL_PREREQFUNC_ABORT)
        }
    }

    func reportRequestSent() {
        guard state.requestSent() else { return }
        events.requestSent()
    }

    /// OpenSSL's `SSL *` for the connection, when libcurl runs on OpenSSL.
    private func openSSLSession() -> OpaquePointer? {
        guard let info = easy.pointer(CURLINFO_TLS_SSL_PTR)?.assumingMemoryBound(to: curl_tlssessioninfo.self),
            info.pointee.backend == CURLSSLBACKEND_OPENSSL
        else { return nil }
        return OpaquePointer(info.pointee.internals)
    }

    // MARK: Ending (I/O thread)

    /// Ends the exchange as libcurl finished it (the handle is already out of the multi handle).
    func complete(code: CURLcode) {
        let metrics = readMetrics()
        let result: Result<Response, SluiceError>
        if code == CURLE_OK {
            do {
                try decoder?.finish()
                result = response(metrics: metrics)
            } catch {
                result = .failure(.undecodableBody(error, url: request.url))
            }
        } else {
            result = .failure(failure(for: code))
        }
        end(with: result, metrics: metrics)
    }

    /// Ends the exchange without libcurl's verdict: cancelled, or the transport shut down.
    func abort(with error: SluiceError) {
        end(with: .failure(error), metrics: nil)
    }

    private func end(with result: Result<Response, SluiceError>, metrics: TransferMetrics?) {
        releaseResources()
        loop.pool.recycle(easy)
        events.transferFinished(control: self, metrics: metrics)
        let actions = state.end(with: result, metrics: metrics, streamsBody: bodyChannel != nil)
        if let first = actions.first { perform(first) }
        if let second = actions.second { perform(second) }
    }

    /// Does what ending the exchange asks.
    private func perform(_ action: State.EndAction) {
        switch action {
        case .deliverHead(let caller): deliverStreamedHead(to: caller)
        case .endBody(let end): bodyChannel?.finish(end)
        case .resume(let caller, let result): caller.resume(with: result.mapError { $0 as any Error })
        }
    }

    /// Hands the transfer to the loop's thread with its caller waiting; called once, by the task,
    /// before the loop can see the transfer.
    func start(_ continuation: UnsafeContinuation<Response, any Error>) {
        _ = state.start(continuation)
    }

    private func response(metrics: TransferMetrics) -> Result<Response, SluiceError> {
        let received = lastProgress.download.completed
        events.progressed(TaskProgress(
            upload: lastProgress.upload,
            download: TransferProgress(completed: received, expected: lastProgress.download.expected ?? received)
        ))
        var response = Response(
            status: easy.long(CURLINFO_RESPONSE_CODE),
            headers: state.head.headers,
            body: body,
            url: request.url,
            httpVersion: metrics.httpVersion,
            metrics: metrics
        )
        if request.keepsRawBody { response.rawBody = decoder?.received ?? body }
        return .success(response)
    }

    /// The error libcurl's `code` ends the exchange with: what the shell reads of libcurl, decided
    /// by ``TransferState/error(for:)``.
    /// The HTTPS proxy, named, when the TLS failure `code` is its handshake's: libcurl's verdict
    /// on the proxy's certificate is then an error; `nil` for any other failure.
    private func failedTLSProxy(_ code: CURLcode) -> String? {
        guard code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CONNECT_ERROR || code == CURLE_SSL_CACERT_BADFILE,
            easy.long(CURLINFO_PROXY_SSL_VERIFYRESULT) != 0
        else { return nil }
        if case .through(let proxy)? = request.proxyRoute, let host = proxy.url.host {
            return "the proxy \(host)\(proxy.url.port.map { ":\($0)" } ?? "")"
        }
        return "the HTTPS proxy"
    }

    /// What to change, for a TLS failure `code` the settings explain: a proxy's certificate
    /// judged by the origin's anchors, or a revocation list whose issuer certificate pinning
    /// left out of the trust anchors.
    private func tlsHint(_ code: CURLcode, failedTLSProxy: String?) -> String? {
        guard code == CURLE_PEER_FAILED_VERIFICATION || code == CURLE_SSL_CONNECT_ERROR else { return nil }
        if failedTLSProxy != nil {
            return "A proxy's certificate is checked against the proxy's own trust anchors (--proxy-cacert; the proxy stage's ca-bundle), not the origin's."
        }
        if let policy = governingTrustPolicy, policy.pinning == .certificate, policy.crlFile != nil, policy.caBundle == nil {
            return "With certificate pinning the pinned certificates are the only trust anchors, and a revocation list (crl-file) is checked against the CA that signed it: pin that CA too, or give it as ca-bundle."
        }
        return nil
    }

    private func failure(for code: CURLcode) -> SluiceError {
        let cause: State.Ending.Cause =
            switch code {
            case CURLE_ABORTED_BY_CALLBACK: .abortedByCallback
            case CURLE_OUT_OF_MEMORY: .outOfMemory
            default: .other
            }
        // The pre-request callback, not libcurl's connect times (zero on a reused connection), tells
        // whether the connection and its TLS handshake were done.
        let tlsProxy = failedTLSProxy(code)
        let ending = State.Ending(
            code: Int(code.rawValue),
            cause: cause,
            kind: SluiceError.Kind(curlCode: code, connected: state.connectionWasReady),
            message: code == CURLE_SSL_INVALIDCERTSTATUS ? certificateStatusMessage() : easy.message(for: code),
            // With validation off, OpenSSL's verdict on the chain was not the cause: libcurl's own
            // words (a host name that does not match) are.
            presented: presentedChainKey.flatMap(PresentedChainRecorder.take).map {
                (governingTrustPolicy?.allowsInvalidCertificates == true ? nil : $0.reason, $0.certificates)
            },
            proxyRefusal: proxyRefusal(code),
            failedTLSProxy: tlsProxy,
            tlsHint: tlsHint(code, failedTLSProxy: tlsProxy)
        )
        var error = state.error(for: ending)
        // A failure after the head came (a body cut short, a timeout mid-body, a body past the
        // limit) keeps that head, and the bytes that came, as `response`: callers show its status.
        let status = easy.long(CURLINFO_RESPONSE_CODE)
        if error.response == nil, state.head.isComplete, status >= 200 {
            // With its metrics, so that its status line shows the version and the reason phrase.
            let metrics = readMetrics()
            error.response = Response(status: status, headers: state.head.headers, body: body, url: request.url, httpVersion: metrics.httpVersion, metrics: metrics)
        }
        return error
    }

    /// libcurl's words for a stapled OCSP answer that is not good (`CURLE_SSL_INVALIDCERTSTATUS`),
    /// said plainly: revoked, or no answer stapled.
    private func certificateStatusMessage() -> String {
        let libcurl = easy.message(for: CURLE_SSL_INVALIDCERTSTATUS)
        if libcurl.contains("revocation reason") {
            return "the server's certificate is revoked, says the OCSP answer it stapled (\(libcurl))"
        }
        if libcurl.contains("No OCSP response") {
            return "the server stapled no OCSP answer, and the trust policy requires one (cert-status) (\(libcurl))"
        }
        return "the OCSP answer the server stapled does not show its certificate good (\(libcurl))"
    }

    /// What a proxy's refusal looks like: a CONNECT answered with anything but 2xx, or a proxy that
    /// could not be resolved or spoke no proxy protocol (CURLE_PROXY, for SOCKS); `nil` otherwise.
    private func proxyRefusal(_ code: CURLcode) -> String? {
        let connectStatus = easy.long(CURLINFO_HTTP_CONNECTCODE)
        let proxy: String
        switch request.proxyRoute {
        case .through(let configured)?: proxy = "the proxy \(configured.url.absoluteString)"
        default: proxy = "the proxy the environment names"
        }
        if connectStatus != 0 && !(200...299).contains(connectStatus) {
            let hint = connectStatus == 407 ? " (Proxy Authentication Required: give the proxy's username and password)" : ""
            return "\(proxy) refused the tunnel to \(request.url.host ?? "the server"): CONNECT answered \(connectStatus)\(hint)"
        }
        if code == CURLE_COULDNT_RESOLVE_PROXY || code == CURLE_PROXY {
            return "\(proxy) failed: \(easy.message(for: code))"
        }
        return nil
    }

    /// Keeps what libcurl wrote of the request head (I/O thread, from the debug callback).
    func recordSentHead(_ bytes: UnsafeRawBufferPointer) {
        sentHead = (sentHead ?? []) + bytes
    }

    /// Lets go of the header lists (the shared one is freed with its last transfer) and of the upload.
    private func releaseResources() {
        headerList = nil
        if let list = connectToList {
            curl_slist_free_all(list)
            connectToList = nil
        }
        upload = nil
        owner = nil
        streamedUpload?.cancel()
        streamedUpload = nil
    }
}
