/// What a request's fields named by a response's `Vary` hold (RFC 9111 section 4.1), as a digest.
///
/// Every response varies on who `Authorization` names as well, whether it says so or not: a
/// response fetched with one user's credentials is never given to a request with another's, or
/// with none, so that a pipeline that checks what each user may read is answered by the server
/// for each (RFC 9111 section 3.5 asks this of shared caches; this one is shared by runs). Who
/// it names is the field's whole value, but for the schemes whose value changes with each
/// request for one user (``credentialIdentity(of:)``). And every response varies on the trust
/// policy that governed its connection (``TrustPolicy/cacheIdentity``): one fetched with
/// validation off, or under another pin or client certificate, is never given to a request whose
/// policy would have refused that connection or shown another identity.
///
/// The values are normalized as the section allows (field lines joined, whitespace around list
/// commas removed) and compared byte for byte, never with `String ==`'s canonical equivalence.
/// Only the SHA-256 of the selecting values is kept: a `Vary: Authorization` or `Vary: Cookie`
/// puts no credential in a store's files.
enum VaryKey {
    /// The key stored for `Vary: *`, which no request matches.
    static let never = "*"

    /// The fields every response varies on.
    static let implicitNames = ["authorization"]

    /// The digest of the request's values for the fields `responseHeaders`' `Vary` names and
    /// ``implicitNames``, and of the trust policy that governs it (`trust`, its
    /// ``TrustPolicy/cacheIdentity``; `nil` for the default), ``never`` when `Vary` holds `*`.
    static func fingerprint(vary responseHeaders: HTTPHeaders, request: HTTPHeaders, trust: String? = nil) -> String {
        var names = implicitNames
        for field in responseHeaders.values(for: "Vary") {
            for name in field.split(separator: ",") {
                let name = name.trimmingHTTPWhitespace()
                guard !name.isEmpty else { continue }
                if name == "*" { return never }
                let lowercased = name.asciiLowercased
                if !names.contains(lowercased) { names.append(lowercased) }
            }
        }
        var text: [UInt8] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            text += Array(name.utf8) + [0x3A]
            var values = request.values(for: name)
            // Vary: Authorization too: the same user, signed anew for each request, is one user.
            if name == "authorization" { values = values.map(credentialIdentity) }
            if values.isEmpty {
                text.append(0x00)
            } else {
                let members = values.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingHTTPWhitespace() }
                text += Array(members.joined(separator: ",").utf8)
            }
            text.append(0x0A)
        }
        if let trust { text += Array("\u{0}trust:".utf8) + Array(trust.utf8) }
        return SHA256.hex(text)
    }

    /// Who an `Authorization` value names: for Digest (RFC 7616), whose response, nonce and
    /// count change with each request, its `username` (or `username*`) and `realm`; for AWS
    /// Signature Version 4, whose signature and date do, its access key (the `Credential`'s first
    /// part); for any other scheme (Basic, Bearer), the whole value.
    static func credentialIdentity(of value: String) -> String {
        let scheme = value.prefix { $0 != " " }
        switch scheme.asciiLowercased {
        case "digest":
            guard let credentials = AuthenticationChallenge.parse(value).first else { return value }
            return "Digest username=\(credentials["username"] ?? credentials["username*"] ?? "") realm=\(credentials["realm"] ?? "")"
        case "aws4-hmac-sha256":
            guard let start = value.utf8.firstRange(of: "Credential=".utf8)?.upperBound else { return value }
            return "AWS4-HMAC-SHA256 " + value[start...].prefix { $0 != "/" && $0 != "," && $0 != " " }
        default:
            return value
        }
    }

    /// Whether `request`'s fields, under the trust policy `trust` governs, select the stored
    /// response `head`.
    static func matches(_ head: CachedResponse.Head, request: HTTPHeaders, trust: String? = nil) -> Bool {
        // An entry stored without a key (by a version that keyed only on `Vary`) is read as one
        // stored without credentials.
        let stored = head.vary ?? fingerprint(vary: head.headers, request: [:])
        guard stored != never else { return false }
        return Array(stored.utf8) == Array(fingerprint(vary: head.headers, request: request, trust: trust).utf8)
    }
}
