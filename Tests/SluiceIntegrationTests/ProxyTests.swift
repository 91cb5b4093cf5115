import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// Requests through a real forward proxy: tinyproxy on loopback, which adds `Via: 1.1
/// sluice-test-proxy` to what it forwards and logs each CONNECT; a second one asks for Basic
/// credentials. Tests that set proxy environment variables run `sluice` as a process of its own,
/// so no other test sees them.
@Suite("Proxies over real sockets", .timeLimit(.minutes(5)))
struct ProxyTests {
    private func send(_ url: URL, route: ProxyRoute?, policy: TrustPolicy? = nil) async throws -> Response {
        var request = Request(url: url)
        request.proxyRoute = route
        request.trustPolicy = policy
        return try await SessionManager(pipeline: try Pipeline(transport: CurlTransport())).send(request)
    }

    private func via(_ response: Response) -> String { response.headers["Via"] ?? "" }

    @Test("plain http through the proxy; no-proxy hosts and .direct go straight to the server")
    func plainHTTP() async throws {
        let servers = try TestServers.load()
        let proxy = try Proxy(url: servers.proxy)
        #expect(via(try await send(servers.httpbin("get"), route: .through(proxy))).contains("sluice-test-proxy"))
        let bypassing = try Proxy(url: servers.proxy, bypass: ["127.0.0.1"])
        #expect(via(try await send(servers.httpbin("get"), route: .through(bypassing))).isEmpty)
        #expect(via(try await send(servers.httpbin("get"), route: .direct)).isEmpty)
    }

    @Test("https through the CONNECT tunnel: TLS is with the origin, and its pins hold; the attacker is refused through the tunnel too")
    func tunnelKeepsTrust() async throws {
        let servers = try TestServers.load()
        let route = ProxyRoute.through(try Proxy(url: servers.proxy))
        let pins = try TrustPin.pins(from: servers.pins.ca)
        let pinned = try TrustPolicy(pinning: .publicKey, pins: pins, caBundle: servers.bothCAsBundle)
        let marker = "tunnel-\(UUID().uuidString)"
        let genuine = try await send(servers.nginxTLS("hello.txt").appending(queryItems: [URLQueryItem(name: marker, value: nil)]), route: route, policy: pinned)
        #expect(String(decoding: genuine.body, as: UTF8.self) == "hello from nginx\n")
        let error = await #expect(throws: SluiceError.self) {
            try await send(servers.nginxHTTPSInterceptor.appendingPathComponent("hello.txt"), route: route, policy: pinned)
        }
        #expect(error?.kind == .trustEvaluation)
        let log = (try? String(contentsOfFile: servers.proxyLog, encoding: .utf8)) ?? ""
        #expect(log.contains("CONNECT localhost:\(servers.nginxHTTPS.port!)"), "the proxy carried the tunnel")
        #expect(log.contains("CONNECT localhost:\(servers.nginxHTTPSInterceptor.port!)"))
    }

    @Test("an intercepting proxy (mitmproxy, HTTP and SOCKS5) whose CA is trusted: validation alone passes it, every pin refuses it, the origin sees no request", arguments: [
        (TrustPolicy.Pinning.publicKey, "ca"), (.publicKey, "leaf"), (.certificate, "ca"), (.certificate, "leaf"),
    ])
    func interception(pinning: TrustPolicy.Pinning, pinned: String) async throws {
        let servers = try TestServers.load()
        // Over HTTP CONNECT for public-key pins, over SOCKS5 (names resolved by the proxy) for
        // certificate pins: the interception and the refusals are the same.
        let route = ProxyRoute.through(try Proxy(url: pinning == .publicKey ? servers.interceptingProxy : servers.interceptingSOCKSProxy))
        let trustsProxy = try TrustPolicy(caBundle: servers.interceptingProxyCA)
        let through = try await send(servers.nginxTLS("hello.txt"), route: route, policy: trustsProxy)
        #expect(String(decoding: through.body, as: UTF8.self) == "hello from nginx\n", "the interception works")
        let pin = pinning == .publicKey
            ? (pinned == "ca" ? servers.pins.ca : servers.pins.localhost)
            : servers.certificates + (pinned == "ca" ? "/ca.pem" : "/localhost.pem")
        let policy = try TrustPolicy(pinning: pinning, pins: TrustPin.pins(from: pin), caBundle: servers.interceptingProxyCA)
        let probe = "intercepted-\(UUID().uuidString)"
        let error = await #expect(throws: SluiceError.self) {
            try await send(servers.nginxTLS("hello.txt").appending(queryItems: [URLQueryItem(name: probe, value: nil)]), route: route, policy: policy)
        }
        #expect(error?.kind == .trustEvaluation, "\(String(describing: error))")
        // A request that passes, so the origin's log is written past where the probe would be.
        let marker = "marker-\(UUID().uuidString)"
        _ = try await send(servers.nginxTLS("hello.txt").appending(queryItems: [URLQueryItem(name: marker, value: nil)]), route: .direct, policy: TrustPolicy(caBundle: servers.caBundle))
        var log = ""
        for _ in 0..<100 {
            log = (try? String(contentsOfFile: servers.nginxAccessLog, encoding: .utf8)) ?? ""
            if log.contains(marker) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(log.contains(marker) && !log.contains(probe), "the origin saw no request from the refused task")
    }

    @Test("through an https:// proxy (TLS to the proxy, then a CONNECT tunnel): pins judge the origin, never the proxy's own certificate")
    func httpsProxy() async throws {
        let servers = try TestServers.load()
        let proxyCA = servers.certificates + "/interceptor-ca.pem"
        let route = ProxyRoute.through(try Proxy(url: servers.httpsProxy, caBundle: proxyCA))
        let originPin = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: servers.pins.ca), caBundle: servers.caBundle)
        #expect(String(decoding: try await send(servers.nginxTLS("hello.txt"), route: route, policy: originPin).body, as: UTF8.self) == "hello from nginx\n")
        let proxyPin = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: servers.pins.interceptorCA), caBundle: servers.caBundle)
        let error = await #expect(throws: SluiceError.self) { try await send(servers.nginxTLS("hello.txt"), route: route, policy: proxyPin) }
        #expect(error?.kind == .trustEvaluation, "the proxy's key is not the origin's: \(String(describing: error))")
        // Without the proxy's CA the proxy itself is refused, before any tunnel.
        let untrusted = ProxyRoute.through(try Proxy(url: servers.httpsProxy))
        let refused = await #expect(throws: SluiceError.self) { try await send(servers.nginxTLS("hello.txt"), route: untrusted, policy: originPin) }
        // The failure names the proxy, whose certificate it was, not the origin.
        let proxy = "the proxy \(servers.httpsProxy.host!):\(servers.httpsProxy.port!)"
        #expect(refused?.message.hasPrefix("the TLS handshake with \(proxy) failed: ") == true, "\(String(describing: refused))")
        #expect(refused?.message.contains("The proxy presented: ") == true && refused?.message.contains("--proxy-cacert") == true, "\(String(describing: refused))")
        let sent = try await SluiceProcess.launch(["send", "-sS", "-x", servers.httpsProxy.absoluteString, "--cacert", servers.caBundle, servers.nginxTLS("hello.txt").absoluteString])
        #expect(sent.status == 60 && sent.error.contains("the TLS handshake with \(proxy) failed"), "\(sent.error)")
    }

    @Test("proxy authentication: 407 without credentials (a .proxy error for a tunnel), through with them")
    func authentication() async throws {
        let servers = try TestServers.load()
        let anonymous = ProxyRoute.through(try Proxy(url: servers.proxyWithAuth))
        #expect(try await send(servers.httpbin("get"), route: anonymous).status == 407)
        let refused = await #expect(throws: SluiceError.self) {
            try await send(servers.nginxTLS("hello.txt"), route: anonymous, policy: TrustPolicy(caBundle: servers.caBundle))
        }
        #expect(refused?.kind == .proxy)
        #expect(refused?.message.contains("CONNECT answered 407") == true, "\(String(describing: refused))")
        let authenticated = ProxyRoute.through(try Proxy(url: servers.proxyWithAuth, username: "user", password: "proxy-s3cret"))
        #expect(via(try await send(servers.httpbin("get"), route: authenticated)).contains("sluice-test-proxy-auth"))
        #expect(try await send(servers.nginxTLS("hello.txt"), route: authenticated, policy: TrustPolicy(caBundle: servers.caBundle)).status == 200)
    }

    @Test("sluice send -x with credentials in the proxy's URL (percent-encoded too) goes through as curl's does; beside --proxy-user it is refused; -v shows the password as ***")
    func credentialsInProxyURL() async throws {
        let servers = try TestServers.load()
        var components = try #require(URLComponents(url: servers.proxyWithAuth, resolvingAgainstBaseURL: false))
        components.percentEncodedUser = "user"
        components.percentEncodedPassword = "proxy%2Ds3cret"
        let proxy = try #require(components.string)
        let target = servers.httpbin("get").absoluteString
        for arguments in [["-x", proxy], ["-x", proxy.replacingOccurrences(of: "http://", with: "")]] {
            let sent = try await SluiceProcess.launch(["send", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-v"] + arguments + [target])
            let curl = try await CurlCLI.run(["-o", "/dev/null", "-w", "%{http_code}"] + arguments + [target])
            #expect(sent.output == curl.output, "\(arguments): sluice \(sent.output), curl \(curl.output)")
            #expect(!sent.error.contains("s3cret") && !sent.error.contains("proxy%2D"), "\(sent.error)")
        }
        #expect(try await CurlCLI.run(["-o", "/dev/null", "-w", "%{http_code}", "-x", proxy, target]).output == "200")
        // curl takes the URL's over --proxy-user's in silence; both is refused here.
        let twice = try await SluiceProcess.launch(["send", "-x", proxy, "--proxy-user", "user:other", target])
        #expect(twice.status == 2 && twice.error.contains("--proxy-user and credentials in -x's URL: give them once"), "\(twice.error)")
        #expect(!twice.error.contains("s3cret"))
    }

    @Test("a proxy URL with credentials in it, or of another scheme, is refused when made; a proxy that is not there is a connect failure")
    func badProxies() async throws {
        #expect(throws: SluiceError.self) { try Proxy(url: URL(string: "http://user:pw@127.0.0.1:3128")!) }
        #expect(throws: SluiceError.self) { try Proxy(url: URL(string: "ftp://127.0.0.1:21")!) }
        let servers = try TestServers.load()
        let nowhere = ProxyRoute.through(try Proxy(url: URL(string: "http://127.0.0.1:\(try LoopbackSocket.unusedPort())")!))
        let error = await #expect(throws: SluiceError.self) { try await send(servers.httpbin("get"), route: nowhere) }
        #expect(error?.kind == .connect)
    }

    @Test("the environment, as curl reads it: http_proxy honoured by default; the proxy stage, -x '' and --noproxy '*' ignore it, --noproxy HOSTS bypasses it for those; the password stays secret")
    func environment() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let environment = ["http_proxy": servers.proxy.absoluteString, "NO_PROXY": "", "no_proxy": ""]
        func pipeline(_ stages: String) throws -> String {
            let path = directory.file("proxy.yaml")
            try "stages:\n\(stages)requests:\n  - name: get\n    path: \(servers.httpbin("get").absoluteString)\n    expect:\n      status: 200\n"
                .write(to: path, atomically: true, encoding: .utf8)
            return path.path
        }
        func viaLine(_ arguments: [String]) async throws -> String {
            let result = try await SluiceProcess.launch(arguments, environment: environment)
            return result.error.split(separator: "\n").first { $0.lowercased().hasPrefix("< via:") }.map(String.init)
                ?? result.output.split(whereSeparator: \.isNewline).first { $0.lowercased().hasPrefix("via:") }.map(String.init) ?? ""
        }
        #expect(try await viaLine(["run", "--verbose", pipeline("  - retry: { attempts: 1 }\n")]).contains("sluice-test-proxy"))
        #expect(try await viaLine(["run", "--verbose", pipeline("  - proxy: { url: none }\n")]).isEmpty)
        #expect(try await viaLine(["send", "-i", servers.httpbin("get").absoluteString]).contains("sluice-test-proxy"))
        #expect(try await viaLine(["send", "-i", "-x", "", servers.httpbin("get").absoluteString]).isEmpty)
        #expect(try await viaLine(["send", "-i", "--noproxy", "*", servers.httpbin("get").absoluteString]).isEmpty)
        // --noproxy HOSTS without -x takes NO_PROXY's place for the environment's proxy, as curl's does.
        let host = servers.httpbin("get").host!
        for (bypass, proxied) in [(host, false), ("other.example", true), ("other.example, \(host)", false)] {
            let line = try await viaLine(["send", "-i", "--noproxy", bypass, servers.httpbin("get").absoluteString])
            let curl = try await SluiceProcess.launch(["-s", "-i", "--noproxy", bypass, servers.httpbin("get").absoluteString], executable: URL(fileURLWithPath: "/usr/bin/curl"), environment: environment)
            #expect(line.contains("sluice-test-proxy") == proxied, "--noproxy \(bypass): \(line)")
            #expect(curl.output.lowercased().contains("via: ") == proxied, "curl --noproxy \(bypass)")
        }
        let caWithoutProxy = try await SluiceProcess.launch(["send", "--proxy-cacert", servers.caBundle, servers.httpbin("get").absoluteString], environment: environment)
        #expect(caWithoutProxy.status == 2 && caWithoutProxy.error.contains("--proxy-cacert goes with --proxy"), "\(caWithoutProxy.error)")
        // No proxy beside a proxy's credentials: refused in both forms by one rule, never ignored.
        let ignored = try await SluiceProcess.launch(["send", "-x", "", "--proxy-user", "user:proxy-s3cret", servers.httpbin("get").absoluteString])
        #expect(ignored.status == 2 && ignored.error.contains("-x '' goes direct; --proxy-user"), "\(ignored.error)")
        let validated = try await SluiceProcess.launch(["validate", pipeline("  - proxy: { url: none, username: user }\n")])
        #expect(validated.status != 0 && validated.error.contains("url: none goes direct; username"), "\(validated.error)")
        // A host and port alone is an http:// proxy, as curl reads -x, in both forms.
        let hostPort = "\(servers.proxy.host!):\(servers.proxy.port!)"
        #expect(try await viaLine(["send", "-i", "-x", hostPort, servers.httpbin("get").absoluteString]).contains("sluice-test-proxy"))
        #expect(try await viaLine(["run", "--verbose", pipeline("  - proxy: { url: \"\(hostPort)\" }\n")]).contains("sluice-test-proxy"))
        let authenticated = try pipeline("  - proxy: { url: \"\(servers.proxyWithAuth.absoluteString)\", username: user, password: \"${env.PROXY_PASSWORD}\" }\n")
        for arguments in [["run", "--verbose"], ["run", "--format", "json"], ["curl"], ["run", "--dry-run"]] {
            let result = try await SluiceProcess.launch(arguments + [authenticated], environment: ["PROXY_PASSWORD": "proxy-s3cret"])
            #expect(!result.output.contains("proxy-s3cret") && !result.error.contains("proxy-s3cret"), "\(arguments)")
            if arguments == ["run", "--verbose"] { #expect(result.status == 0, "\(result.output)\(result.error)") }
        }
        let curl = try await SluiceProcess.launch(["curl", authenticated], environment: ["PROXY_PASSWORD": "proxy-s3cret"])
        #expect(curl.output.contains("--proxy \(servers.proxyWithAuth.absoluteString) --proxy-user 'user:***'"), "\(curl.output)")
    }

    @Test("a request's own proxy: goes through tinyproxy in place of the proxy stage's, url: none goes direct, its no-proxy bypasses; its password never shows")
    func requestProxy() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = try directory.write("""
            stages:
              - proxy: { url: "http://127.0.0.1:9" }
              - response-decoding: { format: data, acceptable-content-types: any }
            requests:
              - name: through
                path: "\(servers.httpbin.absoluteString)/get"
                proxy: { url: "\(servers.proxyWithAuth.absoluteString)", username: user, password: proxy-s3cret }
                expect: { headers: { Via: "/sluice-test-proxy/" } }
              - name: direct
                path: "\(servers.httpbin.absoluteString)/get"
                proxy: { url: none }
                expect: { checks: [{ header: Via, exists: false }] }
              - name: bypassed
                path: "\(servers.httpbin.absoluteString)/get"
                proxy: { url: "\(servers.proxy.absoluteString)", no-proxy: [127.0.0.1] }
                expect: { checks: [{ header: Via, exists: false }] }
            """, to: "proxy.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", "--verbose", file])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(!(run.output + run.error).contains("proxy-s3cret"))
        let bad = try directory.write("requests:\n  - path: http://a.test/\n    proxy: { url: \"ftp://p.test\" }\n", to: "bad.yaml")
        let refused = try await SluiceProcess.launch(["validate", bad])
        #expect(refused.status == 2 && refused.error.contains("bad.yaml:3:"), "\(refused.output)\(refused.error)")
    }
}
