import Foundation
import Testing

@testable import SluiceCore

/// One set of rules makes a proxy route from what a pipeline's `proxy` stage or `sluice send`'s
/// proxy flags say, each front end's names in the messages.
@Suite("ProxySettings: the rules a pipeline's proxy stage and send's proxy flags share")
struct ProxySettingsTests {
    private static let yaml: [ProxySettings.Field: String] = [.url: "url: none", .username: "username", .password: "password", .bypass: "no-proxy", .caBundle: "ca-bundle"]
    private static let flags: [ProxySettings.Field: String] = [.url: "-x ''", .username: "--proxy-user", .password: "--proxy-user", .bypass: "--noproxy", .caBundle: "--proxy-cacert"]

    private func route(_ settings: ProxySettings, _ names: [ProxySettings.Field: String]) -> Result<ProxyRoute, ProxySettings.Invalid> {
        Result { () throws(ProxySettings.Invalid) in try settings.route { names[$0] ?? "" } }
    }

    @Test("no proxy beside credentials, hosts to bypass or a CA bundle: refused, nothing ignored, in each front end's words")
    func directRefusesWhatCannotApply() throws {
        var settings = ProxySettings(url: nil)
        #expect(try route(settings, Self.yaml).get() == .direct)
        settings.password = "s3cret"
        guard case .failure(let yaml) = route(settings, Self.yaml), case .failure(let cli) = route(settings, Self.flags) else {
            Issue.record("a password beside no proxy was taken")
            return
        }
        #expect(yaml.field == .password && yaml.message == "url: none goes direct; username, password, no-proxy and ca-bundle need a proxy")
        #expect(cli.message == "-x '' goes direct; --proxy-user, --noproxy and --proxy-cacert need a proxy")
        settings.password = nil
        settings.bypass = ["*"]
        #expect(try route(settings, Self.flags).get() == .direct, "'*' alone is no proxy too")
    }

    @Test("a URL as curl's -x reads it: host:port is http://; * as the only bypass is no proxy; credentials stay out of the URL")
    func urls() throws {
        guard case .through(let plain) = try route(ProxySettings(url: "127.0.0.1:3128"), Self.flags).get() else { throw CancellationError() }
        #expect(plain.url.absoluteString == "http://127.0.0.1:3128")
        var all = ProxySettings(url: "socks5h://proxy.test:1080")
        all.bypass = ["*"]
        #expect(try route(all, Self.yaml).get() == .direct)
        for refused in ["ftp://proxy.test:21", "http://user:pass@proxy.test:3128", "http://"] {
            guard case .failure(let error) = route(ProxySettings(url: refused), Self.yaml) else {
                Issue.record("\(refused) was taken")
                continue
            }
            #expect(error.field == .url, "\(refused)")
        }
    }
}
