import Foundation

/// Cookies kept between requests, as RFC 6265 section 5.3 stores them and section 5.4 sends them:
/// what ``CookieHandling`` reads and fills, shareable by any number of pipelines and tasks at once.
///
/// - A `Domain` attribute makes a domain cookie for that domain and every name below it; the
///   request's host must be within it, and it cannot be a public suffix (``PublicSuffixList``).
///   Without one, the cookie is host-only.
/// - A missing or relative `Path` becomes the directory of the request's path (its default path).
/// - `Max-Age` wins over `Expires`; a date in the past or a `Max-Age` of zero or less deletes the
///   cookie. Expired cookies are never sent and are dropped as the jar meets them.
/// - `Secure` cookies are set and sent only over a secure origin: `https`, or `localhost` and
///   loopback addresses, as browsers and curl both treat them; and an insecure origin cannot
///   replace a secure cookie (RFC 6265bis). `__Secure-` and `__Host-` names must meet their
///   prefix's rules.
/// - A name and value of more than 4096 bytes, or with a control character, are refused. Past
///   ``maximumCookiesPerDomain`` cookies for one registrable domain or ``maximumCookies`` in all,
///   expired cookies go first, then those used least recently.
/// - The `Cookie` header lists longer paths first, then earlier creation, as the RFC says.
///
/// Names, values and paths compare by code point.
public final class CookieJar: Sendable {
    private struct Entry: Sendable {
        var cookie: Cookie
        /// Ties creation times: cookies set by one response keep their order.
        var sequence: UInt64
        /// The registrable domain the per-domain limit counts the cookie under.
        var group: String
    }

    private struct State: Sendable {
        private(set) var entries: [Cookie.Key: Entry] = [:]
        /// How many cookies each registrable domain has, kept with `entries`.
        private(set) var groupCounts: [String: Int] = [:]
        /// The keys of each cookie domain, so that a request looks only at its host's domains.
        private(set) var byDomain: [String: Set<Cookie.Key>] = [:]
        /// The keys of `Secure` cookies, which an insecure origin may not shadow.
        private(set) var secureKeys: Set<Cookie.Key> = []
        var nextSequence: UInt64 = 0

        mutating func put(_ entry: Entry, at key: Cookie.Key) {
            if entries.updateValue(entry, forKey: key) == nil {
                groupCounts[entry.group, default: 0] += 1
                byDomain[key.domain, default: []].insert(key)
            }
            if entry.cookie.secure { secureKeys.insert(key) } else { secureKeys.remove(key) }
        }

        mutating func remove(_ key: Cookie.Key) {
            guard let entry = entries.removeValue(forKey: key) else { return }
            groupCounts[entry.group]! -= 1
            if groupCounts[entry.group] == 0 { groupCounts[entry.group] = nil }
            byDomain[key.domain]?.remove(key)
            if byDomain[key.domain]?.isEmpty == true { byDomain[key.domain] = nil }
            secureKeys.remove(key)
        }

        /// The keys of cookies whose domain is `host` or one of its parents: the only ones a
        /// request to `host` can get.
        func keys(forHost host: String) -> [Cookie.Key] {
            var keys = Array(byDomain[host] ?? [])
            guard !host.utf8.contains(UInt8(ascii: ":")), !PublicSuffixList.isIPv4(host) else { return keys }
            var rest = Substring(host)
            while let dot = rest.firstIndex(of: ".") {
                rest = rest[rest.index(after: dot)...]
                keys += byDomain[String(rest)] ?? []
            }
            return keys
        }

        mutating func touch(_ key: Cookie.Key, at date: Date) {
            entries[key]?.cookie.lastAccessed = date
        }

        mutating func removeAll() {
            entries.removeAll()
            groupCounts.removeAll()
            byDomain.removeAll()
            secureKeys.removeAll()
        }
    }

    private let state = Locked(State())
    /// The public suffixes a `Domain` attribute may not name: the system's list
    /// (``PublicSuffixList/system``) unless another was given. The system's is loaded (about
    /// 0.1 ms, once a process) when the first jar is made, not when the first cookie arrives, so
    /// that the first response that sets one waits for nothing more than the next.
    public let publicSuffixes: PublicSuffixList
    /// The most cookies kept in all; 3000 by default, RFC 6265's minimum and what browsers keep.
    public let maximumCookies: Int
    /// The most cookies kept for one registrable domain; 180 by default, as browsers keep.
    public let maximumCookiesPerDomain: Int

    /// 400 days, in seconds: the longest a cookie is kept, whatever its `Expires` or `Max-Age`.
    public static let maximumLifetime = 400 * 86_400

    /// Creates an empty jar.
    /// - Parameters:
    ///   - publicSuffixes: the list to check `Domain` attributes against; the system's unless given.
    ///   - maximumCookies: the most cookies kept in all; 3000 by default.
    ///   - maximumCookiesPerDomain: the most cookies kept for one registrable domain; 180 by default.
    public init(publicSuffixes: PublicSuffixList? = nil, maximumCookies: Int = 3000, maximumCookiesPerDomain: Int = 180) {
        self.publicSuffixes = publicSuffixes ?? .system
        self.maximumCookies = max(1, maximumCookies)
        self.maximumCookiesPerDomain = max(1, maximumCookiesPerDomain)
    }

    /// Every cookie that has not expired, by domain, then longer paths first, then name.
    public var cookies: [Cookie] {
        let now = Date()
        return state.withLock { state in
            state.entries.values.map(\.cookie).filter { !$0.isExpired(at: now) }
        }
        .sorted { left, right in
            if !left.domain.utf8.elementsEqual(right.domain.utf8) { return left.domain.utf8.lexicographicallyPrecedes(right.domain.utf8) }
            if left.path.utf8.count != right.path.utf8.count { return left.path.utf8.count > right.path.utf8.count }
            return left.name.utf8.lexicographicallyPrecedes(right.name.utf8)
        }
    }

    /// The values that output must hide: those of `HttpOnly` cookies (the mark of session and
    /// authentication cookies) of 8 bytes or more. Shorter values (`1`, `true`) carry no
    /// credential, and hiding them would hide every `1` in a report.
    public var credentials: [String] {
        let now = Date()
        return state.withLock { state in
            state.entries.values.map(\.cookie).filter { $0.httpOnly && $0.value.utf8.count >= 8 && !$0.isExpired(at: now) }.map(\.value)
        }
    }

    /// Stores the cookies of a response's `Set-Cookie` fields, received for `url`.
    /// - Returns: the cookies stored or replaced (a deletion counts as neither).
    @discardableResult
    public func store(setCookie fields: [String], for url: URL, at now: Date = Date()) -> [Cookie] {
        guard let origin = CookieJar.Origin(url) else { return [] }
        return fields.compactMap { field in SetCookie(field).flatMap { store($0, from: origin, at: now) } }
    }

    /// Adds or replaces a cookie as it is, as a cookie file does; an expired one removes its match,
    /// and one that is not ``Cookie/isWellFormed`` is ignored.
    public func insert(_ cookie: Cookie) {
        guard cookie.isWellFormed else { return }
        let now = Date()
        state.withLock { state in _ = keep(cookie, in: &state, at: now) }
    }

    /// Removes every cookie.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }

    /// The cookies a request to `url` sends, in the order of its `Cookie` header; their last
    /// access becomes `now`.
    public func cookies(for url: URL, at now: Date = Date()) -> [Cookie] {
        // A jar with no cookie (every request of most load runs) has nothing to match the URL against.
        guard !state.withLock({ $0.entries.isEmpty }), let origin = CookieJar.Origin(url) else { return [] }
        return state.withLock { state in
            var matching: [Entry] = []
            for key in state.keys(forHost: origin.host) {
                guard let entry = state.entries[key] else { continue }
                let cookie = entry.cookie
                if cookie.isExpired(at: now) {
                    state.remove(key)
                    continue
                }
                let hostMatches = cookie.hostOnly ? origin.host == cookie.domain : CookieJar.domainMatches(origin.host, cookie.domain)
                guard hostMatches, CookieJar.pathMatches(origin.path, cookie.path), !cookie.secure || origin.isSecure else { continue }
                state.touch(key, at: now)
                matching.append(entry)
            }
            return matching.sorted { left, right in
                let (leftPath, rightPath) = (left.cookie.path.utf8.count, right.cookie.path.utf8.count)
                if leftPath != rightPath { return leftPath > rightPath }
                if left.cookie.created != right.cookie.created { return left.cookie.created < right.cookie.created }
                return left.sequence < right.sequence
            }
            .map(\.cookie)
        }
    }

    /// The `Cookie` header for a request to `url`, or `nil` when it has no cookies.
    public func cookieHeader(for url: URL, at now: Date = Date()) -> String? {
        let cookies = cookies(for: url, at: now)
        return cookies.isEmpty ? nil : cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    // MARK: Storage (RFC 6265 section 5.3, with RFC 6265bis's Secure rules)

    /// What a request's URL says about where a cookie comes from or goes.
    struct Origin {
        /// Normalized: lower case, IDNA A-labels, no brackets.
        var host: String
        /// The path as sent, percent-encoded, `/` when empty.
        var path: String
        /// `https`, or `localhost` and loopback addresses.
        var isSecure: Bool

        init?(_ url: URL) {
            guard let raw = url.host, let host = HostName.normalized(raw) else { return nil }
            self.host = host
            let path = url.path(percentEncoded: true)
            self.path = path.isEmpty ? "/" : path
            let scheme = url.scheme?.lowercased()
            // 127.evil.example is a name, not a loopback address.
            let loopback = host == "localhost" || host.hasSuffix(".localhost") || (PublicSuffixList.isIPv4(host) && host.hasPrefix("127.")) || host == "::1"
            isSecure = scheme == "https" || scheme == "wss" || loopback
        }
    }

    private func store(_ parsed: SetCookie, from origin: Origin, at now: Date) -> Cookie? {
        var expires: Date?
        if let maxAge = parsed.maxAge {
            expires = maxAge <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(min(maxAge, CookieJar.maximumLifetime)))
        } else {
            expires = parsed.expires
        }
        // RFC 6265bis, browsers and curl (7.85) keep a cookie 400 days at most.
        if let date = expires, date.timeIntervalSince(now) > TimeInterval(CookieJar.maximumLifetime) {
            expires = now.addingTimeInterval(TimeInterval(CookieJar.maximumLifetime))
        }
        var domain = origin.host
        var hostOnly = true
        if let attribute = parsed.domain {
            // A trailing dot names another domain (RFC 6265 has no rule folding it away).
            guard !attribute.hasSuffix("."), let normalized = HostName.normalized(attribute) else { return nil }
            if publicSuffixes.isPublicSuffix(normalized) || (publicSuffixes.isFallback && !normalized.utf8.contains(UInt8(ascii: "."))) {
                // A public suffix is the request's own host at most, then as a host-only cookie.
                guard normalized == origin.host else { return nil }
            } else {
                guard CookieJar.domainMatches(origin.host, normalized) else { return nil }
                domain = normalized
                hostOnly = false
            }
        }
        let path = parsed.path ?? CookieJar.defaultPath(origin.path)
        if parsed.secure && !origin.isSecure { return nil }
        if parsed.name.hasPrefix("__Secure-") && !parsed.secure { return nil }
        if parsed.name.hasPrefix("__Host-") && !(parsed.secure && hostOnly && path == "/") { return nil }
        let cookie = Cookie(
            name: parsed.name, value: parsed.value, domain: domain, path: path, expires: expires, created: now,
            hostOnly: hostOnly, secure: parsed.secure, httpOnly: parsed.httpOnly, sameSite: parsed.sameSite
        )
        return state.withLock { state -> Cookie? in
            if !origin.isSecure, CookieJar.shadowsSecureCookie(cookie, in: state) { return nil }
            return keep(cookie, in: &state, at: now)
        }
    }

    /// Stores `cookie` in place of the one with its key, which keeps its creation time and place
    /// in the order; an expired cookie removes it instead. Then the limits are enforced.
    /// - Returns: the cookie as stored, or `nil` when it was a deletion.
    private func keep(_ cookie: Cookie, in state: inout State, at now: Date) -> Cookie? {
        let key = cookie.key
        guard !cookie.isExpired(at: now) else {
            state.remove(key)
            return nil
        }
        let existing = state.entries[key]
        var stored = cookie
        if let existing { stored.created = existing.cookie.created }
        state.put(Entry(cookie: stored, sequence: existing?.sequence ?? state.nextSequence, group: existing?.group ?? group(of: cookie.domain)), at: key)
        if existing == nil { state.nextSequence += 1 }
        enforceLimits(in: &state, keeping: key, now: now)
        return state.entries[key]?.cookie
    }

    /// RFC 6265bis: from an insecure origin, a cookie may not replace or shadow a secure cookie
    /// of the same name whose domain covers it and whose path covers it.
    private static func shadowsSecureCookie(_ cookie: Cookie, in state: State) -> Bool {
        state.secureKeys.contains { key in
            guard let secure = state.entries[key]?.cookie else { return false }
            return secure.secure && secure.name.hasSameCodePoints(as: cookie.name)
                && (domainMatches(cookie.domain, secure.domain) || domainMatches(secure.domain, cookie.domain))
                && pathMatches(cookie.path, secure.path)
        }
    }

    /// The registrable domain a cookie of `domain` counts under (the domain itself when it has
    /// none: an IP address, a public suffix host).
    private func group(of domain: String) -> String {
        publicSuffixes.registrableDomain(of: domain) ?? domain
    }

    /// Drops expired cookies, then the least recently used, past the limits; never `kept`.
    private func enforceLimits(in state: inout State, keeping kept: Cookie.Key, now: Date) {
        guard let group = state.entries[kept]?.group else { return }
        let groupCount = state.groupCounts[group] ?? 0
        if groupCount > maximumCookiesPerDomain {
            evict(groupCount - maximumCookiesPerDomain, from: &state, where: { $0.group == group }, keeping: kept, now: now)
        }
        if state.entries.count > maximumCookies {
            evict(state.entries.count - maximumCookies, from: &state, where: { _ in true }, keeping: kept, now: now)
        }
    }

    private func evict(_ count: Int, from state: inout State, where include: (Entry) -> Bool, keeping kept: Cookie.Key, now: Date) {
        // Expired first, then the least recently used, then the oldest.
        func goesFirst(_ left: Entry, _ right: Entry) -> Bool {
            let (leftExpired, rightExpired) = (left.cookie.isExpired(at: now), right.cookie.isExpired(at: now))
            if leftExpired != rightExpired { return leftExpired }
            if left.cookie.lastAccessed != right.cookie.lastAccessed { return left.cookie.lastAccessed < right.cookie.lastAccessed }
            return left.sequence < right.sequence
        }
        if count == 1 {
            // One over the limit, as each new cookie past it is: the first to go, found in one
            // pass, not by sorting the jar (a response of 10,000 Set-Cookie lines took 27 s so).
            var first: (key: Cookie.Key, entry: Entry)?
            for (key, entry) in state.entries where include(entry) && key != kept {
                if first.map({ goesFirst(entry, $0.entry) }) ?? true { first = (key, entry) }
            }
            if let first { state.remove(first.key) }
            return
        }
        let candidates = state.entries.filter { include($0.value) && $0.key != kept }
        for (key, _) in candidates.sorted(by: { goesFirst($0.value, $1.value) }).prefix(count) { state.remove(key) }
    }

    // MARK: Matching (RFC 6265 sections 5.1.3 and 5.1.4)

    /// Whether `host` is `domain` or a name below it; never for an IP address.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host.utf8.elementsEqual(domain.utf8) { return true }
        guard !host.utf8.contains(UInt8(ascii: ":")), !PublicSuffixList.isIPv4(host) else { return false }
        return HostName.isBelow(host, Substring(domain).utf8)
    }

    /// Whether a request path is within a cookie's path.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let request = requestPath.utf8
        let cookie = cookiePath.utf8
        guard request.starts(with: cookie) else { return false }
        if request.count == cookie.count || cookie.last == UInt8(ascii: "/") { return true }
        return request[request.index(request.startIndex, offsetBy: cookie.count)] == UInt8(ascii: "/")
    }

    /// The directory of a request path: `/` for `/`, `/a` or anything not starting with `/`.
    static func defaultPath(_ requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let slash = requestPath.utf8.lastIndex(of: UInt8(ascii: "/")),
            slash != requestPath.utf8.startIndex
        else { return "/" }
        return String(requestPath[..<slash])
    }
}
