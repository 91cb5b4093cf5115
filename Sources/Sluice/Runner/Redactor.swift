import Foundation

/// Replaces secrets with `***` in anything the runner prints: text, JSON, verbose lines,
/// reports and curl commands.
///
/// It knows the secret values themselves (longest first, so a secret that contains another is
/// hidden whole) and hides the credentials of `Authorization` and `Proxy-Authorization` headers
/// whatever they hold, keeping the scheme: `Bearer ***`.
public struct Redactor: Sendable {
    /// The secrets, longest first.
    public let secrets: [String]
    /// Whether credential headers are hidden whole.
    public let hidesCredentials: Bool

    /// A redactor that hides nothing, for `--show-secrets`.
    public static let none = Redactor(secrets: [], hidesCredentials: false)

    /// Creates a redactor for these values; empty ones are ignored.
    public init(secrets: [String], hidesCredentials: Bool = true) {
        self.secrets = Set(secrets.filter { !$0.isEmpty }).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        self.hidesCredentials = hidesCredentials
    }

    /// The text with every secret replaced by `***`.
    public func redact(_ text: String) -> String {
        var text = text
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: "***")
        }
        return text
    }

    /// A header's value as it may be shown: credentials hidden, secrets replaced.
    public func redact(header name: String, value: String) -> String {
        guard hidesCredentials, ["authorization", "proxy-authorization"].contains(name.lowercased()) else {
            return redact(value)
        }
        guard let space = value.firstIndex(of: " ") else { return "***" }
        return value[..<space] + " ***"
    }
}
