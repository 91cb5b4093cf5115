/// A URI reference split into its five components, and resolution of one reference against a
/// base, exactly as RFC 3986 section 5 specifies (strict parser: a reference with a scheme is
/// absolute even when the scheme is the base's).
///
/// Works on strings, so it gives the RFC's answers where Foundation's `URL(string:relativeTo:)`
/// does not (empty references, `g;x=1/../y`-style dot segments), and never percent-encodes or
/// decodes anything.
public struct URIReference: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, without `:`; `nil` for a relative reference.
    public var scheme: String?
    /// The authority, without `//`; `nil` when there is none (an empty authority is `""`).
    public var authority: String?
    /// The path, possibly empty.
    public var path: String
    /// The query, without `?`; `nil` when there is none.
    public var query: String?
    /// The fragment, without `#`; `nil` when there is none.
    public var fragment: String?

    /// Creates a reference from its components.
    public init(scheme: String? = nil, authority: String? = nil, path: String, query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits a reference the way RFC 3986 appendix B's regular expression does; any string splits.
    /// The delimiters are ASCII, so the split works on UTF-8 bytes.
    public init(parsing text: String) {
        var rest = Substring(text)
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(rest[rest.utf8.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = String(rest[rest.utf8.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }),
            rest.utf8[colon] == UInt8(ascii: ":"), colon != rest.startIndex {
            scheme = String(rest[..<colon])
            rest = rest[rest.utf8.index(after: colon)...]
        }
        if rest.utf8.starts(with: "//".utf8) {
            let afterSlashes = rest.utf8.index(rest.startIndex, offsetBy: 2)
            let end = rest.utf8[afterSlashes...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            authority = String(rest[afterSlashes..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    /// This reference resolved against `base` (RFC 3986 section 5.2.2), which should be absolute.
    /// With `keepingDotSegments` (curl's `--path-as-is`) the `.` and `..` segments stay.
    public func resolved(against base: URIReference, keepingDotSegments: Bool = false) -> URIReference {
        var target = URIReference(path: "")
        if let scheme {
            target.scheme = scheme
            target.authority = authority
            target.path = URIReference.cleaned(path, keepingDotSegments)
            target.query = query
        } else {
            if let authority {
                target.authority = authority
                target.path = URIReference.cleaned(path, keepingDotSegments)
                target.query = query
            } else {
                if path.isEmpty {
                    target.path = base.path
                    target.query = query ?? base.query
                } else {
                    if path.utf8.first == URIReference.slash {
                        target.path = URIReference.cleaned(path, keepingDotSegments)
                    } else {
                        target.path = URIReference.cleaned(merged(with: base), keepingDotSegments)
                    }
                    target.query = query
                }
                target.authority = base.authority
            }
            target.scheme = base.scheme
        }
        target.fragment = fragment
        return target
    }

    /// `path` without its dot segments, unless they are kept.
    private static func cleaned(_ path: String, _ keepingDotSegments: Bool) -> String {
        keepingDotSegments ? path : removingDotSegments(path)
    }

    /// RFC 3986 section 5.2.3: this relative path appended to the base path's directory.
    /// The last `/` is found among the UTF-8 bytes: as a `Character`, a `/` followed by a combining
    /// mark is one grapheme and no `/` at all (found by fuzzing).
    private func merged(with base: URIReference) -> String {
        if base.authority != nil && base.path.isEmpty {
            return "/" + path
        }
        guard let slash = base.path.utf8.lastIndex(of: URIReference.slash) else { return path }
        return base.path[...slash] + path
    }

    /// RFC 3986 section 5.2.4: the path with `.` and `..` segments interpreted and removed.
    ///
    /// The algorithm runs on UTF-8 bytes: its delimiters are ASCII, and a `Character` view would
    /// read `/` and a combining mark after it as one character that is not `/`.
    public static func removingDotSegments(_ path: String) -> String {
        guard hasDotSegment(path) else { return path }
        var input = path.utf8[...]
        var output: [Substring.UTF8View] = []
        func consume(_ count: Int) { input = input.dropFirst(count) }
        while !input.isEmpty {
            if input.starts(with: "../".utf8) {
                consume(3)
            } else if input.starts(with: "./".utf8) {
                consume(2)
            } else if input.starts(with: "/./".utf8) {
                consume(2)
            } else if input.elementsEqual("/.".utf8) {
                input = "/".utf8[...]
            } else if input.starts(with: "/../".utf8) {
                consume(3)
                if !output.isEmpty { output.removeLast() }
            } else if input.elementsEqual("/..".utf8) {
                input = "/".utf8[...]
                if !output.isEmpty { output.removeLast() }
            } else if input.elementsEqual(".".utf8) || input.elementsEqual("..".utf8) {
                input = input.dropFirst(input.count)
            } else {
                let searchStart = input.first == slash ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: slash) ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        var result: [UInt8] = []
        for segment in output { result += segment }
        return String(decoding: result, as: UTF8.self)
    }

    private static let slash = UInt8(ascii: "/")

    /// Whether some `/`-separated segment of `path` is `.` or `..`.
    /// One pass over the bytes, no allocation: it runs for every resolved request.
    private static func hasDotSegment(_ path: String) -> Bool {
        var length = 0
        var dots = 0
        func endsDotSegment() -> Bool { length > 0 && length == dots && dots <= 2 }
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if endsDotSegment() { return true }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return endsDotSegment()
    }

    /// The reference recomposed (RFC 3986 section 5.3). A path that starts with `//` and has no
    /// authority before it (resolution can make one: `..//h` against `http:/a`) is written
    /// `/.//h`, as the WHATWG URL standard does, so that it does not read back as an authority.
    public var description: String {
        var text = ""
        // The whole length first, so the text is allocated once.
        text.reserveCapacity(
            (scheme?.utf8.count ?? -1) + 1 + (authority?.utf8.count ?? 0) + 4 + path.utf8.count
                + (query?.utf8.count ?? -1) + 1 + (fragment?.utf8.count ?? -1) + 1
        )
        if let scheme {
            text += scheme
            text += ":"
        }
        if let authority {
            text += "//"
            text += authority
        } else if path.utf8.starts(with: "//".utf8) {
            text += "/."
        }
        text += path
        if let query {
            text += "?"
            text += query
        }
        if let fragment {
            text += "#"
            text += fragment
        }
        return text
    }
}
