import Foundation

/// Where a credential is asked for: an origin, and the realm once the server named one.
///
/// ```swift
/// let space = ProtectionSpace(scheme: "https", host: "api.example.test", port: 443, realm: "api")
/// ```
public struct ProtectionSpace: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public var scheme: String
    /// The host, as in the URL.
    public var host: String
    /// The port, explicit or the scheme's default.
    public var port: Int
    /// The realm of the server's challenge; `nil` before the server has sent one.
    public var realm: String?

    /// Creates a protection space.
    public init(scheme: String, host: String, port: Int, realm: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.realm = realm
    }

    /// `https://api.example.test:443 (realm "api")`.
    public var description: String {
        "\(scheme)://\(host):\(port)" + (realm.map { " (realm \"\($0)\")" } ?? "")
    }

    /// The origin of `url` (no realm), or `nil` without a host.
    public init?(url: URL) {
        guard let host = url.host, !host.isEmpty else { return nil }
        let scheme = (url.scheme ?? "http").asciiLowercased
        self.init(scheme: scheme, host: host.asciiLowercased, port: url.portOrDefault)
    }

    /// The same origin, another realm.
    func with(realm: String?) -> ProtectionSpace {
        var space = self
        space.realm = realm
        return space
    }
}
