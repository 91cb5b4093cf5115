import Foundation

/// An HTTP request as it flows through a pipeline's stages.
///
/// Stages receive a request, may return a changed copy, and pass it on; the transport sends what
/// reaches it. `url` may be relative (`users/{id}`) until a ``URLResolution`` stage resolves it
/// against its base URL, filling `{name}` templates from `pathParameters`: the transport accepts
/// only absolute `http` and `https` URLs. `parameters` and `parts` are for a ``Serialization``
/// stage, which turns them into the query or the body. A request that reaches the transport still
/// carrying parameters, parts or path parameters (no stage wrote them) is refused with
/// `.invalidRequest` naming them, before anything is sent: nothing it carries is dropped in silence.
public struct Request: Sendable {
    /// The method; `GET` by default.
    public var method: HTTPMethod
    /// The target URL. For a request made from a string that is not a URL reference, `about:blank`
    /// (the task then fails with `.invalidRequest` naming the string, before any stage runs), and
    /// for the empty reference `""`, `about:blank` until ``URLResolution`` makes it its base URL
    /// (RFC 3986 section 5.2); setting it clears either, and forgets the string it was made from.
    public var url: URL {
        didSet {
            stageValues[UnparsedURL.self] = nil
            stageValues[WrittenURL.self] = nil
        }
    }
    /// The header fields the request sets itself.
    public var headers: HTTPHeaders
    /// The body to send; none by default.
    public var body: RequestBody
    /// Where the response body goes: memory by default, or a file for downloads.
    public var destination: ResponseDestination
    /// Connect and total timeouts; a `nil` field takes the pipeline's value.
    public var timeouts: Timeouts
    /// The most bytes of response body to take, after content decoding (so a small compressed
    /// body cannot inflate past it), in memory or into a file; `nil` takes the pipeline's value,
    /// and where the pipeline sets none either, a body held in memory gets its
    /// ``Pipeline/maxInMemoryResponseSize`` (64 MiB by default) and a body streamed to a file none.
    /// `Int64.max` means no limit at all. Past it the exchange ends with `.responseTooLarge`.
    public var maxResponseSize: Int64?
    /// Whether the transport keeps the certificates the server presented on the connection, in
    /// `Response.metrics?.peerCertificates` (for `expect.certificate` and certificate captures).
    /// Off by default: reading them costs a little on every request, reused connections included.
    public var recordsPeerCertificates = false
    /// What only some stages read or write: ``parameters``, ``parts``, ``pathParameters``,
    /// ``trustPolicy``, ``proxyRoute`` and a stage's own values, kept off the request's fields
    /// so that it stays small.
    public var stageValues = StageValues()

    /// The string a request was made from when it is not a URL reference.
    enum UnparsedURL: StageValueKey { typealias Value = String }

    /// The string a request was made from, kept while `url` is the URL made from it when that
    /// URL cannot tell all of it back: an escaped brace (`%7B`, `%7D`), which `URL` cannot tell
    /// from a `{` or `}` it escaped itself, or a dot segment, which an absolute URL loses unless
    /// ``sendsPathAsIs`` is set.
    enum WrittenURL: StageValueKey { typealias Value = String }

    /// Creates a request.
    public init(
        method: HTTPMethod = .get,
        url: URL,
        headers: HTTPHeaders = [:],
        body: RequestBody = .none,
        destination: ResponseDestination = .memory,
        timeouts: Timeouts = Timeouts(),
        maxResponseSize: Int64? = nil,
        pathParameters: [String: String] = [:],
        parameters: JSONValue? = nil,
        parts: [MultipartPart] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.destination = destination
        self.timeouts = timeouts
        self.maxResponseSize = maxResponseSize
        if !pathParameters.isEmpty { self.pathParameters = pathParameters }
        if let parameters { self.parameters = parameters }
        if !parts.isEmpty { self.parts = parts }
    }

    /// Creates a request from a URL string, absolute or relative (`users/{id}?full=1`).
    ///
    /// The string is taken as written: a valid percent-escape (`%3D`) is kept, and only what cannot
    /// stand in a URL (a space, non-ASCII text, `{`, a `%` that starts no escape) is escaped
    /// (``URLText``). Only the braces written as `{` and `}` make a path template: `%7Bid%7D`
    /// written so goes out as written. An absolute URL's `.` and `..` segments are removed, as curl
    /// removes them, and kept when ``sendsPathAsIs`` is set. As AsyncHTTPClient's `HTTPClientRequest(url:)`, it does not fail: a string
    /// that is not a URL reference (`http://ho%7Cst/`, a host no standard allows) makes a request
    /// whose task fails with `.invalidRequest` naming the string when it is sent, before any stage
    /// runs. The empty string is the empty reference, which ``URLResolution`` resolves to its base.
    ///
    /// ```swift
    /// let response = try await manager.send(Request("users/{id}", pathParameters: ["id": "42"]))
    /// ```
    public init(
        method: HTTPMethod = .get,
        _ urlString: String,
        headers: HTTPHeaders = [:],
        body: RequestBody = .none,
        pathParameters: [String: String] = [:],
        parameters: JSONValue? = nil,
        parts: [MultipartPart] = []
    ) {
        let url = URLText.url(urlString)
        self.init(
            method: method, url: url ?? URL(string: "about:blank")!, headers: headers, body: body,
            pathParameters: pathParameters, parameters: parameters, parts: parts
        )
        if url == nil {
            stageValues[UnparsedURL.self] = urlString
        } else if Self.losesWrittenText(urlString) {
            stageValues[WrittenURL.self] = urlString
        }
    }

    /// Creates a request from a URL string as ``init(method:_:headers:body:pathParameters:parameters:parts:)``
    /// does, or `nil` when the string is not a URL reference, for a caller that reports that
    /// itself (a pipeline's `path:` names its line).
    public init?(method: HTTPMethod = .get, validating urlString: String) {
        self.init(method: method, urlString)
        guard stageValues[UnparsedURL.self] == nil || urlString.isEmpty else { return nil }
    }

    /// The string the request's URL was made from, while it is its URL and holds what the URL
    /// cannot tell back (``WrittenURL``).
    var writtenURL: String? { stageValues[WrittenURL.self] }

    /// Whether `text` holds an escaped brace or a `.` segment: what `URL` cannot keep as written.
    /// Any `/.` counts, a `/.well-known/` too: keeping the text of a URL that needs none costs
    /// only its storage.
    private static func losesWrittenText(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: ".") { return true }
            if beforePrevious == UInt8(ascii: "%"), previous == UInt8(ascii: "7"),
                byte & 0xDF == UInt8(ascii: "B") || byte & 0xDF == UInt8(ascii: "D")
            { return true }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// Whether the request was made from the empty reference `""` and no stage has resolved it.
    var isEmptyReference: Bool { stageValues[UnparsedURL.self]?.isEmpty == true }

    /// Refuses a request made from a string that is not a URL reference.
    /// - Throws: `.invalidRequest` naming the string.
    func checkURL() throws(SluiceError) {
        guard let unparsedURL = stageValues[UnparsedURL.self], !unparsedURL.isEmpty else { return }
        throw SluiceError(
            kind: .invalidRequest, stage: "request",
            message: "'\(unparsedURL)' is not a URL reference (RFC 3986)"
        )
    }

    /// Refuses a request that still holds the empty reference once the request stages ran.
    /// - Throws: `.invalidRequest`: only a ``URLResolution`` base gives `""` a meaning.
    func checkResolved() throws(SluiceError) {
        guard isEmptyReference else { return }
        throw SluiceError(
            kind: .invalidRequest, stage: "request",
            message: "the empty URL reference '' names its base URL, and no URLResolution stage gives one"
        )
    }
}
