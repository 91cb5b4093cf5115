import Foundation

/// RFC 9111's rules for a private cache that are not about freshness: the key, what may be
/// stored, which fields are stored and which a `304` may change, and what an unsafe method
/// invalidates.
enum CacheRules {
    /// Statuses whose caching rules the stage implements, for `must-understand` (section 5.2.2.3).
    static let understoodStatuses = Freshness.heuristicallyCacheableStatuses.subtracting([206]).union([302, 307])

    /// Fields never stored: those that describe one connection (section 3.1) and `Set-Cookie`,
    /// whose cookies belong in a jar, not on a cache's disk (Chromium keeps them out too).
    static let unstoredFields: Set<String> = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade", "trailer",
        "proxy-authenticate", "set-cookie", "set-cookie2",
    ]

    /// Fields a `304` does not change in the stored response (section 3.2): the length, and the
    /// fields that describe the stored bytes, which were decoded as they arrived, so that a `304`
    /// cannot make them mean something else. `Vary` stays too: it chose the stored request values.
    static let unmergedFields: Set<String> = unstoredFields.union([
        "content-length", "content-encoding", "content-type", "content-range", "vary",
    ])

    /// The cache key of a request: its absolute `http` or `https` URL without the fragment; `nil`
    /// for a URL that is not one yet (a relative URL above ``URLResolution``).
    static func key(for url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else { return nil }
        let text = url.absoluteString
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }

    /// Whether a response may be stored (section 3): a final status other than `206` and `304`, no
    /// `no-store` in the request or the response (unless `must-understand` covers a status
    /// understood here), no `Vary: *`, and explicit freshness, `public`, `private`, or a status
    /// that allows the heuristic.
    static func isStorable(_ response: Response, request: Request, requestControl: CacheControl) -> Bool {
        guard request.method == .get, (200..<600).contains(response.status), response.status != 206, response.status != 304 else { return false }
        let control = CacheControl(response.headers)
        let understood = control.contains("must-understand") && understoodStatuses.contains(response.status)
        guard !control.contains("no-store") || understood, !requestControl.contains("no-store") else { return false }
        guard VaryKey.fingerprint(vary: response.headers, request: [:]) != VaryKey.never else { return false }
        return control.contains("public") || control.contains("private") || control.contains("max-age")
            || response.headers.contains("Expires") || Freshness.heuristicallyCacheableStatuses.contains(response.status)
    }

    /// The fields of `headers` a cache stores: all but ``unstoredFields`` and those `Connection`
    /// names; a `Date` is added when the response has none (RFC 9110 section 6.6.1).
    static func storedFields(_ headers: HTTPHeaders, received: Date) -> HTTPHeaders {
        let named = Set(headers.values(for: "Connection").flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPWhitespace().asciiLowercased })
        var stored = HTTPHeaders(headers.fields.filter { field in
            let name = field.name.asciiLowercased
            return !unstoredFields.contains(name) && !named.contains(name)
        })
        if !stored.contains("Date") { stored.add(name: "Date", value: HTTPDate.format(received)) }
        return stored
    }

    /// The stored fields updated from a `304`'s (section 3.2): each field the `304` sends replaces
    /// the stored fields of its name, but for ``unmergedFields`` and those its `Connection` names.
    static func merged(_ stored: HTTPHeaders, with notModified: HTTPHeaders, received: Date) -> HTTPHeaders {
        let incoming = storedFields(notModified, received: received).fields.filter { !unmergedFields.contains($0.name.asciiLowercased) }
        var merged = stored
        var replaced: Set<String> = []
        for field in incoming {
            let name = field.name.asciiLowercased
            if replaced.insert(name).inserted { merged.remove(name: field.name) }
            merged.add(name: field.name, value: field.value)
        }
        return merged
    }

    /// Whether a `304` answers for the stored response (section 4.3.4): the validators it carries,
    /// if any, are the stored ones (an entity tag compared weakly, byte for byte; a
    /// `Last-Modified` exactly). A `304` that carries neither is taken as the answer to the
    /// validators the request sent, as OkHttp and browsers take it.
    static func notModified(_ headers: HTTPHeaders, matches stored: HTTPHeaders) -> Bool {
        if let tag = headers["ETag"] {
            guard let storedTag = stored["ETag"] else { return false }
            return Array(weak(tag).utf8) == Array(weak(storedTag).utf8)
        }
        if let modified = headers["Last-Modified"] {
            return stored["Last-Modified"].map { Array($0.utf8) == Array(modified.utf8) } ?? false
        }
        return true
    }

    /// The keys a successful unsafe request invalidates (section 4.4): its own, and those of its
    /// `Location` and `Content-Location` when they have its origin (a response may not empty
    /// another site's entries).
    static func invalidatedKeys(_ response: Response, request: Request) -> [String] {
        guard let own = key(for: request.url) else { return [] }
        var keys = [own]
        let base = URIReference(parsing: request.url.absoluteString)
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name],
                let url = URL(string: URIReference(parsing: value).resolved(against: base).description),
                url.originText == request.url.originText, let key = key(for: url), !keys.contains(key)
            else { continue }
            keys.append(key)
        }
        return keys
    }

    /// An entity tag without its weakness prefix `W/`.
    private static func weak(_ tag: String) -> Substring {
        let trimmed = tag[...].trimmingHTTPWhitespace()
        return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
    }
}
