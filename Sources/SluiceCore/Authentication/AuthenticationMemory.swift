/// What the ``HTTPAuthentication`` stage learned of each origin: the realm it named and the
/// challenge last answered there, so the next request answers it at once (a Digest nonce with
/// its count going up, or Basic) instead of waiting for another 401.
final class AuthenticationMemory: Sendable {
    /// The answer an origin last accepted.
    enum Answer: Sendable {
        case basic
        /// A Digest challenge and how many times its nonce has been used.
        case digest(DigestChallenge, nonceCount: Int)
    }

    struct Known: Sendable {
        var realm: String?
        var answer: Answer
    }

    private let origins = Locked<[ProtectionSpace: Known]>([:])

    /// What is known of `origin` (a space without realm).
    func known(for origin: ProtectionSpace) -> Known? {
        origins.withLock { $0[origin] }
    }

    /// Takes the next use of `origin`'s Digest nonce: the known challenge and the count this
    /// use sends, or `nil` when the origin's answer is not Digest.
    func nextDigestUse(for origin: ProtectionSpace) -> (challenge: DigestChallenge, nonceCount: Int)? {
        origins.withLock { origins in
            guard case .digest(let challenge, let count)? = origins[origin]?.answer else { return nil }
            origins[origin]?.answer = .digest(challenge, nonceCount: count + 1)
            return (challenge, count + 1)
        }
    }

    func remember(_ known: Known, for origin: ProtectionSpace) {
        origins.withLock { $0[origin] = known }
    }

    func forget(_ origin: ProtectionSpace) {
        origins.withLock { $0[origin] = nil }
    }
}
