import Foundation

/// A `Set-Cookie` field read by RFC 6265 section 5.2's algorithm, before the storage model
/// decides whether and where the cookie is kept.
struct SetCookie: Sendable {
    var name: String
    var value: String
    /// `Expires`, when it held a date the algorithm reads.
    var expires: Date?
    /// `Max-Age` in seconds; it wins over `Expires`.
    var maxAge: Int?
    /// `Domain`, lower case, its leading dot removed; `nil` when absent or empty.
    var domain: String?
    /// `Path`, when it starts with `/`.
    var path: String?
    var secure = false
    var httpOnly = false
    var sameSite: String?

    /// The most bytes a name and value may hold together, as RFC 6265bis and browsers limit them.
    static let maximumNameAndValueSize = 4096
    /// The most bytes an attribute's value may hold; a longer one is ignored (RFC 6265bis).
    static let maximumAttributeValueSize = 1024

    /// Reads one field value; `nil` when the algorithm ignores the whole field (no `=`, an empty
    /// name, a control character, or a name and value past 4096 bytes).
    init?(_ field: String) {
        let bytes = Array(field.utf8)
        // RFC 6265bis: a control character other than a tab anywhere ignores the whole field.
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        let pairEnd = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        let pair = bytes[..<pairEnd]
        guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = pair[..<equals].trimmingHTTPWhitespace()
        let value = pair[(equals + 1)...].trimmingHTTPWhitespace()
        // Controls (tab included, as curl refuses it: it would break the cookie-file format) end
        // the cookie; a name or value cannot smuggle a header or a second line.
        guard !name.isEmpty, name.count + value.count <= SetCookie.maximumNameAndValueSize,
            !(name + value).contains(where: { $0 < 0x20 || $0 == 0x7F })
        else { return nil }
        self.name = String(decoding: name, as: UTF8.self)
        self.value = String(decoding: value, as: UTF8.self)
        guard pairEnd < bytes.endIndex else { return }
        for attribute in bytes[(pairEnd + 1)...].split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            let equals = attribute.firstIndex(of: UInt8(ascii: "="))
            let key = String(decoding: attribute[..<(equals ?? attribute.endIndex)].trimmingHTTPWhitespace(), as: UTF8.self).lowercased()
            let rawValue = equals.map { attribute[($0 + 1)...].trimmingHTTPWhitespace() } ?? []
            guard rawValue.count <= SetCookie.maximumAttributeValueSize else { continue }
            let text = String(decoding: rawValue, as: UTF8.self)
            switch key {
            case "expires":
                if let date = CookieDate.parse(text) { expires = date }
            case "max-age":
                if let first = rawValue.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first),
                    rawValue.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }), rawValue.count > (first == UInt8(ascii: "-") ? 1 : 0)
                {
                    // A number too large for Int is as good as forever.
                    maxAge = Int(text) ?? (first == UInt8(ascii: "-") ? Int.min : Int.max)
                }
            case "domain" where rawValue.contains(0x09), "path" where rawValue.contains(0x09):
                // A tab inside a domain or path has no use, and would split a line of a cookie file.
                return nil
            case "domain":
                var domain = Substring(text)
                if domain.hasPrefix(".") { domain = domain.dropFirst() }
                // An empty Domain is ignored, as RFC 6265 section 5.2.3 advises.
                if !domain.isEmpty { self.domain = domain.lowercased() }
            case "path":
                path = text.hasPrefix("/") ? text : nil
            case "secure":
                secure = true
            case "httponly":
                httpOnly = true
            case "samesite":
                sameSite = text
            default:
                break
            }
        }
    }
}
