extension Request {
    private enum OwnCookies: StageValueKey { typealias Value = String }
    private enum NoCookieJar: StageValueKey { typealias Value = Bool }

    /// Cookies the request sends on every hop of its redirects, whatever the origin, as written
    /// (`NAME=VALUE; NAME2=VALUE2`), after the cookies of the pipeline's jar: curl's `-b
    /// NAME=VALUE` (its `CURLOPT_COOKIE`) and Hurl's `[Cookies]` section. The ``CookieHandling``
    /// stage writes them on each hop; a pipeline without one refuses the request, since nothing
    /// there would send them. `nil` (the default) for none.
    ///
    /// ```swift
    /// var request = Request("session")
    /// request.ownCookies = "theme=dark; lang=en"
    /// let response = try await manager.send(request)
    /// ```
    public var ownCookies: String? {
        get { stageValues[OwnCookies.self] }
        set { stageValues[OwnCookies.self] = newValue }
    }

    /// Why the cookie `name=value` cannot be one of ``ownCookies``, `nil` when it can: its name
    /// must be a token (RFC 6265 section 4.1.1: no `=`, `;`, space or control character), and its
    /// value may hold no `;`, which would end it and start another cookie of the value's choosing,
    /// and no control character. Spaces, commas, quotes and UTF-8 text in a value go as they are,
    /// as browsers and curl send them.
    public static func cookieProblem(name: String, value: String) -> String? {
        if name.isEmpty { return "a cookie name cannot be empty" }
        if let byte = name.utf8.first(where: { !$0.isTokenCharacter }) {
            return "the cookie name '\(name)' holds \(HTTPHeaders.shown(byte)), and a cookie name is a token (letters, digits and !#$%&'*+-.^_`|~; RFC 6265 section 4.1.1)"
        }
        if value.utf8.contains(UInt8(ascii: ";")) {
            return "the value of cookie \(name) holds ';', which would end it and start another cookie; encode it (${urlencode(...)}) or send a Cookie header of your own"
        }
        if let byte = value.utf8.first(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "the value of cookie \(name) holds \(HTTPHeaders.shown(byte)), and a cookie value holds no control character (RFC 6265 section 4.1.1)"
        }
        return nil
    }

    /// Whether the ``CookieHandling`` stage sends the jar's cookies with this request and stores
    /// those its responses set; `true` by default. `false` keeps the jar out of this request
    /// alone (curl without a cookie engine; Hurl's per-request cookie options), while its
    /// ``ownCookies`` are still sent.
    public var usesCookieJar: Bool {
        get { stageValues[NoCookieJar.self] == nil }
        set { stageValues[NoCookieJar.self] = newValue ? nil : true }
    }
}
