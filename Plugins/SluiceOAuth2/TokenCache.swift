import SluiceCore

/// The current access token of one `oauth2-client-credentials` stage, shared by all its tasks.
///
/// At most one token request is under way at a time, whatever the number of tasks (single
/// flight): a task that finds no fresh token starts the fetch, and every other task that needs
/// one meanwhile waits for that same fetch. A failed fetch fails its waiters and leaves the next
/// task to try again.
actor TokenCache {
    private let fetch: @Sendable (any Transport) async throws -> AccessToken
    private let now: @Sendable () -> ContinuousClock.Instant
    private var token: AccessToken?
    private var inFlight: Task<AccessToken, any Error>?

    init(now: @escaping @Sendable () -> ContinuousClock.Instant, fetch: @escaping @Sendable (any Transport) async throws -> AccessToken) {
        self.now = now
        self.fetch = fetch
    }

    /// A fresh token: the cached one, or a new one fetched through `transport`.
    func current(through transport: any Transport) async throws -> AccessToken {
        if let token, token.isFresh(at: now()) { return token }
        return try await renew(through: transport)
    }

    /// A token other than `refused`, which the server turned down with 401: the one another
    /// task has fetched since, or a new one.
    func replacing(_ refused: AccessToken, through transport: any Transport) async throws -> AccessToken {
        if let token, token.value != refused.value, token.isFresh(at: now()) { return token }
        if token?.value == refused.value { token = nil }
        return try await renew(through: transport)
    }

    private func renew(through transport: any Transport) async throws -> AccessToken {
        if let inFlight { return try await inFlight.value }
        let task = Task { [fetch] in try await fetch(transport) }
        inFlight = task
        defer { inFlight = nil }
        let fetched = try await task.value
        token = fetched
        return fetched
    }
}
