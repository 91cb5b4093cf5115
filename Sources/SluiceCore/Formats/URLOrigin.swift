import Foundation

extension URL {
    /// The URL's origin (RFC 6454) as text: scheme, lowercased host and port, the scheme's default
    /// port filled in, so `https://Example.com` and `https://example.com:443/x` have the same one.
    var originText: String {
        let scheme = scheme?.lowercased() ?? ""
        return "\(scheme)://\((host ?? "").lowercased()):\(port ?? (scheme == "https" ? 443 : 80))"
    }
}
