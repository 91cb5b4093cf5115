import Foundation

/// A `Strict-Transport-Security` field value, read as RFC 6797 section 6.1 says: directives
/// separated by `;`, names without ASCII case, values a token or a quoted string, `max-age`
/// required and in seconds, `includeSubDomains` without a value, unknown directives ignored, and a
/// field naming any directive twice, or with no valid `max-age`, not a policy at all (`nil`).
public struct StrictTransportSecurityHeader: Sendable, Hashable {
    /// How long the host is to be known, from when the response was received.
    public var maxAge: Int64
    /// Whether the policy covers the host's subdomains too.
    public var includesSubdomains: Bool

    /// Reads a field value; `nil` when it is no valid policy.
    public init?(_ value: String) {
        var maxAge: Int64?
        var includesSubdomains = false
        var seen: Set<String> = []
        for directive in StrictTransportSecurityHeader.directives(in: value) {
            guard let directive else { return nil }
            let name = directive.name.asciiLowercased
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case "max-age":
                guard let text = directive.value, !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
                // Past Int64 the age is as good as forever: clamp rather than refuse.
                maxAge = Int64(text) ?? Int64.max
            case "includesubdomains":
                guard directive.value == nil else { return nil }
                includesSubdomains = true
            default:
                continue
            }
        }
        guard let maxAge else { return nil }
        self.maxAge = maxAge
        self.includesSubdomains = includesSubdomains
    }

    /// The directives of a field value, `nil` for one that is malformed (an empty name, an
    /// unterminated quoted string, text after a quoted value). Empty directives (`;;`) are skipped.
    private static func directives(in value: String) -> [(name: String, value: String?)?] {
        var result: [(name: String, value: String?)?] = []
        var bytes = Substring(value).utf8[...]
        func skipWhitespace() { while let byte = bytes.first, byte == 0x20 || byte == 0x09 { bytes.removeFirst() } }
        while true {
            skipWhitespace()
            guard !bytes.isEmpty else { return result }
            if bytes.first == UInt8(ascii: ";") {
                bytes.removeFirst()
                continue
            }
            let nameEnd = bytes.firstIndex { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ";") || $0 == 0x20 || $0 == 0x09 } ?? bytes.endIndex
            let name = String(decoding: bytes[..<nameEnd], as: UTF8.self)
            bytes = bytes[nameEnd...]
            guard !name.isEmpty else { return result + [nil] }
            skipWhitespace()
            var directiveValue: String?
            if bytes.first == UInt8(ascii: "=") {
                bytes.removeFirst()
                skipWhitespace()
                if bytes.first == UInt8(ascii: "\"") {
                    bytes.removeFirst()
                    var text: [UInt8] = []
                    var closed = false
                    while let byte = bytes.popFirst() {
                        if byte == UInt8(ascii: "\\"), let escaped = bytes.popFirst() {
                            text.append(escaped)
                        } else if byte == UInt8(ascii: "\"") {
                            closed = true
                            break
                        } else {
                            text.append(byte)
                        }
                    }
                    guard closed else { return result + [nil] }
                    directiveValue = String(decoding: text, as: UTF8.self)
                } else {
                    let valueEnd = bytes.firstIndex { $0 == UInt8(ascii: ";") || $0 == 0x20 || $0 == 0x09 } ?? bytes.endIndex
                    directiveValue = String(decoding: bytes[..<valueEnd], as: UTF8.self)
                    bytes = bytes[valueEnd...]
                }
                skipWhitespace()
            }
            guard bytes.isEmpty || bytes.first == UInt8(ascii: ";") else { return result + [nil] }
            result.append((name, directiveValue))
        }
    }
}
