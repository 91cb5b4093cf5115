import Foundation
import SluiceCore

/// The decisions of one exchange on the libcurl transport, apart from libcurl: the phase it is in
/// and its caller's continuation, what pauses it, the limits on its head and body, what failed it
/// first, and how its end becomes a result.
///
/// ``CurlTransfer`` is the shell around it: it turns libcurl's callbacks into calls here and the
/// answers (return codes, and the actions ending the exchange) into libcurl's and the caller's,
/// so everything decided here is tested without a socket (as AsyncHTTPClient keeps
/// `HTTPRequestStateMachine` apart from its channel handler, and its `Transaction` keeps the
/// continuation inside its state machine). `Caller` is what resumes the task waiting for the
/// response: an `UnsafeContinuation` in the shell, any value in a test. I/O thread only, as the
/// transfer's state is, but for ``start(_:)``, which the task makes before it hands the transfer to
/// the loop.
struct TransferState<Caller> {
    /// Where the exchange is. The caller waits in ``waiting(_:)``, and no other phase holds it, so
    /// it is resumed once.
    enum Phase {
        /// Made and configured; not yet handed to the loop.
        case idle
        /// On the loop; the caller waits for the response, or for a streamed response's head.
        case waiting(Caller)
        /// A streamed response was handed back at its head; its body flows through its channel.
        case streaming
        /// Ended: every later end is ignored.
        case ended
    }

    /// What the shell does to end the exchange, in the order given.
    enum EndAction {
        /// Hand a streamed response back to `Caller`: its head never showed (a response with no
        /// header section), and it is already whole.
        case deliverHead(Caller)
        /// End a streamed body with its metrics, or its error.
        case endBody(Result<TransferMetrics?, SluiceError>)
        /// Resume the caller with the response or the error.
        case resume(Caller, Result<Response, SluiceError>)
    }

    /// The actions ending an exchange takes, in order: at most two, held inline, so that ending
    /// allocates nothing.
    struct EndActions {
        var first: EndAction?
        var second: EndAction?

        /// The actions, in order.
        var list: [EndAction] { [first, second].compactMap(\.self) }
    }

    /// The phase the exchange is in.
    private(set) var phase = Phase.idle

    /// The most bytes of response head (status lines and header fields, interim responses
    /// included) an exchange takes: libcurl 7.88 limits each line to 100 KiB but not their number,
    /// so a server could otherwise grow the head without end. 300 KiB is later libcurl's own total.
    static var maxHeadSize: Int { 300 * 1024 }

    /// The directions libcurl is to hold still.
    typealias Pauses = TransferPauses

    /// What pauses the exchange now changed.
    enum PauseChange {
        /// The task was suspended (`true`) or resumed (`false`).
        case taskSuspended(Bool)
        /// The reader of a streamed body made room.
        case receiveResumed
        /// The producer of a streamed upload has a piece ready.
        case sendResumed
    }

    /// What a trust check refused, for the error the exchange ends with.
    struct TrustRejection {
        /// Why.
        var reason: String
        /// The stage to name: `trust-evaluation` for the request's policy, `transport` for an
        /// event monitor's veto.
        var stage: String
        /// What the server presented.
        var presented: [X509Certificate]
    }

    /// How libcurl ended an exchange that failed, as the shell reads it.
    struct Ending {
        /// Why libcurl stopped.
        enum Cause: Equatable {
            /// A callback (the pre-request trust check, or a write or read refused) aborted it.
            case abortedByCallback
            /// libcurl ran out of memory, which 7.88 also says of a header line past 100 KiB.
            case outOfMemory
            /// Anything else.
            case other
        }

        /// libcurl's code.
        var code: Int
        var cause: Cause
        /// What the code means once it is known whether the connection was ready.
        var kind: SluiceError.Kind
        /// libcurl's words for it.
        var message: String
        /// What the server presented in a TLS handshake that failed, when it showed anything.
        var presented: (reason: String?, certificates: [X509Certificate])?
        /// How a proxy refused, in plain words, when one did.
        var proxyRefusal: String?
        /// The HTTPS proxy, named, when its TLS handshake is the one that failed; `nil` for the
        /// origin's.
        var failedTLSProxy: String?
        /// A sentence on what to change, for a TLS failure whose cause the settings explain.
        var tlsHint: String?
    }

    let url: URL
    let maxResponseSize: Int64?

    private(set) var head = ResponseHeadParser()
    /// Bytes of response heads taken so far, interim ones included.
    private(set) var headBytes = 0
    /// Body bytes as they came, before content decoding, held to `rawBodyLimit`.
    private(set) var rawBodyBytes: Int64 = 0
    /// Body bytes taken so far, after content decoding, held to `maxResponseSize`.
    private(set) var bodyBytes: Int64 = 0
    /// The most body bytes taken off the wire: `maxResponseSize` itself for a body that is not
    /// decoded, ``rawLimit(for:)`` of it for one that is; `nil` until the head ends, and without
    /// a limit.
    private(set) var rawBodyLimit: Int64?
    private var pausedByTask = false
    private var pausedByBody: Pauses = []
    /// The first failure of the exchange's own (a limit, a body that does not decode, a file that
    /// cannot be written), which becomes its error whatever code libcurl then reports.
    private(set) var failure: SluiceError?
    private(set) var trustRejection: TrustRejection?
    /// Whether libcurl had a connection ready for the request (its pre-request callback ran): a
    /// failure after that is the server's, never a connect failure.
    private(set) var connectionWasReady = false
    private var requestSentReported = false

    init(url: URL, maxResponseSize: Int64?) {
        self.url = url
        self.maxResponseSize = maxResponseSize
    }

    // MARK: Phases

    /// The exchange is handed to the loop, `caller` waiting: idle to waiting. `false`, changing
    /// nothing, in any other phase (a transfer starts once).
    mutating func start(_ caller: Caller) -> Bool {
        guard case .idle = phase else { return false }
        phase = .waiting(caller)
        return true
    }

    /// A streamed response's head ended: waiting to streaming, and the caller to hand it to; `nil`,
    /// changing nothing, in any other phase.
    mutating func streamHeadEnded() -> Caller? {
        guard case .waiting(let caller) = phase else { return nil }
        phase = .streaming
        return caller
    }

    /// The exchange ended with `result` (the response of a body taken whole, or the error), its
    /// metrics `metrics`: to ended, and what the shell does, in order. A streamed body
    /// (`streamsBody`) is ended in its channel, after its head is handed back if it never was; a
    /// caller still waiting is resumed; nothing, once ended.
    mutating func end(with result: Result<Response, SluiceError>, metrics: TransferMetrics?, streamsBody: Bool) -> EndActions {
        let previous = phase
        phase = .ended
        let bodyEnd = result.map { _ in metrics }
        switch previous {
        case .idle, .ended:
            return EndActions()
        case .streaming:
            return EndActions(first: .endBody(bodyEnd))
        case .waiting(let caller) where streamsBody:
            if case .success = result { return EndActions(first: .deliverHead(caller), second: .endBody(bodyEnd)) }
            return EndActions(first: .endBody(bodyEnd), second: .resume(caller, result))
        case .waiting(let caller):
            return EndActions(first: .resume(caller, result))
        }
    }

    // MARK: Pausing

    /// Records a change and returns what libcurl is to hold still now: everything while the task
    /// is suspended, else whatever the body's reader or producer is not ready for.
    mutating func pauses(after change: PauseChange) -> Pauses {
        switch change {
        case .taskSuspended(let suspended): pausedByTask = suspended
        case .receiveResumed: pausedByBody.remove(.receive)
        case .sendResumed: pausedByBody.remove(.send)
        }
        return pausedByTask ? [.receive, .send] : pausedByBody
    }

    /// The reader of a streamed body refused bytes: libcurl keeps them and pauses receiving until
    /// ``PauseChange/receiveResumed``.
    mutating func receiverFellBehind() {
        pausedByBody.insert(.receive)
    }

    /// The producer of a streamed upload has no piece ready: sending pauses until
    /// ``PauseChange/sendResumed``.
    mutating func producerFellBehind() {
        pausedByBody.insert(.send)
    }

    // MARK: The head

    /// Takes a line of a response head; `nil` for a line past ``maxHeadSize``, which fails the
    /// exchange (with curl 7.88's code for its own limit of the same size, 56), else what the line
    /// ended, if anything.
    mutating func takeHeadLine(_ line: UnsafeRawBufferPointer) -> ResponseHeadParser.Event?? {
        headBytes += line.count
        if headBytes > TransferState.maxHeadSize {
            var error = SluiceError(
                kind: .protocolError, stage: "transport", url: url,
                message: "the response's header fields passed \(TransferState.maxHeadSize / 1024) KiB; the exchange was stopped there"
            )
            error.curlCode = 56
            fail(error)
            return nil
        }
        return .some(head.consume(line))
    }

    /// The final head ended, its body coded with `codings`: sets the limit on the bytes taken off
    /// the wire, and refuses a body whose declared `Content-Length` passes it before a byte of it
    /// is read, as curl's `--max-filesize` does, with the head kept for the caller to show (where
    /// libcurl's own `CURLOPT_MAXFILESIZE` refuses it at that header line, before the head ends).
    /// - Parameter hasBody: whether the response has a body at all (not the answer to a HEAD, nor
    ///   a 204 or 304), whose `Content-Length` then counts.
    /// - Returns: whether the exchange goes on; when it does not, it fails with
    ///   `.responseTooLarge` and curl's code for it, 63.
    mutating func headEnded(codings: [ContentCoding], hasBody: Bool) -> Bool {
        rawBodyLimit = maxResponseSize.map { codings.isEmpty ? $0 : TransferState.rawLimit(for: $0) }
        guard hasBody, let limit = maxResponseSize, let rawBodyLimit,
            let declared = head.headers["Content-Length"].flatMap(Int64.init), declared > rawBodyLimit
        else { return true }
        var error = SluiceError.responseTooLarge(limit: limit, url: url, declared: declared)
        error.curlCode = 63
        fail(error)
        return false
    }

    /// The most bytes a body may take on the wire under a `maxResponseSize` of `limit` counted
    /// after decoding: the limit plus what the codings add at worst to bytes they cannot shrink
    /// (deflate about 5 bytes per 16 KiB block, zstd and brotli less), with room to spare. So a
    /// coded body that decodes to little or nothing (empty deflate blocks without end) cannot
    /// run on forever under a limit counted after decoding.
    static func rawLimit(for limit: Int64) -> Int64 {
        limit + limit / 256 + 4096
    }

    // MARK: The body

    /// Whether `count` more bytes off the wire stay within the limit; when they do not, the
    /// exchange fails with `.responseTooLarge`. They count once ``countWireBytes(_:)`` says so (a
    /// streamed body's reader may refuse them first).
    mutating func admitsWireBytes(_ count: Int) -> Bool {
        guard let limit = maxResponseSize, let rawBodyLimit, rawBodyBytes + Int64(count) > rawBodyLimit else { return true }
        fail(.responseTooLarge(limit: limit, url: url))
        return false
    }

    /// Counts bytes taken off the wire.
    mutating func countWireBytes(_ count: Int) {
        rawBodyBytes += Int64(count)
    }

    /// Counts `count` decoded body bytes, unless they pass `maxResponseSize`, which fails the
    /// exchange with `.responseTooLarge`.
    mutating func takesDecodedBytes(_ count: Int) -> Bool {
        if let limit = maxResponseSize, bodyBytes + Int64(count) > limit {
            fail(.responseTooLarge(limit: limit, url: url))
            return false
        }
        bodyBytes += Int64(count)
        return true
    }

    /// Fails the exchange with an error of its own: it ends with `error` whatever code libcurl
    /// reports for the callback that refused.
    mutating func fail(_ error: SluiceError) {
        failure = error
    }

    // MARK: The connection

    /// libcurl has a connection ready for the request, new or reused.
    mutating func connectionReady() {
        connectionWasReady = true
    }

    /// A trust check refused the connection; the pre-request callback aborts the exchange.
    mutating func rejectTrust(_ rejection: TrustRejection) {
        trustRejection = rejection
    }

    /// Whether the request is now sent whole for the first time, to be reported once.
    mutating func requestSent() -> Bool {
        guard !requestSentReported else { return false }
        requestSentReported = true
        return true
    }

    /// libcurl rewound the request body to send it again (a redirect or an authentication
    /// round): it will be sent, and reported, anew.
    mutating func bodyRewound() {
        requestSentReported = false
    }

    // MARK: The end

    /// The error an exchange that libcurl ended with `ending` fails with, first match wins: a
    /// trust rejection that aborted it; a TLS failure with what the server presented; the
    /// exchange's own failure (keeping its own curl code, else libcurl's); a declared length past
    /// the limit; a proxy's refusal; a header line past libcurl's limit; libcurl's own words.
    func error(for ending: Ending) -> SluiceError {
        if let trustRejection, ending.cause == .abortedByCallback {
            var error = SluiceError(
                kind: .trustEvaluation, stage: trustRejection.stage, url: url, message: trustRejection.reason, transportCode: ending.code
            )
            error.presentedCertificates = trustRejection.presented
            return error
        }
        if let presented = ending.presented, ending.kind == .tls {
            let why = presented.reason.map { "\($0) (\(ending.message))" } ?? ending.message
            let shown = presented.certificates.isEmpty ? "no certificate" : presented.certificates.map(\.details).joined(separator: "; ")
            let peer = ending.failedTLSProxy ?? url.host ?? "the server"
            let hint = ending.tlsHint.map { " " + $0 } ?? ""
            var error = SluiceError(
                kind: .tls, stage: "transport", url: url,
                message: "the TLS handshake with \(peer) failed: \(why). The \(ending.failedTLSProxy == nil ? "server" : "proxy") presented: \(shown).\(hint)",
                transportCode: ending.code
            )
            error.presentedCertificates = presented.certificates
            return error
        }
        if var failure {
            failure.url = url
            if failure.curlCode == nil { failure.curlCode = ending.code }
            return failure
        }
        if let refusal = ending.proxyRefusal {
            return SluiceError(kind: .proxy, stage: "transport", url: url, message: refusal, transportCode: ending.code)
        }
        if ending.cause == .outOfMemory, !head.isComplete {
            return SluiceError(
                kind: .protocolError, stage: "transport", url: url,
                message: "a response header line is longer than libcurl's limit of 100 KiB", transportCode: ending.code
            )
        }
        return SluiceError(kind: ending.kind, stage: "transport", url: url, message: ending.message, transportCode: ending.code)
    }
}

/// The directions libcurl is to hold an exchange still in (``TransferState/Pauses``).
struct TransferPauses: OptionSet, Equatable {
    let rawValue: UInt8
    /// Taking response bytes.
    static let receive = TransferPauses(rawValue: 1)
    /// Sending request bytes.
    static let send = TransferPauses(rawValue: 2)
}
