/// What a request's fields named by a response's `Vary` hold (RFC 9111 section 4.1), as a digest.
///
/// The values are normalized as the section allows (field lines joined, whitespace around list
/// commas removed) and compared byte for byte, never with `String ==`'s canonical equivalence.
/// Only the SHA-256 of the selecting values is kept: a `Vary: Authorization` or `Vary: Cookie`
/// puts no credential in a store's files.
enum VaryKey {
    /// The key stored for `Vary: *`, which no request matches.
    static let never = "*"

    /// The digest of the request's values for the fields `responseHeaders`' `Vary` names: `nil`
    /// when it names none, ``never`` when it holds `*`.
    static func fingerprint(vary responseHeaders: HTTPHeaders, request: HTTPHeaders) -> String? {
        var names: [String] = []
        for field in responseHeaders.values(for: "Vary") {
            for name in field.split(separator: ",") {
                let name = name.trimmingHTTPWhitespace()
                guard !name.isEmpty else { continue }
                if name == "*" { return never }
                let lowercased = name.asciiLowercased
                if !names.contains(lowercased) { names.append(lowercased) }
            }
        }
        guard !names.isEmpty else { return nil }
        var text: [UInt8] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            text += Array(name.utf8) + [0x3A]
            let values = request.values(for: name)
            if values.isEmpty {
                text.append(0x00)
            } else {
                let members = values.joined(separator: ",").split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingHTTPWhitespace() }
                text += Array(members.joined(separator: ",").utf8)
            }
            text.append(0x0A)
        }
        return SHA256.hex(text)
    }

    /// Whether `request`'s fields select the stored response `head`.
    static func matches(_ head: CachedResponse.Head, request: HTTPHeaders) -> Bool {
        guard let stored = head.vary else { return true }
        guard stored != never, let fingerprint = fingerprint(vary: head.headers, request: request) else { return false }
        return Array(stored.utf8) == Array(fingerprint.utf8)
    }
}
