/// The directives of a message's `Cache-Control` fields (RFC 9111 section 5.2), every field line
/// read as one comma-separated list.
///
/// Directive names compare without regard to ASCII case; arguments may be tokens or quoted strings,
/// and recipients accept both forms for every directive, as section 5.2 asks. A directive whose
/// argument is malformed or given twice with different values is ``Seconds/invalid``, which the
/// cache reads in the most restrictive way: a response whose `max-age` is invalid is stale.
public struct CacheControl: Sendable, Hashable {
    /// One directive: its name in lowercase, and its argument without quotes, if it has one.
    public struct Directive: Sendable, Hashable {
        /// The name, lowercased (`max-age`).
        public var name: String
        /// The argument, unquoted (`60`); `nil` when there is none.
        public var argument: String?
    }

    /// A delta-seconds argument (RFC 9111 section 1.2.2).
    public enum Seconds: Sendable, Hashable {
        /// The directive is not there.
        case absent
        /// The directive with no argument (`max-stale` alone).
        case unbounded
        /// The directive with a number of seconds; values past 2^31 read as 2^31, as the RFC says.
        case value(Int)
        /// The directive with an argument that is not a number, or two different ones.
        case invalid
    }

    /// The directives in order.
    public var directives: [Directive]

    /// The largest delta-seconds a cache needs to tell apart (RFC 9111 section 1.2.2).
    static let maximumSeconds = 2_147_483_648

    /// Reads the `Cache-Control` fields of `headers`.
    public init(_ headers: HTTPHeaders) {
        directives = headers.values(for: "Cache-Control").flatMap(CacheControl.directives(in:))
    }

    /// Reads one field value.
    public init(_ value: String) {
        directives = CacheControl.directives(in: value)
    }

    /// Whether the directive `name` (lowercase) is there, with or without an argument.
    public func contains(_ name: String) -> Bool {
        directives.contains { $0.name == name }
    }

    /// The delta-seconds argument of the directive `name` (lowercase).
    public func seconds(_ name: String) -> Seconds {
        var result = Seconds.absent
        for directive in directives where directive.name == name {
            let this: Seconds
            if let argument = directive.argument {
                this = CacheControl.deltaSeconds(argument).map(Seconds.value) ?? .invalid
            } else {
                this = .unbounded
            }
            if case .absent = result { result = this } else if result != this { return .invalid }
        }
        return result
    }

    /// `1*DIGIT`, capped at 2^31; `nil` for anything else.
    static func deltaSeconds(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = min(value * 10 + Int(byte - 0x30), maximumSeconds)
        }
        return value
    }

    /// The directives of one field value: `#cache-directive`, where `cache-directive = token [ "="
    /// ( token / quoted-string ) ]`. Empty list elements are skipped; an element that is not a
    /// directive is kept by its name, so that `max-age` without a number is still seen.
    private static func directives(in value: String) -> [Directive] {
        var directives: [Directive] = []
        let bytes = Array(value.utf8)
        var index = 0
        while index < bytes.count {
            while index < bytes.count, bytes[index] == UInt8(ascii: ",") || isHTTPWhitespace(bytes[index]) { index += 1 }
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ",") { index += 1 }
            let name = bytes[nameStart..<index].trimmingHTTPWhitespace()
            var argument: [UInt8]?
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, isHTTPWhitespace(bytes[index]) { index += 1 }
                var collected: [UInt8] = []
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                        collected.append(bytes[index])
                        index += 1
                    }
                    index += 1
                    // Text after the closing quote stays in the argument, behind the quote, so
                    // that the argument is malformed (`"6"0` is not 60).
                    var trailing = false
                    while index < bytes.count, bytes[index] != UInt8(ascii: ",") {
                        if !isHTTPWhitespace(bytes[index]) {
                            if !trailing { collected.append(UInt8(ascii: "\"")) }
                            trailing = true
                            collected.append(bytes[index])
                        }
                        index += 1
                    }
                } else {
                    while index < bytes.count, bytes[index] != UInt8(ascii: ",") {
                        collected.append(bytes[index])
                        index += 1
                    }
                    collected = Array(collected[...].trimmingHTTPWhitespace())
                }
                argument = collected
            }
            guard !name.isEmpty else { continue }
            directives.append(Directive(
                name: String(decoding: name.map(\.asciiLowercased), as: UTF8.self),
                argument: argument.map { String(decoding: $0, as: UTF8.self) }
            ))
        }
        return directives
    }
}
