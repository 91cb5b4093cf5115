import Foundation

/// The one error type Sluice throws: what went wrong (`kind`), where (`stage`, `url`), and the
/// details (`message`, libcurl's own code and text).
///
/// `Kind` is a struct over a private code, so new kinds can be added without breaking a caller's
/// `switch`: compare with `==` (`error.kind == .timeout`) instead.
public struct SluiceError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable {
            case invalidRequest = "invalid request"
            case dns = "DNS failure"
            case connect = "connection failed"
            case connectTimeout = "connect timeout"
            case timeout = "timeout"
            case tls = "TLS failure"
            case trustEvaluation = "trust evaluation failed"
            case connectionLost = "connection lost"
            case protocolError = "protocol error"
            case fileIO = "file I/O failure"
            case cancelled = "cancelled"
            case invalidated = "invalidated"
            case stage = "stage failure"
            case configuration = "invalid configuration"
            case serialization = "serialization failure"
            case unacceptableStatus = "unacceptable status"
            case unacceptableContentType = "unacceptable content type"
            case decoding = "decoding failure"
            case tooManyRedirects = "too many redirects"
            case redirectLoop = "redirect loop"
            case responseTooLarge = "response too large"
            case insecureRedirect = "insecure redirect"
            case proxy = "proxy failure"
            case transport = "transport failure"
            case notReachable = "not reachable"
            case authentication = "authentication failed"
        }

        private let code: Code

        private init(_ code: Code) {
            self.code = code
        }

        /// The request cannot be sent as it is: a relative or non-HTTP URL, a malformed header.
        public static let invalidRequest = Kind(.invalidRequest)
        /// The host name could not be resolved.
        public static let dns = Kind(.dns)
        /// The connection could not be established (refused, unreachable).
        public static let connect = Kind(.connect)
        /// The connection was not established within the connect timeout.
        public static let connectTimeout = Kind(.connectTimeout)
        /// The exchange did not finish within the total timeout.
        public static let timeout = Kind(.timeout)
        /// The TLS handshake failed or the server's certificate did not verify.
        public static let tls = Kind(.tls)
        /// The task's trust policy rejected the connection before any request byte was sent.
        public static let trustEvaluation = Kind(.trustEvaluation)
        /// The connection broke mid-exchange: reset, closed early, nothing received.
        public static let connectionLost = Kind(.connectionLost)
        /// The server broke the protocol: a malformed response, an HTTP/2 stream error, a bad
        /// content encoding.
        public static let protocolError = Kind(.protocolError)
        /// Reading an upload file or writing a download file failed.
        public static let fileIO = Kind(.fileIO)
        /// The task was cancelled.
        public static let cancelled = Kind(.cancelled)
        /// The session manager was invalidated, or its transport shut down, so it takes no new work.
        public static let invalidated = Kind(.invalidated)
        /// A stage failed with an error of its own (kept in `underlying`).
        public static let stage = Kind(.stage)
        /// A stage or pipeline was configured in a way that cannot work (pinning with no pins, an
        /// unreadable pin file): raised when the pipeline is built, never when a request is sent.
        public static let configuration = Kind(.configuration)
        /// The request's parameters or parts cannot be written in the serialization stage's format
        /// (the message names the value's key path), or a part's file cannot be read.
        public static let serialization = Kind(.serialization)
        /// Response decoding found a status outside the acceptable ones. `response` holds the
        /// response, its body decoded where that worked, so the server's message is at hand.
        public static let unacceptableStatus = Kind(.unacceptableStatus)
        /// Response decoding found a content type outside the acceptable ones; the body was not
        /// decoded. `response` holds the response.
        public static let unacceptableContentType = Kind(.unacceptableContentType)
        /// The response body is not valid in the expected format (JSON, property list, the
        /// charset of a string). `response` holds the response.
        public static let decoding = Kind(.decoding)
        /// A redirect chain went on past the redirect stage's hop limit.
        public static let tooManyRedirects = Kind(.tooManyRedirects)
        /// A redirect led back to a request already made in the same chain.
        public static let redirectLoop = Kind(.redirectLoop)
        /// The response body, decoded, grew past the request's `maxResponseSize`; the transfer was
        /// stopped there, so no more than the limit was ever kept.
        public static let responseTooLarge = Kind(.responseTooLarge)
        /// A redirect led from `https` to `http` (refused unless allowed), or to a scheme other
        /// than `http` and `https`.
        public static let insecureRedirect = Kind(.insecureRedirect)
        /// The proxy refused the request or its CONNECT tunnel (407 without the right credentials, a
        /// 403 from its rules), or its name could not be resolved; the message names the proxy and
        /// its answer.
        public static let proxy = Kind(.proxy)
        /// The transport failed in a way none of the other kinds names.
        public static let transport = Kind(.transport)
        /// No route leads to the host (the `reachability` stage found none, and was not asked to
        /// wait for one): nothing was sent.
        public static let notReachable = Kind(.notReachable)
        /// The server asked for authentication the client cannot give: no scheme it offered is
        /// one the credential allows or Sluice answers (the message names those it offered), or
        /// the answer would send again a body that can be read only once.
        public static let authentication = Kind(.authentication)

        /// A short phrase for the kind, for example `connect timeout`.
        public var description: String { code.rawValue }
    }

    /// What went wrong.
    public var kind: Kind
    /// The stage that raised the error, by name, or `transport`; `nil` when it came from outside
    /// the chain (the manager itself).
    public var stage: String?
    /// The URL of the request the error belongs to.
    public var url: URL?
    /// A sentence saying what happened.
    public var message: String
    /// The transport's own code for the failure, when its library gave one (the libcurl
    /// transport's `curlCode` reads it as libcurl's CURLcode).
    public var transportCode: Int?
    /// The error a stage threw, when it was not a `SluiceError`.
    public var underlying: (any Error)?
    /// The response the error is about, when there was one: its status, headers and raw body
    /// (and the decoded body, where decoding worked), for errors of response decoding; for a
    /// transfer that failed after its head came (a body cut short, a timeout mid-body, a body
    /// past the limit), that head and the bytes that came before the failure.
    public var response: Response? {
        get { responseBox?.value }
        set { responseBox = newValue.map(Box.init) }
    }
    /// The response behind a reference: an error is copied through every stage's async frame,
    /// and most errors have no response, so it costs one pointer there instead of its full size.
    private var responseBox: Box<Response>?
    /// For `.tls` and `.trustEvaluation` errors: the certificates the server presented, its own
    /// first (each with subject, issuer, validity and pin); empty when none was seen.
    public var presentedCertificates: [X509Certificate] {
        get { certificatesBox?.value ?? [] }
        set { certificatesBox = newValue.isEmpty ? nil : Box(newValue) }
    }
    /// The certificates behind a reference, for the same reason as the response.
    private var certificatesBox: Box<[X509Certificate]>?
    /// For a resumable download that failed or was cancelled after its body began: what it needs
    /// to go on where it stopped (``SessionManager/download(resumingFrom:request:)``); `nil`
    /// otherwise, and for a body in a content coding, whose ranges would not match the bytes kept.
    public var resumeData: DownloadResumeData? {
        get { resumeBox?.value }
        set { resumeBox = newValue.map(Box.init) }
    }
    private var resumeBox: Box<DownloadResumeData>?

    /// Creates an error.
    public init(
        kind: Kind,
        stage: String? = nil,
        url: URL? = nil,
        message: String,
        transportCode: Int? = nil,
        underlying: (any Error)? = nil,
        response: Response? = nil
    ) {
        self.kind = kind
        self.stage = stage
        self.url = url
        self.message = message
        self.transportCode = transportCode
        self.underlying = underlying
        self.response = response
    }

    /// `KIND in STAGE for URL: MESSAGE`, for example
    /// `timeout in transport for http://127.0.0.1:8080/delay/3: Operation timed out after 1000 milliseconds`.
    /// A password in the URL's user information is written `***`: an error is printed and
    /// logged, and the URL is the one the user typed or a server's `Location`.
    public var description: String {
        var text = kind.description
        if let stage { text += " in \(stage)" }
        if let url { text += " for \(SluiceError.shown(url))" }
        return text + ": " + message
    }

    /// `url` as written, its user information's password (if any) written `***`.
    static func shown(_ url: URL) -> String {
        shown(url.absoluteString)
    }

    /// URL text as written, its user information's password (if any) written `***`.
    static func shown(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let authority = text[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":"), authority.index(after: colon) < at else { return text }
        return String(text[..<authority.index(after: colon)]) + "***" + String(text[at...])
    }

    /// The ``description``, for code that reads `localizedDescription` (`LocalizedError`).
    public var errorDescription: String? { description }

    /// The response body passed `limit` bytes (a request's `maxResponseSize`), or declared
    /// `declared` bytes (its `Content-Length`), more than that, before any of it was read.
    package static func responseTooLarge(limit: Int64, url: URL?, declared: Int64? = nil) -> SluiceError {
        var message = declared.map { "the response declares a body of \($0) bytes (Content-Length), past the limit of \(limit) bytes; none of it was read" }
            ?? "the response body passed the limit of \(limit) bytes; the transfer was stopped there"
        if limit == Pipeline.defaultMaxInMemoryResponseSize {
            message += ". That is the default for a body held in memory: raise the limit (max-response-size: in a pipeline file, maxResponseSize in Swift; none or nil for no limit), or stream the body to a file (output: in a pipeline file, ResponseDestination.file in Swift)"
        }
        return SluiceError(kind: .responseTooLarge, stage: "transport", url: url, message: message)
    }

    /// A transport was handed a `.file` destination directly: transports deliver bodies in memory
    /// or as a stream, and a download to a file goes through a ``Pipeline`` (``SessionManager/download(_:to:resumable:)``),
    /// which asks the transport for a stream and writes the file itself.
    public static func fileDestinationAtTransport(url: URL?) -> SluiceError {
        SluiceError(
            kind: .invalidRequest, stage: "transport", url: url,
            message: "a transport delivers a body in memory or as a stream, never to a file: send a download through a pipeline (SessionManager.download), which writes the file"
        )
    }

    /// The task was cancelled, as seen from the given URL.
    package static func cancelled(url: URL?, stage: String? = nil) -> SluiceError {
        SluiceError(kind: .cancelled, stage: stage, url: url, message: "the task was cancelled")
    }

    /// Any error thrown out of the chain, as a `SluiceError`: Swift's `CancellationError`
    /// becomes `.cancelled`, another foreign error becomes `.stage` with the error kept, and a
    /// `SluiceError` stays as it is. `stage` and `url` fill whichever of those fields the error
    /// leaves unset, so the innermost stage that names itself is the one reported.
    package static func wrapping(_ error: any Error, stage: String?, url: URL?) -> SluiceError {
        var failure: SluiceError
        if let error = error as? SluiceError {
            failure = error
        } else if error is CancellationError {
            failure = .cancelled(url: url, stage: stage)
        } else {
            failure = SluiceError(kind: .stage, stage: stage, url: url, message: String(describing: error), underlying: error)
        }
        if failure.stage == nil { failure.stage = stage }
        if failure.url == nil { failure.url = url }
        return failure
    }
}
