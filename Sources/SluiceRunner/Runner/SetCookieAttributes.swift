import Foundation
import SluiceCore
import SluicePipelineFiles

/// A `Set-Cookie` field's name, value and attributes as the server wrote them: what a
/// `set-cookie` query reads (Hurl's `cookie "NAME[Max-Age]"`), before any storage rule applies.
struct SetCookieAttributes {
    /// The cookie's name.
    var name: String
    /// The cookie's value.
    var value: String
    /// The attributes in order, names as written; `nil` for one without `=` (`Secure`).
    var attributes: [(name: String, value: String?)]

    /// The first field that sets a cookie of this name (compared code point by code point).
    static func find(_ name: String, in fields: [String]) -> SetCookieAttributes? {
        fields.lazy.compactMap(SetCookieAttributes.init).first { $0.name.hasSameCodePoints(as: name) }
    }

    /// Reads one field; `nil` when its first part has no `=`.
    init?(_ field: String) {
        let parts = field.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first, let equals = first.firstIndex(of: "=") else { return nil }
        name = first[..<equals].trimmingCharacters(in: .whitespaces)
        value = first[first.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        attributes = parts.dropFirst().filter { !$0.isEmpty }.map { part in
            guard let equals = part.firstIndex(of: "=") else { return (part, nil) }
            return (part[..<equals].trimmingCharacters(in: .whitespaces), part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// An attribute's value: `Max-Age` an integer, `Secure` and `HttpOnly` `true` when present,
    /// the others as written; `nil` when the field does not have it. Attribute names are matched
    /// without regard to case, as RFC 6265 reads them.
    func value(of attribute: CheckQuery.CookieAttribute) -> CheckValue? {
        if attribute == .value { return .json(.string(value)) }
        guard let written = attributes.last(where: { $0.name.lowercased() == attribute.rawValue.lowercased() }) else { return nil }
        switch attribute {
        case .secure, .httpOnly:
            return .json(.bool(true))
        case .maxAge:
            guard let text = written.value else { return nil }
            return .json(JSONValue(integerText: text) ?? .string(text))
        case .expires:
            // A date, as Hurl gives it (for `format`), read by RFC 6265's forgiving algorithm.
            guard let text = written.value else { return nil }
            return CookieDate.parse(text).map(CheckValue.date) ?? .json(.string(text))
        default:
            return written.value.map { .json(.string($0)) }
        }
    }
}
