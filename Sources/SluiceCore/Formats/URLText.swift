import Foundation

/// URL text as a person wrote it, made into the URL that is sent: the one function every place
/// that reads a URL goes through (``Request/init(method:_:headers:body:pathParameters:parameters:parts:)``,
/// ``URLResolution``, ``Redirection``, ``Serialization``'s query, the runner's `path:` and
/// `sluice send`), so that the dry run, `sluice curl` and the transport agree.
///
/// What is written stays as written: a valid percent-escape (`%3D`, `%C3%A9`) is kept, never
/// escaped again, and characters RFC 3986 allows are never escaped. An absolute URL's `.` and
/// `..` segments are removed, as libcurl removes them before sending, so that the URL a dry run
/// shows is the one that goes out. Only what cannot stand in
/// its component is escaped: a space, controls, non-ASCII text, a `%` that starts no escape, and
/// the characters RFC 3986 and the WHATWG URL Standard exclude from the component (`"`, `<`, `>`,
/// a backtick, `{`, `}`, `|`, `\`, `^`, and `[`, `]` outside an IP literal).
///
/// A host no standard allows is refused rather than sent: one holding, once its escapes are
/// decoded, a forbidden domain code point of the WHATWG URL Standard (controls, space, `#`, `%`,
/// `/`, `:`, `<`, `>`, `?`, `@`, `[`, `\`, `]`, `^`, `|`, DEL), an IP literal that is not an IPv6
/// address (with an RFC 6874 zone identifier at most), or a port that is not digits.
public enum URLText {
    /// The URL `text` names, with only what must be escaped escaped; `nil` when it names none
    /// (an empty string, an invalid host or port, a string Foundation cannot hold).
    ///
    /// ```swift
    /// URLText.url("http://example.com/?a=x%3Dy&b={z}")?.absoluteString   // http://example.com/?a=x%3Dy&b=%7Bz%7D
    /// ```
    public static func url(_ text: String) -> URL? {
        url(text, keepingDotSegments: false)
    }

    /// ``url(_:)``, the `.` and `..` segments of an absolute URL kept when `keepingDotSegments`
    /// (curl's `--path-as-is`, ``Request/sendsPathAsIs``).
    public static func url(_ text: String, keepingDotSegments: Bool) -> URL? {
        guard let escaped = escaped(text, keepingDotSegments: keepingDotSegments) else { return nil }
        return RecentURLs.url(escaped)
    }

    /// `text` with only what must be escaped escaped, component by component; `nil` when its
    /// authority holds a host or port no standard allows.
    public static func escaped(_ text: String, keepingDotSegments: Bool = false) -> String? {
        escaped(URIReference(parsing: text), authorityChecked: false, keepingDotSegments: keepingDotSegments)
    }

    /// The URL of a reference already split, its authority taken as it is when `authorityChecked`
    /// (one ``escaped(_:keepingDotSegments:)`` returned before: a base's, which every reference
    /// resolved against it shares); `nil` as ``url(_:)``.
    static func url(_ reference: URIReference, authorityChecked: Bool, keepingDotSegments: Bool) -> URL? {
        escaped(reference, authorityChecked: authorityChecked, keepingDotSegments: keepingDotSegments).flatMap(RecentURLs.url)
    }

    private static func escaped(_ reference: URIReference, authorityChecked: Bool, keepingDotSegments: Bool) -> String? {
        var reference = reference
        // RFC 3986 section 4.2: a colon in the first segment of a relative path reads as a scheme,
        // so such a path is no reference (`{id}:run`, `://a`; `./{id}:run` is one). Foundation
        // would read `://a` as a URL with an empty scheme and a host.
        if let scheme = reference.scheme, !isScheme(scheme) { return nil }
        if reference.scheme == nil, reference.authority == nil,
            reference.path.utf8.prefix(while: { $0 != UInt8(ascii: "/") }).contains(UInt8(ascii: ":"))
        { return nil }
        if !authorityChecked, let authority = reference.authority {
            guard let checked = checkedAuthority(authority) else { return nil }
            reference.authority = checked
        }
        reference.path = escape(reference.path, keeping: isPathByte)
        if reference.scheme != nil, !keepingDotSegments {
            // What libcurl sends, and so what the URL says: '.' and '..' segments removed
            // (RFC 3986 section 5.2.4), as curl removes them. A relative reference loses them when
            // it is resolved.
            reference.path = URIReference.removingDotSegments(reference.path)
        }
        reference.query = reference.query.map { escape($0, keeping: isQueryByte) }
        reference.fragment = reference.fragment.map { escape($0, keeping: isQueryByte) }
        return reference.description
    }

    /// `text` (a URL) with `query` joined to its query, before any fragment: after a `&` when the
    /// query has text, after a `?` when there is none, as curl's `-G` joins its data and
    /// ``Serialization`` its parameters. Nothing is escaped or read again.
    ///
    /// ```swift
    /// URLText.appendingQuery("a=1", to: "http://h/p?x=%3D#top")   // http://h/p?x=%3D&a=1#top
    /// ```
    public static func appendingQuery(_ query: String, to text: String) -> String {
        let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) ?? text.endIndex
        let beforeFragment = text[..<hash]
        var joined = String(beforeFragment)
        if let question = beforeFragment.utf8.firstIndex(of: UInt8(ascii: "?")) {
            if beforeFragment.utf8.index(after: question) != beforeFragment.endIndex { joined += "&" }
        } else {
            joined += "?"
        }
        joined += query
        joined += text[hash...]
        return joined
    }

    // MARK: Components

    /// RFC 3986 section 3.1: a letter, then letters, digits, `+`, `-` and `.`.
    private static func isScheme(_ text: String) -> Bool {
        guard let first = text.utf8.first, first.isASCIILetter else { return false }
        return text.utf8.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// The authority with its user information escaped and its host and port checked; `nil`
    /// when the host or port is not allowed.
    private static func checkedAuthority(_ authority: String) -> String? {
        var hostAndPort = Substring(authority)
        var userInfo: String?
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            userInfo = escape(String(authority[..<at]), keeping: isUserInfoByte)
            hostAndPort = authority[authority.utf8.index(after: at)...]
        }
        var host = hostAndPort
        var port: Substring?
        if hostAndPort.utf8.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.utf8.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = hostAndPort[...close]
            let rest = hostAndPort[hostAndPort.utf8.index(after: close)...]
            if !rest.isEmpty {
                guard rest.utf8.first == UInt8(ascii: ":") else { return nil }
                port = rest.dropFirst()
            }
            guard isIPLiteral(host.dropFirst().dropLast()) else { return nil }
        } else {
            if let colon = hostAndPort.utf8.lastIndex(of: UInt8(ascii: ":")) {
                host = hostAndPort[..<colon]
                port = hostAndPort[hostAndPort.utf8.index(after: colon)...]
            }
            guard let decoded = registeredName(host) else { return nil }
            host = Substring(decoded)
        }
        if let port, !port.utf8.allSatisfy(\.isASCIIDigit) { return nil }
        return (userInfo.map { $0 + "@" } ?? "") + host + (port.map { ":" + $0 } ?? "")
    }

    /// A registered name with its escapes decoded (the WHATWG URL Standard's host parser does
    /// the same), or `nil` when it holds a forbidden domain code point, before or after. A name
    /// whose last label is a number is an IPv4 address to the WHATWG URL Standard (and to the
    /// system's resolver, `inet_aton`): written in dotted decimal when it is one (`0x7f.1` is
    /// `127.0.0.1`), refused when it is not (`1.2.3.08`, `256.0.0.1`), so that what the `Host`
    /// field says is the address connected to.
    private static func registeredName(_ host: Substring) -> String? {
        var name = String(host)
        if host.utf8.contains(UInt8(ascii: "%")) {
            guard let decoded = name.removingPercentEncoding else { return nil }
            name = decoded
        }
        guard !name.utf8.contains(where: isForbiddenInDomain) else { return nil }
        switch IPv4Text(host: name) {
        case .notAddress: return name
        case .invalid: return nil
        case .address(let dotted): return dotted
        }
    }

    /// The WHATWG URL Standard's forbidden domain code points (ASCII; non-ASCII text is left to
    /// IDNA).
    private static func isForbiddenInDomain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F, UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"),
            UInt8(ascii: "^"), UInt8(ascii: "|"):
            true
        default:
            false
        }
    }

    /// An IPv6 address (hex digits, `:` and a dotted IPv4 tail), with an RFC 6874 zone
    /// identifier (`%25` then unreserved characters) at most. IPvFuture is not sent by libcurl,
    /// so it is refused.
    private static func isIPLiteral(_ literal: Substring) -> Bool {
        var address = literal
        if let percent = literal.utf8.firstIndex(of: UInt8(ascii: "%")) {
            address = literal[..<percent]
            let zone = literal[percent...]
            guard zone.utf8.starts(with: "%25".utf8), zone.utf8.count > 3,
                zone.utf8.dropFirst(3).allSatisfy({ PercentEncoding.isUnreserved($0) })
            else { return false }
        }
        var addressBytes = [UInt8](address.utf8)
        addressBytes.append(0)
        var storage = in6_addr()
        return addressBytes.withUnsafeBufferPointer { inet_pton(AF_INET6, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), &storage) } == 1
    }

    /// RFC 3986's unreserved characters and sub-delimiters.
    private static func isSubDelimiterOrUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default:
            PercentEncoding.isUnreserved(byte)
        }
    }

    private static func isUserInfoByte(_ byte: UInt8) -> Bool {
        isSubDelimiterOrUnreserved(byte) || byte == UInt8(ascii: ":")
    }

    /// RFC 3986's `pchar`: what a path segment holds as written.
    static func isSegmentByte(_ byte: UInt8) -> Bool {
        isSubDelimiterOrUnreserved(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }

    /// RFC 3986's `pchar` and `/`.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        isSegmentByte(byte) || byte == UInt8(ascii: "/")
    }

    /// RFC 3986's query and fragment characters: `pchar`, `/` and `?`.
    static func isQueryByte(_ byte: UInt8) -> Bool {
        isPathByte(byte) || byte == UInt8(ascii: "?")
    }

    /// `text` with every byte `keeps` refuses percent-encoded, and a `%` kept only where two hex
    /// digits follow it (a valid escape stays as written).
    private static func escape(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        PercentEncoding.encode(text, keepingEscapes: true, keeping: keeps)
    }
}
