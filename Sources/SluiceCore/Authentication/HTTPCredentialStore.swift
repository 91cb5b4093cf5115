/// Credentials by host, the provider YAML's `authentication` stage builds: each entry names a
/// host, and optionally a port and a realm; a request gets the entry that names its host and
/// the most of the rest, and no credential for any other host. An entry for a realm is used only
/// once the server has named that realm in a challenge, so it is never sent before one.
///
/// Hosts compare without ASCII case (a URL's host is already an A-label), realms byte for byte.
///
/// ```swift
/// let store = HTTPCredentialStore([
///     .init(host: "api.example.test", credential: HTTPCredential(username: "alice", password: "wonder land 7")),
/// ])
/// ```
public struct HTTPCredentialStore: HTTPCredentialProvider, Hashable {
    /// One host's credential.
    public struct Entry: Sendable, Hashable {
        /// The host it is for.
        public var host: String
        /// The port it is for; `nil` for any.
        public var port: Int?
        /// The realm it is for; `nil` for any.
        public var realm: String?
        /// The credential.
        public var credential: HTTPCredential

        /// Creates an entry.
        public init(host: String, port: Int? = nil, realm: String? = nil, credential: HTTPCredential) {
            self.host = host
            self.port = port
            self.realm = realm
            self.credential = credential
        }

        /// How well the entry fits `space`: `nil` when it does not, more for each of port and
        /// realm it names.
        func fit(_ space: ProtectionSpace) -> Int? {
            guard host.asciiLowercased.utf8.elementsEqual(space.host.asciiLowercased.utf8) else { return nil }
            if let port, port != space.port { return nil }
            if let realm {
                // Before the server has named its realm, an entry for one realm is not sent.
                guard let spaceRealm = space.realm, realm.utf8.elementsEqual(spaceRealm.utf8) else { return nil }
                return (port == nil ? 0 : 1) + 2
            }
            return port == nil ? 0 : 1
        }
    }

    /// The entries.
    public var entries: [Entry]

    /// Creates a store.
    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// The credential of the entry that fits `space` best; the first listed among equals.
    public func credential(for space: ProtectionSpace) -> HTTPCredential? {
        var best: (fit: Int, credential: HTTPCredential)?
        for entry in entries {
            guard let fit = entry.fit(space) else { continue }
            if best.map({ fit > $0.fit }) ?? true { best = (fit, entry.credential) }
        }
        return best?.credential
    }
}
