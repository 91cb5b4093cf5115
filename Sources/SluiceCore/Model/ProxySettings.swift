/// A proxy as a user writes it: a pipeline's `proxy` stage options and `sluice send`'s proxy
/// flags are both read into this, and one set of rules makes the ``ProxyRoute`` of either (no
/// proxy refuses credentials and lists that could not apply; a URL without a scheme is `http://`,
/// as curl reads `-x`; `*` as the only host that goes direct is no proxy at all).
///
/// Each front end names the fields its own way (`username`, `--proxy-user`), so messages are
/// made with the names it gives.
///
/// ```swift
/// var settings = ProxySettings(url: "proxy.internal:3128")
/// settings.bypass = ["localhost", ".internal.example"]
/// let route = try settings.route { "\($0)" }   // http://proxy.internal:3128, bypassed for those hosts
/// ```
public struct ProxySettings: Sendable {
    /// One setting, for a message to name.
    public enum Field: Sendable, Hashable {
        case url, username, password, bypass, caBundle
    }

    /// Settings that make no route: the field at fault and why.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// The setting at fault.
        public var field: Field
        /// What is wrong, naming the settings as the front end names them.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// The proxy as written: `http://host:port`, `https://`, `socks5://`, `socks5h://`, or
    /// `host:port` for `http://`; `nil` for no proxy at all.
    public var url: String?
    /// The user name for the proxy's Basic authentication.
    public var username: String?
    /// The proxy's password (a secret).
    public var password: String?
    /// Hosts that go direct: names (their subdomains included), addresses, or `*` for all.
    public var bypass: [String] = []
    /// For an `https://` proxy: a PEM file of trust anchors for its certificate.
    public var caBundle: String?

    /// Settings for the proxy at `url`, or for none (`nil`).
    public init(url: String?) {
        self.url = url
    }

    /// The route the settings describe.
    /// - Parameter name: how the front end names a field in messages (for ``Field/url``, how it
    ///   writes no proxy: `url: none`, `-x ''`).
    /// - Throws: ``Invalid``: no proxy beside credentials, hosts to bypass or a CA bundle; a URL
    ///   that is not one, or not an `http`, `https`, `socks5` or `socks5h` URL with a host, or
    ///   one with credentials in it.
    public func route(naming name: (Field) -> String) throws(Invalid) -> ProxyRoute {
        guard let text = url else {
            // `*` alone sends every host direct, which no proxy does too.
            let given: [(Field, Bool)] = [(.username, username != nil), (.password, password != nil), (.bypass, !bypass.isEmpty && bypass != ["*"]), (.caBundle, caBundle != nil)]
            guard let first = given.first(where: \.1)?.0 else { return .direct }
            let names = given.map(\.0).map(name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            throw Invalid(field: first, message: "\(name(.url)) goes direct; \(spokenList(names)) need a proxy")
        }
        if bypass == ["*"] { return .direct }
        let written = text.contains("://") ? text : "http://" + text
        guard let parsed = URLText.url(written) else {
            throw Invalid(field: .url, message: "'\(text)' is not a URL")
        }
        do {
            return .through(try Proxy(url: parsed, username: username, password: password, bypass: bypass, caBundle: caBundle))
        } catch {
            throw Invalid(field: .url, message: error.message)
        }
    }
}
