internal import CCurl
import Foundation
import Synchronization
import SluiceCore

/// One exchange on the libcurl transport: its easy handle, its body source and sink, and the
/// callbacks libcurl calls while it moves the bytes.
///
/// Threading: a transfer is configured on the task's thread, then handed to the I/O thread
/// (through the loop's locked inbox, which orders the two), and from then on only the I/O thread
/// touches its state. The exceptions are `requestCancel()`, `suspend()` and `resume()`, which only
/// set an atomic flag and post a command to the loop.
final class CurlTransfer: TransferControl, @unchecked Sendable {
    let request: Request
    let events: any TransportEvents
    let easy: CurlEasyHandle
    /// The request's trust policy, when it governs the request's host, decided once (matching
    /// normalizes the host): configuration, the loop's connection cache and the pre-request check
    /// all ask. Transfers under one policy share connections only with each other (the loop gives
    /// each policy its own connection cache).
    let governingTrustPolicy: TrustPolicy?
    private let loop: CurlMultiLoop
    /// The transport the exchange belongs to, handed to a streamed body so that it outlives the
    /// caller's last other reference to it.
    var owner: (any Transport)?
    private let cancelRequested = Atomic<Bool>(false)

    /// Resumed exactly once, by the I/O thread, with the response or the error.
    var continuation: UnsafeContinuation<Response, any Error>?

    private var upload: UploadSource?
    private var streamedUpload: StreamedUpload?
    /// Where a `.file` destination's body goes, opened and committed by the transport.
    private var downloadFile: OutputFile?
    /// Where a streamed response body goes, for a `.stream` destination.
    private var bodyChannel: ResponseBodyChannel?
    /// The exchange's decisions: pauses, limits, its first failure, how its end becomes a
    /// result. I/O thread only.
    private var state: TransferState
    private var body = Data()
    /// The body bytes written to `downloadFile`, and the offset they follow (a resumed `206`).
    private var fileBytes: Int64 = 0
    private var fileOffset: Int64 = 0
    /// Whether the transport asks for compressed responses and decodes them.
    private var decodesContent = false
    /// Undoes the final response's content codings for a body taken whole or into a file (a
    /// streamed body is decoded by its reader); `nil` when there are none to undo.
    private var decoder: ContentDecoder?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The request head as libcurl wrote it, when the request asked for it (`recordsSentHead`).
    private var sentHead: [UInt8]?
    /// The request's connection overrides as libcurl's `CURLOPT_CONNECT_TO` list.
    private var connectToList: UnsafeMutablePointer<curl_slist>?
    private var lastProgress = TaskProgress()
    /// The key under which this transfer's TLS handshake records what the server presented, for
    /// the error should the handshake fail; `nil` for plain http, which has no handshake.
    private let presentedChainKey: Int?
    /// The certificates of the connection, read before the request when it asks for them.
    private var peerCertificates: [X509Certificate] = []
    /// When the connection was ready and the request about to be sent (the pre-request callback).
    private var requestSentAt: ContinuousClock.Instant?

    deinit {
        if let presentedChainKey { _ = PresentedChainRecorder.take(presentedChainKey) }
    }

    /// Prepares an exchange: validates the request, opens its files and configures an easy handle
    /// from the pool. Throws `.invalidRequest` or `.fileIO` without touching the network.
    static func make(
        request: Request,
        events: any TransportEvents,
        loop: CurlMultiLoop,
        configuration: CurlTransport.Configuration,
        downloadFile: OutputFile?
    ) throws(SluiceError) -> CurlTransfer {
        try validate(request)
        var upload: UploadSource?
        var streamedUpload: StreamedUpload?
        if case .stream(let stream) = request.body {
            streamedUpload = try StreamedUpload(stream, url: request.url)
        } else {
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
            request: request, events: events, easy: easy, loop: loop,
            upload: upload, downloadFile: downloadFile
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
        events: any TransportEvents,
        easy: CurlEasyHandle,
        loop: CurlMultiLoop,
        upload: UploadSource?,
        downloadFile: OutputFile?
    ) {
        self.request = request
        state = TransferState(url: request.url, maxResponseSize: request.maxResponseSize)
        presentedChainKey = request.url.scheme?.lowercased() == "https" ? PresentedChainRecorder.register() : nil
        governingTrustPolicy = request.governingTrustPolicy
        self.events = events
        self.easy = easy
        self.loop = loop
        self.upload = upload
        self.downloadFile = downloadFile
    }

    private static func validate(_ request: Request) throws(SluiceError) {
        let scheme = request.url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = request.url.host, !host.isEmpty else {
            throw SluiceError(
                kind: .invalidRequest, stage: "transport", url: request.url,
                message: "the URL must be absolute, with an http or https scheme and a host"
            )
        }
        if !request.method.isValidToken {
            throw SluiceError(
                kind: .invalidRequest, stage: "transport", url: request.url,
                message: "method '\(request.method)' is not an HTTP token (RFC 9110 section 9.1)"
            )
        }
        if let socket = request.connectionOverrides?.unixSocketPath, case .through(let proxy)? = request.proxyRoute {
            throw SluiceError(
                kind: .invalidRequest, stage: "transport", url: request.url,
                message: "the request names both a Unix socket (\(socket)) and a proxy (\(proxy.url.absoluteString)); a connection over a socket goes through no proxy"
            )
        }
        if request.method == .head, !request.body.isEmpty {
            throw SluiceError(kind: .invalidRequest, stage: "transport", url: request.url, message: "a HEAD request cannot carry a body")
        }
        for field in request.headers {
            let forbidden = field.name.isEmpty || field.name.utf8.contains { $0 == 13 || $0 == 10 || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: " ") }
                || field.value.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
            if forbidden {
                throw SluiceError(
                    kind: .invalidRequest, stage: "transport", url: request.url,
                    message: "header field '\(field.name)' has a character HTTP does not allow (CR, LF, NUL, or a colon or space in the name)"
                )
            }
        }
    }

    // MARK: Configuration

    private func configure(_ configuration: CurlTransport.Configuration) throws(SluiceError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_URL, request.url.absoluteString)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_PRIVATE, pointer: me)
        try easy.set(CURLOPT_WRITEFUNCTION, callback: curlTransferWrite)
        try easy.set(CURLOPT_WRITEDATA, pointer: me)
        try easy.set(CURLOPT_HEADERFUNCTION, callback: curlTransferHeader)
        try easy.set(CURLOPT_HEADERDATA, pointer: me)
        try easy.set(CURLOPT_READFUNCTION, callback: curlTransferRead)
        try easy.set(CURLOPT_READDATA, pointer: me)
        try easy.set(seekCallback: curlTransferSeek)
        try easy.set(CURLOPT_SEEKDATA, pointer: me)
        try easy.set(CURLOPT_NOPROGRESS, 0)
        try easy.set(progressCallback: curlTransferProgress)
        try easy.set(CURLOPT_XFERINFODATA, pointer: me)
        try easy.set(prerequestCallback: curlTransferPrerequest)
        try easy.set(CURLOPT_PREREQDATA, pointer: me)
        if request.recordsSentHead {
            // libcurl hands what it writes to the debug callback only with VERBOSE on.
            try easy.set(CURLOPT_VERBOSE, 1)
            try easy.set(debugCallback: curlTransferDebug)
            try easy.set(CURLOPT_DEBUGDATA, pointer: me)
        }
        try easy.set(CURLOPT_HTTP_VERSION, configuration.httpVersion.curlValue)
        // A proxy's answer to CONNECT is not the response; its status is read apart
        // (CURLINFO_HTTP_CONNECTCODE), and a streamed response is handed back at its head's end.
        try easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        // Codings are undone here (ContentDecoder), never by libcurl, which would fail a response
        // whose Content-Encoding or Transfer-Encoding names one it does not know.
        try easy.set(CURLOPT_HTTP_CONTENT_DECODING, 0)
        if let presentedChainKey {
            try easy.set(sslContextCallback: PresentedChainRecorder.sslContextCallback)
            try easy.set(CURLOPT_SSL_CTX_DATA, pointer: UnsafeMutableRawPointer(bitPattern: presentedChainKey))
        }
        if request.url.scheme?.lowercased() == "https" {
            try easy.set(CURLOPT_PIPEWAIT, 1)
        }
        try easy.set(CURLOPT_TCP_KEEPALIVE, 1)
        try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caBundle = configuration.caBundle {
            try easy.set(CURLOPT_CAINFO, caBundle)
        }
        if let policy = governingTrustPolicy {
            try configureTrust(policy)
        }
        try configureProxy(request.proxyRoute ?? .environment)
        if let overrides = request.connectionOverrides {
            try configureConnection(overrides)
        }
        if let connect = request.timeouts.connect {
            try easy.set(CURLOPT_CONNECTTIMEOUT_MS, connect.wholeMilliseconds)
        }
        if let total = request.timeouts.total {
            try easy.set(CURLOPT_TIMEOUT_MS, total.wholeMilliseconds)
        }
        if let rate = request.maxTransferRate, rate > 0 {
            try easy.set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: rate)
            try easy.set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: rate)
        }
        if let limit = request.maxResponseSize {
            // Refuses a declared Content-Length over the limit before any body byte arrives;
            // `receiveBody` counts the decoded bytes of every other body.
            try easy.set(CURLOPT_MAXFILESIZE_LARGE, offset: limit)
        }
        decodesContent = configuration.decodesContent
        try configureMethodAndBody()
        try configureHeaders()
    }


    /// libcurl's side of a trust policy: what the handshake validates, against which anchors.
    /// Pinned connections keep no TLS session cache, so a resumed session (which may show no
    /// chain) never meets a pin.
    private func configureTrust(_ policy: TrustPolicy) throws(SluiceError) {
        try easy.set(CURLOPT_SSL_VERIFYPEER, policy.allowsInvalidCertificates ? 0 : 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, policy.validatesDomainName ? 2 : 0)
        if let caBundle = policy.caBundle {
            try easy.set(CURLOPT_CAINFO, caBundle)
        }
        if let anchors = policy.anchorsPEM {
            try easy.set(CURLOPT_CAINFO_BLOB, blob: anchors)
        }
        if let crlFile = policy.crlFile {
            try easy.set(CURLOPT_CRLFILE, crlFile)
        }
        if policy.requiresStapledOCSP {
            try easy.set(CURLOPT_SSL_VERIFYSTATUS, 1)
        }
        // A resumed session shows no chain to pin and may bring no staple.
        if policy.pinning != .none || policy.requiresStapledOCSP {
            try easy.set(CURLOPT_SSL_SESSIONID_CACHE, 0)
        }
        if let identity = policy.clientIdentity {
            try easy.set(CURLOPT_SSLCERT_BLOB, blob: identity.certificateBytes)
            try easy.set(CURLOPT_SSLCERTTYPE, identity.format.rawValue)
            if let key = identity.keyBytes {
                try easy.set(CURLOPT_SSLKEY_BLOB, blob: key)
                try easy.set(CURLOPT_SSLKEYTYPE, "PEM")
            } else if identity.format == .pem {
                try easy.set(CURLOPT_SSLKEY_BLOB, blob: identity.certificateBytes)
                try easy.set(CURLOPT_SSLKEYTYPE, "PEM")
            }
            if let password = identity.password {
                try easy.set(CURLOPT_KEYPASSWD, password)
            }
        }
    }

    /// libcurl reads the proxy variables itself when CURLOPT_PROXY is unset; an empty CURLOPT_PROXY
    /// turns every proxy off, and CURLOPT_NOPROXY, once set, takes the place of `NO_PROXY`.
    private func configureProxy(_ route: ProxyRoute) throws(SluiceError) {
        switch route {
        case .environment:
            break
        case .direct:
            try easy.set(CURLOPT_PROXY, "")
        case .through(let proxy):
            try easy.set(CURLOPT_PROXY, proxy.url.absoluteString)
            try easy.set(CURLOPT_NOPROXY, proxy.bypass.joined(separator: ","))
            if let caBundle = proxy.caBundle {
                try easy.set(CURLOPT_PROXY_CAINFO, caBundle)
            }
            if let username = proxy.username {
                try easy.set(CURLOPT_PROXYUSERNAME, username)
                try easy.set(CURLOPT_PROXYPASSWORD, proxy.password ?? "")
            }
        }
    }

    /// Where connections go instead of where the host name leads. `resolve` entries are handed to
    /// libcurl as connect-to entries (`HOST:PORT:ADDRESS:PORT`), not as `CURLOPT_RESOLVE`, which
    /// would put the address in the DNS cache the multi handle shares, for every later request to
    /// that name; libcurl keeps connections made with a connect-to or a socket path apart from
    /// others.
    private func configureConnection(_ overrides: ConnectionOverrides) throws(SluiceError) {
        if let path = overrides.unixSocketPath {
            try easy.set(CURLOPT_UNIX_SOCKET_PATH, path)
        }
        // libcurl reuses a connection only for a request that asks for the same IP version.
        switch overrides.ipVersion {
        case .v4?: try easy.set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V4))
        case .v6?: try easy.set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V6))
        case nil: break
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in overrides.resolve {
            let address = entry.address.contains(":") ? "[\(entry.address)]" : entry.address
            list = curl_slist_append(list, "\(entry.host):\(entry.port):\(address):\(entry.port)")
        }
        for entry in overrides.connectTo {
            list = curl_slist_append(list, entry.description)
        }
        connectToList = list
        if let list {
            try easy.set(CURLOPT_CONNECT_TO, list: list)
        }
    }

    private func configureMethodAndBody() throws(SluiceError) {
        let method = request.method
        if method == .head {
            try easy.set(CURLOPT_NOBODY, 1)
            return
        }
        // Whether libcurl is told to send a body (CURLOPT_POST), which makes its method POST.
        var sendsBody = true
        if let size = upload?.size {
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: size)
        } else if let streamedUpload {
            // -1: the size is unknown. libcurl then sends the body chunked over HTTP/1.1 and adds the
            // field itself, and over HTTP/2, which forbids the field, frames it in DATA frames;
            // writing `Transfer-Encoding: chunked` here would break HTTP/2 (nginx refuses the stream).
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: streamedUpload.length ?? -1)
        } else if (method == .post || method == .put || method == .patch) && !request.omitsHeader("Content-Length") {
            // RFC 9110 8.6: send `Content-Length: 0` when the method gives content a meaning.
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: 0)
        } else if method == .get {
            try easy.set(CURLOPT_HTTPGET, 1)
            return
        } else {
            sendsBody = false
        }
        // Any other method is named; so is a body-less POST that omits Content-Length, which then
        // goes out as the method alone, as curl's -X POST sends it.
        if method != .post || !sendsBody {
            try easy.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
        }
    }

    /// The request's header fields as libcurl sends them. Content codings are asked for here, not
    /// with `CURLOPT_ACCEPT_ENCODING`: libcurl would then decode too, and fail a response in a
    /// coding it does not know instead of passing its body through (``ContentDecoder``).
    private func configureHeaders() throws(SluiceError) {
        var list: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) {
            list = curl_slist_append(list, line)
        }
        for field in request.headers {
            append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        // "Name:" is libcurl's way to send a field not at all, its own defaults included.
        for name in request.omittedHeaders where !request.headers.contains(name) {
            append("\(name):")
        }
        if decodesContent, !request.headers.contains("Accept-Encoding"), !request.omitsHeader("Accept-Encoding") {
            append("Accept-Encoding: \(ContentCoding.acceptEncoding)")
        }
        // libcurl adds these on its own for bodies; a request that did not ask for them sends neither.
        if upload != nil || streamedUpload != nil || request.method == .post {
            if !request.headers.contains("Content-Type"), !request.omitsHeader("Content-Type") { append("Content-Type:") }
            if !request.headers.contains("Expect"), !request.omitsHeader("Expect") { append("Expect:") }
        }
        headerList = list
        if let list {
            try easy.set(CURLOPT_HTTPHEADER, list: list)
        }
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
    func pauseMask(after change: TransferState.PauseChange) -> Int32 {
        let pauses = state.pauses(after: change)
        return (pauses.contains(.receive) ? Int32(SLUICE_CURLPAUSE_RECV) : 0) | (pauses.contains(.send) ? Int32(SLUICE_CURLPAUSE_SEND) : 0)
    }

    // MARK: libcurl callbacks (I/O thread)

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !bytes.isEmpty else { return 0 }
        guard state.admitsWireBytes(bytes.count) else { return 0 }
        if let bodyChannel {
            guard bodyChannel.offer(bytes) else {
                // libcurl keeps these bytes and hands them over again once receiving resumes.
                state.receiverFellBehind()
                return Int(CURL_WRITEFUNC_PAUSE)
            }
            state.countWireBytes(bytes.count)
            return bytes.count
        }
        state.countWireBytes(bytes.count)
        guard let decoder else {
            return take(bytes) ? bytes.count : 0
        }
        decoder.append(bytes)
        do {
            while let piece = try decoder.next() {
                guard piece.withUnsafeBytes(take) else { return 0 }
            }
        } catch {
            state.fail(.undecodableBody(error, url: request.url))
            return 0
        }
        return bytes.count
    }

    /// Keeps decoded body bytes, in memory or in the download file; `false` (the state failed)
    /// when they pass `maxResponseSize` or the file cannot take them.
    private func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard state.takesDecodedBytes(bytes.count) else { return false }
        if let downloadFile {
            do {
                try downloadFile.write(bytes)
                fileBytes += Int64(bytes.count)
            } catch {
                state.fail(error)
                return false
            }
        } else if !bytes.isEmpty {
            body.append(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        return true
    }

    fileprivate func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        guard let event = state.takeHeadLine(line) else { return 0 }
        switch event {
        case .finalStatus(let status):
            events.responseStarted(status: status)
        case .headComplete:
            if request.resumeOffset != nil, downloadFile != nil, !takeResumedHead() { return 0 }
            reserveBodyCapacity()
            let codings = decodesContent ? ContentCoding.codings(in: state.head.headers.values(for: "Content-Encoding")) ?? [] : []
            state.headEnded(codings: codings)
            if bodyChannel != nil {
                deliverStreamedHead(codings: codings)
            } else {
                decoder = ContentDecoder(codings)
            }
        case nil:
            break
        }
        return line.count
    }

    /// What a resumed download's file gets from the final head: a `206` that starts where the
    /// kept bytes end is appended; a `200` is written from the start; any other status leaves the
    /// file alone, its body kept in memory. `false` (the state failed) for a `206` that starts
    /// elsewhere.
    private func takeResumedHead() -> Bool {
        guard let offset = request.resumeOffset, let file = downloadFile else { return true }
        switch state.head.status {
        case 206?:
            guard state.head.headers["Content-Range"].flatMap(ContentRange.init) == .satisfied(first: offset) else {
                state.fail(SluiceError(
                    kind: .protocolError, stage: "transport", url: request.url,
                    message: "the server answered the range from byte \(offset) with \(state.head.headers["Content-Range"].map { "Content-Range \($0)" } ?? "no Content-Range"), not bytes from \(offset)"
                ))
                return false
            }
            fileOffset = offset
        case 200?:
            do {
                try file.restart()
            } catch {
                state.fail(error)
                return false
            }
        default:
            downloadFile = nil
        }
        return true
    }

    /// What a download cut after its body began needs to go on: `nil` for a body kept in memory,
    /// a status other than `200` (or a resumed `206`), a body in a content coding (its ranges
    /// would not count the bytes kept), or no byte kept.
    private func resumeData() -> DownloadResumeData? {
        guard downloadFile != nil, state.head.isComplete, case .file(let file) = request.destination,
            state.head.status == 200 || (state.head.status == 206 && request.resumeOffset != nil),
            state.head.headers.values(for: "Content-Encoding").allSatisfy({ $0.lowercased() == "identity" }),
            fileOffset + fileBytes > 0
        else { return nil }
        return DownloadResumeData(
            url: request.url, destination: file, partialFile: file, offset: fileOffset + fileBytes,
            entityTag: state.head.headers["ETag"], lastModified: state.head.headers["Last-Modified"]
        )
    }

    /// Sizes the in-memory body once from `Content-Length`, so it is not regrown chunk by chunk.
    private func reserveBodyCapacity() {
        guard downloadFile == nil, !state.head.headers.contains("Content-Encoding"),
            let length = state.head.headers["Content-Length"].flatMap(Int.init), length > 0
        else { return }
        body.reserveCapacity(min(length, 16 << 20))
    }

    /// Hands a streamed response back as soon as its head has ended; the body follows through
    /// its channel, which the reader drains and the transfer fills.
    private func deliverStreamedHead(codings: [ContentCoding] = []) {
        guard let bodyChannel, let continuation else { return }
        self.continuation = nil
        bodyChannel.attach(ResponseBodyChannel.Producer(
            resume: { [self] in loop.enqueue(.resumeReceiving(self)) },
            cancel: { [self] in requestCancel() }
        ))
        let metrics = readMetrics()
        continuation.resume(returning: Response(
            status: state.head.status ?? easy.long(CURLINFO_RESPONSE_CODE),
            headers: state.head.headers,
            url: request.url,
            httpVersion: metrics.httpVersion,
            metrics: metrics,
            bodyStream: ResponseBodyStream(
                channel: bodyChannel, url: request.url, transport: owner,
                decoding: codings, maxDecodedSize: request.maxResponseSize
            )
        ))
    }

    fileprivate func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let streamedUpload {
            switch streamedUpload.read(into: buffer) {
            case .bytes(let count):
                if streamedUpload.gaveDeclaredLength { reportRequestSent() }
                return count
            case .wait:
                state.producerFellBehind()
                return Int(CURL_READFUNC_PAUSE)
            case .end:
                reportRequestSent()
                return 0
            case .failed(let error):
                state.fail(error)
                return Int(CURL_READFUNC_ABORT)
            }
        }
        do {
            guard let upload else { return 0 }
            let count = try upload.read(into: buffer)
            // libcurl stops asking once it has `size` bytes, so the last byte read, not a read
            // of 0, marks the body as handed over.
            if upload.isExhausted { reportRequestSent() }
            return count
        } catch {
            state.fail(error)
            return Int(CURL_READFUNC_ABORT)
        }
    }

    fileprivate func rewindBody(to offset: Int64) -> Int32 {
        guard let upload, upload.rewind(to: offset) else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        state.bodyRewound()
        return Int32(CURL_SEEKFUNC_OK)
    }

    fileprivate func reportProgress(downloadTotal: Int64, downloadNow: Int64, uploadNow: Int64) {
        let progress = TaskProgress(
            upload: TransferProgress(completed: uploadNow, expected: upload?.size),
            download: TransferProgress(completed: downloadNow, expected: downloadTotal > 0 ? downloadTotal : nil)
        )
        guard progress != lastProgress else { return }
        lastProgress = progress
        events.progressed(progress)
    }

    fileprivate func connectionReady(remoteAddress: String, remotePort: Int) -> Int32 {
        state.connectionReady()
        let scheme = request.url.scheme?.lowercased() ?? "http"
        let connection = ConnectionInfo(
            host: request.url.host ?? "",
            port: request.url.portOrDefault,
            scheme: scheme,
            remoteAddress: remoteAddress,
            remotePort: remotePort,
            peer: scheme == "https" ? openSSLSession().map(OpenSSLPeer.init(session:)) : nil
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

    private func reportRequestSent() {
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
        var result = result
        if case .failure(var error) = result, let resumeData = resumeData() {
            error.resumeData = resumeData
            result = .failure(error)
        }
        releaseResources()
        loop.pool.recycle(easy)
        events.transferFinished(control: self, metrics: metrics)
        if let bodyChannel {
            if continuation != nil, case .success = result {
                // A head libcurl never showed ended (a response with no header section): the
                // stream still gets its response, already whole.
                deliverStreamedHead()
            }
            bodyChannel.finish(result.map { _ in metrics })
        }
        let continuation = self.continuation
        self.continuation = nil
        continuation?.resume(with: result.mapError { $0 as any Error })
    }

    private func response(metrics: TransferMetrics) -> Result<Response, SluiceError> {
        let received = lastProgress.download.completed
        events.progressed(TaskProgress(
            upload: lastProgress.upload,
            download: TransferProgress(completed: received, expected: lastProgress.download.expected ?? received)
        ))
        return .success(Response(
            status: easy.long(CURLINFO_RESPONSE_CODE),
            headers: state.head.headers,
            body: body,
            url: request.url,
            httpVersion: metrics.httpVersion,
            metrics: metrics
        ))
    }

    /// The error libcurl's `code` ends the exchange with: what the shell reads of libcurl, decided
    /// by ``TransferState/error(for:)``.
    private func failure(for code: CURLcode) -> SluiceError {
        let cause: TransferState.Ending.Cause =
            switch code {
            case CURLE_ABORTED_BY_CALLBACK: .abortedByCallback
            case CURLE_FILESIZE_EXCEEDED: .fileSizeExceeded
            case CURLE_OUT_OF_MEMORY: .outOfMemory
            default: .other
            }
        // The pre-request callback, not libcurl's connect times (zero on a reused connection), tells
        // whether the connection and its TLS handshake were done.
        let ending = TransferState.Ending(
            code: Int(code.rawValue),
            cause: cause,
            kind: SluiceError.Kind(curlCode: code, connected: state.connectionWasReady),
            message: code == CURLE_SSL_INVALIDCERTSTATUS ? certificateStatusMessage() : easy.message(for: code),
            presented: presentedChainKey.flatMap(PresentedChainRecorder.take).map { ($0.reason, $0.certificates) },
            proxyRefusal: proxyRefusal(code)
        )
        return state.error(for: ending)
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

    private func readMetrics() -> TransferMetrics {
        let nameLookup = easy.duration(CURLINFO_NAMELOOKUP_TIME_T)
        let connected = easy.duration(CURLINFO_CONNECT_TIME_T)
        let tlsDone = easy.duration(CURLINFO_APPCONNECT_TIME_T)
        let version: HTTPVersion
        switch easy.long(CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): version = .http1_0
        case Int(CURL_HTTP_VERSION_1_1): version = .http1_1
        case Int(CURL_HTTP_VERSION_2_0): version = .http2
        case Int(CURL_HTTP_VERSION_3): version = .http3
        default: version = .unknown
        }
        let remotePort = easy.long(CURLINFO_PRIMARY_PORT)
        let localPort = easy.long(CURLINFO_LOCAL_PORT)
        var metrics = TransferMetrics(
            dnsLookup: nameLookup,
            connect: max(.zero, connected - nameLookup),
            tlsHandshake: tlsDone > .zero ? max(.zero, tlsDone - connected) : .zero,
            timeToPreTransfer: easy.duration(CURLINFO_PRETRANSFER_TIME_T),
            timeToFirstByte: easy.duration(CURLINFO_STARTTRANSFER_TIME_T),
            total: easy.duration(CURLINFO_TOTAL_TIME_T),
            bytesSent: Int64(easy.long(CURLINFO_REQUEST_SIZE)) + easy.offset(CURLINFO_SIZE_UPLOAD_T),
            bytesReceived: Int64(easy.long(CURLINFO_HEADER_SIZE)) + easy.offset(CURLINFO_SIZE_DOWNLOAD_T),
            connectionReused: easy.long(CURLINFO_NUM_CONNECTS) == 0,
            httpVersion: version,
            remoteAddress: easy.string(CURLINFO_PRIMARY_IP),
            remotePort: remotePort > 0 ? remotePort : nil,
            localPort: localPort > 0 ? localPort : nil
        )
        metrics.peerCertificates = peerCertificates
        metrics.requestSentAt = requestSentAt
        metrics.reasonPhrase = state.head.reasonPhrase
        if let sentHead { metrics.sentHead = String(decoding: sentHead, as: UTF8.self) }
        return metrics
    }

    /// Keeps what libcurl wrote of the request head (I/O thread, from the debug callback).
    fileprivate func recordSentHead(_ bytes: UnsafeRawBufferPointer) {
        sentHead = (sentHead ?? []) + bytes
    }

    /// Frees the header list and lets go of the body files (the transport commits a download's).
    private func releaseResources() {
        if let list = headerList {
            curl_slist_free_all(list)
            headerList = nil
        }
        if let list = connectToList {
            curl_slist_free_all(list)
            connectToList = nil
        }
        upload = nil
        owner = nil
        streamedUpload?.cancel()
        streamedUpload = nil
        downloadFile = nil
    }
}

// MARK: C entry points

private func transfer(_ userdata: UnsafeMutableRawPointer?) -> CurlTransfer {
    Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
}

private let curlTransferWrite: sluice_data_callback = { buffer, size, count, userdata in
    transfer(userdata).receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let curlTransferHeader: sluice_data_callback = { buffer, size, count, userdata in
    transfer(userdata).receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let curlTransferRead: sluice_data_callback = { buffer, size, count, userdata in
    transfer(userdata).readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

private let curlTransferSeek: sluice_seek_callback = { userdata, offset, origin in
    guard origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    return transfer(userdata).rewindBody(to: Int64(offset))
}

private let curlTransferProgress: sluice_xferinfo_callback = { userdata, downloadTotal, downloadNow, _, uploadNow in
    transfer(userdata).reportProgress(downloadTotal: Int64(downloadTotal), downloadNow: Int64(downloadNow), uploadNow: Int64(uploadNow))
    return 0
}

private let curlTransferDebug: sluice_debug_callback = { _, type, data, size, userdata in
    if type == CURLINFO_HEADER_OUT, let data {
        transfer(userdata).recordSentHead(UnsafeRawBufferPointer(start: data, count: size))
    }
    return 0
}

private let curlTransferPrerequest: sluice_prereq_callback = { userdata, primaryIP, _, primaryPort, _ in
    let address = primaryIP.map { String(cString: $0) } ?? ""
    return transfer(userdata).connectionReady(remoteAddress: address, remotePort: Int(primaryPort))
}

extension Duration {
    /// The duration in whole milliseconds, at least 1 for any positive duration (libcurl reads 0
    /// as "no limit").
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        return self > .zero ? max(1, milliseconds) : 0
    }
}
