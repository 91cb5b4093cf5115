import Foundation

/// How a request reaches its server: as libcurl decides from the environment, directly, or through
/// a proxy.
///
/// - ``environment`` (the default) is curl's behaviour: `http_proxy` for `http` URLs (lower case
///   only, as curl reads it, since `HTTP_PROXY` can be set by a CGI request), `HTTPS_PROXY` or
///   `https_proxy` for `https`, `ALL_PROXY`/`all_proxy` for both, and `NO_PROXY`/`no_proxy` naming
///   hosts that go direct.
/// - ``environmentBypassing(_:)`` is curl's `--noproxy HOSTS` without `-x`: the proxy the
///   environment names, with these hosts going direct in place of those `NO_PROXY` names.
/// - ``direct`` ignores those variables: no proxy at all.
/// - ``through(_:)`` uses one proxy and ignores the variables, `NO_PROXY` included (the proxy's own
///   `bypass` list takes its place).
///
/// Over a proxy, `https` requests go through a CONNECT tunnel and TLS is end to end with the origin,
/// so trust evaluation (pins included) judges the origin's certificate, never the proxy's.
public enum ProxyRoute: Sendable, Hashable {
    /// The proxy the environment names, as curl reads it.
    case environment
    /// The proxy the environment names, with these hosts (as ``Proxy/bypass`` reads them) going
    /// direct instead of those `NO_PROXY` names.
    case environmentBypassing([String])
    /// No proxy, whatever the environment says.
    case direct
    /// This proxy, whatever the environment says.
    case through(Proxy)
}

/// A forward proxy: its URL, credentials and the hosts that bypass it.
public struct Proxy: Sendable, Hashable, CustomStringConvertible {
    /// `http://`, `https://`, `socks5://` or `socks5h://` (the proxy resolves names), with a port.
    public let url: URL
    /// The proxy's user name for Basic authentication; `nil` for none.
    public let username: String?
    /// The proxy's password (a secret).
    public let password: String?
    /// Hosts that go direct, as curl's `--noproxy` reads them: a name (which covers its subdomains),
    /// an IP address, or `*` for every host.
    public let bypass: [String]
    /// For an `https://` proxy: a PEM file of trust anchors for the proxy's own certificate, instead
    /// of the system store. The origin's certificate is judged by the request's trust policy.
    public let caBundle: String?

    /// The schemes a proxy URL may have.
    public static let schemes = ["http", "https", "socks5", "socks5h"]

    /// Creates a proxy.
    /// - Throws: `.configuration` for a URL that is not an `http`, `https`, `socks5` or `socks5h`
    ///   URL with a host, or one with credentials in it (give them as `username` and `password`,
    ///   where they are kept secret).
    public init(url: URL, username: String? = nil, password: String? = nil, bypass: [String] = [], caBundle: String? = nil) throws(SluiceError) {
        guard let scheme = url.scheme?.lowercased(), Proxy.schemes.contains(scheme), let host = url.host, !host.isEmpty else {
            throw SluiceError(kind: .configuration, stage: "proxy", message: "proxy \(url.absoluteString) is not an http, https, socks5 or socks5h URL with a host")
        }
        if url.user != nil || url.password != nil {
            throw SluiceError(kind: .configuration, stage: "proxy", message: "give the proxy's credentials as username and password, not in its URL, where they would show")
        }
        self.url = url
        self.username = username
        self.password = password
        self.bypass = bypass
        self.caBundle = caBundle
    }

    /// The URL, never the password.
    public var description: String { url.absoluteString }
}
