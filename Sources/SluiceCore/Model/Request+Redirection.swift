extension Request {
    private enum OwnRedirection: StageValueKey { typealias Value = Redirection }

    /// The request's own redirect rules, followed instead of the pipeline's ``Redirection``
    /// stage's for this request (curl's `-L`, `--max-redirs` and `--location-trusted` for one
    /// call): follow none, fewer or more hops, or keep credentials across origins. `nil` (the
    /// default) leaves the pipeline's. A pipeline with no redirect stage refuses a request whose
    /// own rules follow redirects, since nothing there would follow them.
    ///
    /// ```swift
    /// var login = Request("login")
    /// login.redirection = Redirection(follows: false)
    /// let response = try await manager.send(login)
    /// ```
    public var redirection: Redirection? {
        get { stageValues[OwnRedirection.self] }
        set { stageValues[OwnRedirection.self] = newValue }
    }
}
