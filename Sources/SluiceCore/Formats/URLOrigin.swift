import Foundation

extension URL {
    /// The URL's origin (RFC 6454) as text: scheme, lowercased host and port, the scheme's default
    /// port filled in, so `https://Example.com` and `https://example.com:443/x` have the same one.
    var originText: String {
        "\(scheme?.lowercased() ?? "")://\((host ?? "").lowercased()):\(portOrDefault)"
    }

    /// The URL's port, or its scheme's default when it names none: 443 for `https`, 80 otherwise.
    package var portOrDefault: Int {
        port ?? URL.defaultPort(isHTTPS: scheme?.lowercased() == "https")
    }

    /// The default port of `https` (443), else of `http` (80), for a caller that has the scheme.
    package static func defaultPort(isHTTPS: Bool) -> Int {
        isHTTPS ? 443 : 80
    }
}
