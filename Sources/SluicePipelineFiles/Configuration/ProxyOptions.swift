import SluiceCore
import SluiceStageRegistry

/// The options of the `proxy` stage and of a request's own `proxy:`: a forward proxy (curl's
/// `-x`, `-U`, `--noproxy`, `--proxy-cacert`; Hurl's `proxy` option), or `url: none` to go direct.
package enum ProxyOptions {
    package static let descriptors = [
        OptionDescriptor("url", .string, required: true, summary: "The proxy, http://host:port (also https, socks5, socks5h), or none to go direct."),
        OptionDescriptor("username", .string, summary: "The proxy's user name for Basic authentication."),
        OptionDescriptor("password", .string, secret: true, summary: "The proxy's password."),
        OptionDescriptor("no-proxy", .list(.string), summary: "Hosts that go direct: names (subdomains included), IP addresses, or *."),
        OptionDescriptor("ca-bundle", .string, summary: "For an https:// proxy: a PEM file of trust anchors for the proxy's own certificate."),
    ]

    /// The route the options describe.
    /// - Throws: ``StageOptions/Invalid`` naming the option that is wrong.
    package static func route(from options: StageOptions) throws(StageOptions.Invalid) -> ProxyRoute {
        let text = options.string("url") ?? ""
        var settings = ProxySettings(url: text.hasSameCodePoints(as: "none") ? nil : text)
        settings.username = options.string("username")
        settings.password = options.string("password")
        settings.bypass = options.strings("no-proxy") ?? []
        settings.caBundle = options.path("ca-bundle")
        do throws(ProxySettings.Invalid) {
            return try settings.route { optionNames[$0] ?? "" }
        } catch {
            throw StageOptions.Invalid(option: error.field == .url ? "url" : optionNames[error.field], message: error.message)
        }
    }

    /// The option of each proxy setting; for the URL, how no proxy is written.
    private static let optionNames: [ProxySettings.Field: String] = [
        .url: "url: none", .username: "username", .password: "password", .bypass: "no-proxy", .caBundle: "ca-bundle",
    ]
}
