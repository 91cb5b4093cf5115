/// One challenge of a `WWW-Authenticate` field (RFC 9110 section 11.6.1): an authentication
/// scheme and its parameters, or its `token68`.
///
/// A field may hold several challenges, and a response several fields; `parse` reads them
/// all, in order. Scheme and parameter names compare without ASCII case, as the RFC says;
/// values are kept as sent (a quoted string unquoted), compared byte for byte.
///
/// ```swift
/// let challenges = AuthenticationChallenge.parse(#"Digest realm="api", nonce="abc", Basic realm="api""#)
/// // challenges.map(\.scheme) == ["Digest", "Basic"]
/// ```
public struct AuthenticationChallenge: Sendable, Hashable, CustomStringConvertible {
    /// The scheme as the server wrote it (`Digest`, `Basic`, `Negotiate`).
    public var scheme: String
    /// The parameters in the order sent, each name in lowercase.
    public var parameters: [(name: String, value: String)]
    /// The challenge's `token68` (a `Negotiate` blob), when it has one instead of parameters.
    public var token68: String?

    /// Creates a challenge.
    public init(scheme: String, parameters: [(name: String, value: String)] = [], token68: String? = nil) {
        self.scheme = scheme
        self.parameters = parameters.map { (name: $0.name.asciiLowercased, value: $0.value) }
        self.token68 = token68
    }

    /// The first value of parameter `name` (any ASCII case), or `nil`.
    public subscript(_ name: String) -> String? {
        let name = name.asciiLowercased
        return parameters.first { $0.name.utf8.elementsEqual(name.utf8) }?.value
    }

    /// Whether the scheme is `name`, compared without ASCII case.
    public func isScheme(_ name: String) -> Bool {
        scheme.asciiLowercased.utf8.elementsEqual(name.asciiLowercased.utf8)
    }

    /// The scheme and its realm, when it has one: `Digest (realm "api")`.
    public var description: String {
        self["realm"].map { "\(scheme) (realm \"\($0)\")" } ?? scheme
    }

    /// Equal when scheme, parameters and token68 are the same bytes, in the same order.
    public static func == (lhs: AuthenticationChallenge, rhs: AuthenticationChallenge) -> Bool {
        let sameToken = lhs.token68.map { Array($0.utf8) } == rhs.token68.map { Array($0.utf8) }
        let sameParameters = lhs.parameters.count == rhs.parameters.count
            && zip(lhs.parameters, rhs.parameters).allSatisfy { $0.name.utf8.elementsEqual($1.name.utf8) && $0.value.utf8.elementsEqual($1.value.utf8) }
        return lhs.scheme.utf8.elementsEqual(rhs.scheme.utf8) && sameToken && sameParameters
    }

    /// Hashes the bytes equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Array(scheme.utf8))
        for parameter in parameters {
            hasher.combine(Array(parameter.name.utf8))
            hasher.combine(Array(parameter.value.utf8))
        }
        hasher.combine(token68.map { Array($0.utf8) })
    }

    /// The challenges of `WWW-Authenticate` (or `Proxy-Authenticate`) field values, in order.
    /// What does not parse is skipped up to the next comma: a malformed challenge never hides
    /// the well-formed ones beside it.
    public static func parse(_ fieldValues: [String]) -> [AuthenticationChallenge] {
        fieldValues.flatMap { value in
            var reader = ChallengeReader(Array(value.utf8))
            return reader.read()
        }
    }

    /// The challenges of one field value.
    public static func parse(_ fieldValue: String) -> [AuthenticationChallenge] {
        parse([fieldValue])
    }
}

/// The grammar of RFC 9110 section 11.6.1 over one field value's bytes:
/// `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, challenges and parameters
/// separated by commas (empty list elements allowed), `auth-param = token BWS "=" BWS ( token /
/// quoted-string )`.
private struct ChallengeReader {
    private let bytes: [UInt8]
    private var index = 0
    private var challenges: [AuthenticationChallenge] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func read() -> [AuthenticationChallenge] {
        while true {
            skip { $0 == .comma || $0.isWhiteSpace }
            guard index < bytes.count else { break }
            guard let name = readToken() else {
                skipToNextComma()
                continue
            }
            let afterName = index
            skip { $0.isWhiteSpace }
            if index < bytes.count, bytes[index] == .equals {
                // A parameter; before any scheme, there is no challenge it could belong to.
                if challenges.isEmpty { skipToNextComma() } else { readParameterValue(named: name) }
                continue
            }
            index = afterName
            startChallenge(name)
        }
        return challenges
    }

    /// After a scheme: its token68, or nothing (its parameters, if any, follow as list elements).
    private mutating func startChallenge(_ scheme: String) {
        challenges.append(AuthenticationChallenge(scheme: scheme))
        let afterScheme = index
        skip { $0 == .space || $0 == .tab }
        guard index > afterScheme else {
            skipToNextComma()
            return
        }
        // `abc==` is a token68 when the element ends there; `realm="x"` starts a parameter.
        let tokenStart = index
        while index < bytes.count, bytes[index].isToken68 { index += 1 }
        guard index > tokenStart else { return }
        while index < bytes.count, bytes[index] == .equals { index += 1 }
        let tokenEnd = index
        skip { $0.isWhiteSpace }
        if index == bytes.count || bytes[index] == .comma {
            challenges[challenges.count - 1].token68 = String(decoding: bytes[tokenStart..<tokenEnd], as: UTF8.self)
            return
        }
        index = tokenStart
    }

    /// Reads `= value` after a parameter's name and adds the parameter to the last challenge; a
    /// parameter without a value, or with more after it, is skipped to the next comma.
    private mutating func readParameterValue(named name: String) {
        index += 1
        skip { $0.isWhiteSpace }
        let value: String?
        if index < bytes.count, bytes[index] == .quote {
            value = readQuotedString()
        } else {
            value = readToken()
        }
        skip { $0.isWhiteSpace }
        guard let value, index == bytes.count || bytes[index] == .comma else {
            skipToNextComma()
            return
        }
        challenges[challenges.count - 1].parameters.append((name: name.asciiLowercased, value: value))
    }

    private mutating func readToken() -> String? {
        let start = index
        while index < bytes.count, bytes[index].isTokenCharacter { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// A quoted string without its quotes, each quoted-pair unescaped; `nil` when it never closes.
    private mutating func readQuotedString() -> String? {
        var value: [UInt8] = []
        var cursor = index + 1
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == .quote {
                index = cursor + 1
                return String(decoding: value, as: UTF8.self)
            }
            if byte == .backslash, cursor + 1 < bytes.count {
                value.append(bytes[cursor + 1])
                cursor += 2
            } else {
                value.append(byte)
                cursor += 1
            }
        }
        return nil
    }

    private mutating func skipToNextComma() {
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if quoted, byte == .backslash {
                index += 2
                continue
            }
            if byte == .quote { quoted.toggle() }
            if byte == .comma, !quoted { return }
            index += 1
        }
        index = bytes.count
    }

    private mutating func skip(while condition: (UInt8) -> Bool) {
        while index < bytes.count, condition(bytes[index]) { index += 1 }
    }
}

extension UInt8 {
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let tab = UInt8(ascii: "\t")

    fileprivate var isWhiteSpace: Bool { self == .space || self == .tab }

    /// A `token68` character other than its trailing `=` (RFC 9110 section 11.2).
    fileprivate var isToken68: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~+/".utf8.contains(self)
        }
    }
}
