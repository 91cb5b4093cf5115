import ArgumentParser
import Foundation
import Sluice

/// `sluice send`'s proxy options, as curl names them, and the route they describe.
struct SendProxyOptions: ParsableArguments {
    @Option(
        name: [.customShort("x"), .customLong("proxy")],
        help: ArgumentHelp("A proxy, http://host:port (also https, socks5, socks5h); '' for none. Without it, http_proxy, HTTPS_PROXY and the like are honoured as curl honours them.", valueName: "URL")
    )
    var proxy: String?

    @Option(name: .customLong("proxy-user"), help: ArgumentHelp("The proxy's credentials.", valueName: "USER:PASSWORD"))
    var proxyUser: String?

    @Option(name: .customLong("noproxy"), help: ArgumentHelp("Hosts that go direct, separated by ','; '*' for all (no proxy at all).", valueName: "HOSTS"))
    var noProxy: String?

    @Option(name: .customLong("proxy-cacert"), help: "For an https:// proxy: a PEM file of trust anchors for the proxy's certificate.")
    var proxyCABundle: String?

    /// The route the proxy options ask for: `-x URL` (with `--proxy-user` and `--noproxy`), `-x ''`
    /// or `--noproxy '*'` for none, `--noproxy HOSTS` alone for the environment's proxy with those
    /// hosts in place of `NO_PROXY`; `nil` (the environment, as curl reads it) when none is given.
    func proxyRoute() throws -> ProxyRoute? {
        let bypass = (noProxy ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let proxy else {
            if proxyUser != nil { throw ValidationError("--proxy-user goes with --proxy") }
            if proxyCABundle != nil { throw ValidationError("--proxy-cacert goes with --proxy") }
            if noProxy == nil { return nil }
            // As curl's --noproxy without -x: it takes the place of NO_PROXY for the environment's proxy.
            return bypass == ["*"] ? .direct : .environmentBypassing(bypass)
        }
        let (address, credentials) = SendProxyOptions.credentials(in: proxy)
        var settings = ProxySettings(url: proxy.isEmpty ? nil : address)
        // As curl: credentials in -x's URL (which curl prefers to --proxy-user's: both is refused).
        if let credentials {
            if proxyUser != nil { throw ValidationError("--proxy-user and credentials in -x's URL: give them once") }
            settings.username = credentials.username
            settings.password = credentials.password
        }
        if let proxyUser {
            let parts = proxyUser.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            settings.username = String(parts[0])
            settings.password = parts.count > 1 ? String(parts[1]) : ""
        }
        settings.bypass = bypass
        settings.caBundle = proxyCABundle
        do throws(ProxySettings.Invalid) {
            return try settings.route { SendProxyOptions.flags[$0] ?? "" }
        } catch {
            throw ValidationError(error.field == .url ? "--proxy: \(error.message)" : error.message)
        }
    }

    /// The flag of each proxy setting; for the URL, how no proxy is written.
    private static let flags: [ProxySettings.Field: String] = [
        .url: "-x ''", .username: "--proxy-user", .password: "--proxy-user", .bypass: "--noproxy", .caBundle: "--proxy-cacert",
    ]

    /// The password `--proxy-user`, or else `-x`'s URL, gives: a secret `-v` hides.
    var secret: String? {
        guard let proxyUser else { return proxy.flatMap { SendProxyOptions.credentials(in: $0).credentials?.password } }
        guard let colon = proxyUser.firstIndex(of: ":") else { return nil }
        return String(proxyUser[proxyUser.index(after: colon)...])
    }

    /// `-x`'s URL without the credentials written in it (`http://user:pass@proxy:3128`), and
    /// those credentials, percent-decoded, as curl reads them; the URL as written when it holds
    /// none, or is not one.
    private static func credentials(in proxy: String) -> (address: String, credentials: (username: String, password: String)?) {
        let written = proxy.contains("://") ? proxy : "http://" + proxy
        guard var components = URLComponents(string: written), let user = components.user else { return (proxy, nil) }
        let password = components.password ?? ""
        components.user = nil
        components.password = nil
        return (components.string ?? proxy, (user, password))
    }
}
