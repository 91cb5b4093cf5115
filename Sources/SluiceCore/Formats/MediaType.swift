import Foundation

/// A media type as `Content-Type` carries it: `type/subtype` and parameters such as `charset`.
///
/// Type, subtype and parameter names compare without case (RFC 9110 section 8.3.1); a `*`
/// type or subtype in a pattern matches any.
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// The top-level type, lowercased: `application`, `text`, or `*`.
    public var type: String
    /// The subtype, lowercased: `json`, `plain`, `vnd.api+json`, or `*`.
    public var subtype: String
    /// The parameters, names lowercased, values unquoted, in order.
    public var parameters: [(name: String, value: String)]

    /// Creates a media type.
    public init(type: String, subtype: String, parameters: [(name: String, value: String)] = []) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = parameters.map { ($0.name.lowercased(), $0.value) }
    }

    /// Parses `type/subtype; name=value; name="quoted value"`; `nil` when there is no
    /// `type/subtype`.
    public init?(parsing text: String) {
        let (first, pieces) = MediaType.splitParameters(text)
        let essence = first.trimmingHTTPWhitespace()
        guard let slash = essence.utf8.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let type = essence[..<slash]
        let subtype = essence[essence.utf8.index(after: slash)...]
        guard !type.isEmpty, !subtype.isEmpty, !subtype.utf8.contains(UInt8(ascii: "/")),
            !essence.utf8.contains(where: { $0 <= UInt8(ascii: " ") || $0 >= 0x80 }) || !essence.contains(where: \.isWhitespace)
        else { return nil }
        var parameters: [(String, String)] = []
        for piece in pieces {
            guard let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = piece[..<equals].trimmingHTTPWhitespace()
            var value = String(piece[piece.utf8.index(after: equals)...].trimmingHTTPWhitespace())
            if value.utf8.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast()).replacingCodePoints(of: "\\\"", with: "\"")
            }
            if !name.isEmpty { parameters.append((String(name), value)) }
        }
        self.init(type: String(type), subtype: String(subtype), parameters: parameters)
    }

    /// Splits at semicolons outside quoted strings. The delimiters are ASCII, so the split works
    /// on UTF-8 bytes.
    private static func splitParameters(_ text: String) -> (first: Substring, parameters: [Substring]) {
        var first: Substring?
        var pieces: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        var index = text.utf8.startIndex
        while index < text.utf8.endIndex {
            let byte = text.utf8[index]
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") && quoted {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ";") && !quoted {
                if first == nil { first = text[start..<index] } else { pieces.append(text[start..<index]) }
                start = text.utf8.index(after: index)
            }
            index = text.utf8.index(after: index)
        }
        guard let first else { return (text[start...], []) }
        pieces.append(text[start...])
        return (first, pieces)
    }

    /// `type/subtype`, without parameters.
    public var essence: String { "\(type)/\(subtype)" }

    /// The value of a parameter, its name compared without case.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name.lowercased() }?.value
    }

    /// The `charset` parameter, if any.
    public var charset: String? { parameter("charset") }

    /// Whether this media type falls under a pattern such as `application/json`, `text/*` or `*/*`;
    /// parameters are not compared.
    public func matches(_ pattern: MediaType) -> Bool {
        (pattern.type == "*" || pattern.type == type) && (pattern.subtype == "*" || pattern.subtype == subtype)
    }

    /// Whether this is JSON: `application/json`, `text/json`, `text/javascript`, or any `+json` subtype.
    public var isJSON: Bool {
        switch (type, subtype) {
        case ("application", "json"), ("text", "json"), ("text", "javascript"): true
        default: subtype.hasSuffix("+json")
        }
    }

    /// Whether this is a property list: `application/x-plist`.
    public var isPropertyList: Bool {
        type == "application" && subtype == "x-plist"
    }

    /// Whether this is text: any `text/*`, or XML, or a form body.
    public var isText: Bool {
        type == "text" || subtype == "xml" || subtype.hasSuffix("+xml") || (type == "application" && subtype == "x-www-form-urlencoded")
    }

    /// `type/subtype; name=value`, values quoted where they need it.
    public var description: String {
        parameters.reduce(essence) { text, parameter in
            let plain = !parameter.value.isEmpty && parameter.value.allSatisfy { $0.isLetter || $0.isNumber || "-._+".contains($0) }
            return text + "; \(parameter.name)=" + (plain ? parameter.value : "\"" + parameter.value.replacingCodePoints(of: "\"", with: "\\\"") + "\"")
        }
    }

    /// Equal when type, subtype and parameters are equal.
    public static func == (lhs: MediaType, rhs: MediaType) -> Bool {
        lhs.type == rhs.type && lhs.subtype == rhs.subtype
            && lhs.parameters.map(\.name) == rhs.parameters.map(\.name) && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
    }

    /// Hashes type and subtype.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(subtype)
    }
}
