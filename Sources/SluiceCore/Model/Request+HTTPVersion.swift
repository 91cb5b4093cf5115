extension Request {
    private enum AskedHTTPVersion: StageValueKey { typealias Value = HTTPVersion }

    /// The HTTP version this request is sent with, in place of the transport's own choice:
    /// ``HTTPVersion/http1_0`` and ``HTTPVersion/http1_1`` are used as they are (curl's
    /// `--http1.0`, `--http1.1`), ``HTTPVersion/http2`` is asked for and HTTP/1.1 taken where the
    /// server does not offer it (curl's `--http2`). `nil` (the default) and
    /// ``HTTPVersion/unknown`` leave the choice to the transport.
    ///
    /// ```swift
    /// var request = Request("https://example.test/legacy")
    /// request.askedHTTPVersion = .http1_0
    /// ```
    public var askedHTTPVersion: HTTPVersion? {
        get { stageValues[AskedHTTPVersion.self] }
        set { stageValues[AskedHTTPVersion.self] = newValue }
    }
}
