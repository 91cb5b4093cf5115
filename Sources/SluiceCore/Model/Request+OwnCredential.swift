extension Request {
    private enum OwnCredentials: StageValueKey { typealias Value = any HTTPCredentialProvider }

    /// Credentials of the request's own (curl's `-u` or `--netrc-file` on one command, Hurl's
    /// `user`, `digest` and `netrc-file` options): the ``HTTPAuthentication`` stage asks them in
    /// place of its provider. An ``HTTPCredential`` is one for any host; a
    /// ``NetrcCredentialProvider`` gives the one its file holds for each host. They are bound to
    /// the first request's origin as `Authorization` is: ``Redirection`` drops them on a hop to
    /// another origin, gives them back on a hop back, and keeps them everywhere only when it
    /// trusts other origins (`--location-trusted`). Without an ``HTTPAuthentication`` stage in the
    /// pipeline nothing is sent.
    ///
    /// ```swift
    /// var request = Request("https://example.test/private")
    /// request.ownCredentials = HTTPCredential(username: "ada", password: "s3cret", schemes: .digest)
    /// ```
    public var ownCredentials: (any HTTPCredentialProvider)? {
        get { stageValues[OwnCredentials.self] }
        set { stageValues[OwnCredentials.self] = newValue }
    }
}
