import Foundation

/// A cookie as a ``CookieJar`` keeps it: RFC 6265 section 5.3's storage model.
public struct Cookie: Sendable, Hashable, CustomStringConvertible {
    /// The name, compared by code point (case matters).
    public var name: String
    /// The value.
    public var value: String
    /// The host (host-only cookies) or domain (domain cookies) the cookie belongs to: lower case,
    /// IDNA A-labels, no leading dot.
    public var domain: String
    /// The path the cookie applies to and below.
    public var path: String
    /// When the cookie expires; `nil` for a session cookie, which lasts as long as its jar.
    public var expires: Date?
    /// When the cookie was first stored (kept when a response replaces it).
    public var created: Date
    /// When the cookie was last sent or stored.
    public var lastAccessed: Date
    /// Whether only the exact host gets it (no `Domain` attribute), rather than its subdomains too.
    public var hostOnly: Bool
    /// Whether it is sent over `https` only (`Secure`).
    public var secure: Bool
    /// Whether the server marked it for HTTP only (`HttpOnly`): Sluice treats such values as
    /// credentials and redacts them in output.
    public var httpOnly: Bool
    /// The `SameSite` attribute as the server wrote it (`Strict`, `Lax`, `None`), kept for
    /// inspection: a client that is not a browser sends every request as same-site.
    public var sameSite: String?

    /// Creates a cookie; `created` and `lastAccessed` default to now.
    public init(
        name: String, value: String, domain: String, path: String = "/", expires: Date? = nil, created: Date = Date(),
        lastAccessed: Date? = nil, hostOnly: Bool = true, secure: Bool = false, httpOnly: Bool = false, sameSite: String? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.expires = expires
        self.created = created
        self.lastAccessed = lastAccessed ?? created
        self.hostOnly = hostOnly
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
    }

    /// Whether the cookie can be kept and written to a cookie file: a name without `=`, and no
    /// control character (tab included) or `;` in its name, value, domain or path. A jar ignores
    /// any other.
    public var isWellFormed: Bool {
        func clean(_ text: String) -> Bool { !text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") } }
        return !name.isEmpty && !name.utf8.contains(UInt8(ascii: "=")) && clean(name) && clean(value) && clean(domain) && clean(path)
            && !domain.isEmpty && path.hasPrefix("/")
    }

    /// Whether the cookie has expired at `date`.
    public func isExpired(at date: Date) -> Bool {
        expires.map { $0 <= date } ?? false
    }

    /// The key a jar stores it under: name, domain, host-only flag and path, by code point.
    var key: Key { Key(name: CodePointKey(name), domain: domain, hostOnly: hostOnly, path: CodePointKey(path)) }

    struct Key: Hashable, Sendable {
        var name: CodePointKey
        var domain: String
        var hostOnly: Bool
        var path: CodePointKey
    }

    /// `name=value; domain=…; path=…`, the value hidden when the cookie is `HttpOnly`.
    public var description: String {
        var text = "\(name)=\(httpOnly ? "<redacted>" : value); domain=\(hostOnly ? "" : ".")\(domain); path=\(path)"
        if let expires { text += "; expires=\(Int(expires.timeIntervalSince1970))" }
        if secure { text += "; secure" }
        if httpOnly { text += "; httponly" }
        if let sameSite { text += "; samesite=\(sameSite)" }
        return text
    }

    /// Whether both are the same cookie with the same value and attributes, text by code point.
    public static func == (lhs: Cookie, rhs: Cookie) -> Bool {
        lhs.key == rhs.key && lhs.value.hasSameCodePoints(as: rhs.value) && lhs.expires == rhs.expires
            && lhs.secure == rhs.secure && lhs.httpOnly == rhs.httpOnly && lhs.sameSite == rhs.sameSite
    }

    /// Hashes the key and the value by code point.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combineCodePoints(of: value)
    }
}
