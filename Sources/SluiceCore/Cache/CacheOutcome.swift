/// What a ``ResponseCaching`` stage did for one exchange.
public enum CacheOutcome: String, Sendable, Hashable, CaseIterable {
    /// A stored response was fresh enough and was returned; nothing was sent.
    case hit
    /// The response came from the network: nothing usable was stored, or the server sent a new
    /// response to a conditional request.
    case miss
    /// A stored response was validated with the server (a `304 Not Modified`) and returned with
    /// the headers of the `304` merged in.
    case revalidated
    /// A stale stored response was returned because the server could not be reached or answered
    /// with an error (`stale-if-error`, RFC 5861).
    case stale
}
