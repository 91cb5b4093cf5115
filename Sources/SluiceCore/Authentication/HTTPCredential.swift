/// A username and password for HTTP authentication, and the schemes it may answer.
///
/// Its description never shows the password.
///
/// ```swift
/// let credential = HTTPCredential(username: "alice", password: "wonder land 7", schemes: .digest)
/// ```
public struct HTTPCredential: Sendable, Hashable, CustomStringConvertible {
    /// The user.
    public var username: String
    /// The password, a secret: sent only as the scheme demands (hashed by Digest).
    public var password: String
    /// The schemes the credential answers.
    public var schemes: HTTPAuthenticationSchemes

    /// Creates a credential; `schemes` defaults to ``HTTPAuthenticationSchemes/any``.
    public init(username: String, password: String, schemes: HTTPAuthenticationSchemes = .any) {
        self.username = username
        self.password = password
        self.schemes = schemes
    }

    /// `alice (Basic, Digest)`: the user and the schemes, never the password.
    public var description: String { "\(username) (\(schemes))" }

    /// Equal when user, password and schemes are: the strings byte for byte.
    public static func == (lhs: HTTPCredential, rhs: HTTPCredential) -> Bool {
        lhs.username.utf8.elementsEqual(rhs.username.utf8) && lhs.password.utf8.elementsEqual(rhs.password.utf8) && lhs.schemes == rhs.schemes
    }

    /// Hashes the user's bytes and the schemes, never the password.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Array(username.utf8))
        hasher.combine(schemes)
    }
}

/// The HTTP authentication schemes Sluice answers: Basic (RFC 7617) and Digest (RFC 7616, with
/// MD5, SHA-256 and SHA-512-256, and their `-sess` variants).
///
/// NTLM and Negotiate are not offered: no peer on the test machine speaks them, and what is not
/// tested is not offered. A server that offers only those gets a typed error naming them.
///
/// With ``basic`` alone the credential is sent with the first request, as curl's `--basic` does;
/// with ``digest`` or ``any`` the first request goes without it and the server's challenge
/// chooses, as curl's `--digest` and `--anyauth` do (a later request to the same origin answers
/// the challenge it already knows at once).
public struct HTTPAuthenticationSchemes: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits: 1 for Basic, 2 for Digest.
    public let rawValue: Int

    /// Creates a set from its raw bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Basic: the username and password in the clear (base64), sent at once.
    public static let basic = HTTPAuthenticationSchemes(rawValue: 1 << 0)
    /// Digest: a hash of the password, the server's nonce and the request.
    public static let digest = HTTPAuthenticationSchemes(rawValue: 1 << 1)
    /// Whichever the server offers, Digest before Basic.
    public static let any: HTTPAuthenticationSchemes = [.basic, .digest]

    /// The names, as YAML and `sluice send` write them: `basic`, `digest`, `any`.
    public init?(name: String) {
        switch name.asciiLowercased {
        case "basic": self = .basic
        case "digest": self = .digest
        case "any": self = .any
        default: return nil
        }
    }

    /// `Basic, Digest`.
    public var description: String {
        [(HTTPAuthenticationSchemes.basic, "Basic"), (.digest, "Digest")].filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}
