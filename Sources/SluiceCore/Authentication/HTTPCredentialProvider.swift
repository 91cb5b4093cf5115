/// Where the ``HTTPAuthentication`` stage finds the credential for a protection space, as
/// AFNetworking's challenge block and URLSession's credential storage do.
///
/// The stage asks before each exchange, with the realm it last saw at that origin (`nil` at
/// first), and again when a challenge names a realm it did not ask about. Returning `nil` sends
/// no credential: the server's 401 is the response.
///
/// ```swift
/// struct Vault: HTTPCredentialProvider {
///     func credential(for space: ProtectionSpace) async throws -> HTTPCredential? {
///         space.host == "api.example.test" ? HTTPCredential(username: "alice", password: "wonder land 7") : nil
///     }
/// }
/// ```
public protocol HTTPCredentialProvider: Sendable {
    /// The credential for `space`, or `nil` for none.
    func credential(for space: ProtectionSpace) async throws -> HTTPCredential?
}

extension HTTPCredential: HTTPCredentialProvider {
    /// The credential itself, for any protection space: a request's own (``Request/ownCredentials``).
    public func credential(for space: ProtectionSpace) -> HTTPCredential? {
        self
    }
}
