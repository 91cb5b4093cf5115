/// An access token from a token endpoint, and when to stop using it.
public struct AccessToken: Sendable, Hashable {
    /// The token.
    public var value: String
    /// When the token is refreshed: shortly before it expires; `nil` when the endpoint gave no
    /// lifetime, so it is used until a request is refused with 401.
    public var refreshAt: ContinuousClock.Instant?

    /// Creates a token.
    public init(value: String, refreshAt: ContinuousClock.Instant?) {
        self.value = value
        self.refreshAt = refreshAt
    }

    /// Whether the token is still to be used at `now`.
    public func isFresh(at now: ContinuousClock.Instant) -> Bool {
        refreshAt.map { now < $0 } ?? true
    }
}
