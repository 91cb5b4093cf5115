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

    /// Whether the ``CookieHandling`` stage sends the jar's cookies with this request and stores
    /// those its responses set; `true` by default. `false` keeps the jar out of this request
    /// alone (curl without a cookie engine; Hurl's per-request cookie options), while its
    /// ``ownCookies`` are still sent.
    public var usesCookieJar: Bool {
        get { stageValues[NoCookieJar.self] == nil }
        set { stageValues[NoCookieJar.self] = newValue ? nil : true }
    }
}
