import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// Redirects followed by the redirect stage, hop by hop over real sockets.
@Suite("Redirects against httpbin and nginx")
struct RedirectTests {
    @Test("/redirect/n, /relative-redirect/n and /absolute-redirect/n end at /get, each hop a transfer")
    func chains() async throws {
        let servers = try TestServers.load()
        for path in ["redirect/3", "relative-redirect/3", "absolute-redirect/3"] {
            let handle = try servers.manager().task(Request(url: servers.httpbin(path)))
            let response = try await handle.value
            #expect(response.status == 200, "\(path)")
            #expect(response.url?.path == "/get", "\(path)")
            #expect(handle.context.metrics.transfers.count == 4, "\(path): the request and three hops")
        }
    }

    @Test("more than ten hops is tooManyRedirects; the limit is configurable")
    func limit() async throws {
        let servers = try TestServers.load()
        let error = await #expect(throws: SluiceError.self) { try await servers.manager().send(Request(url: servers.httpbin("redirect/11"))) }
        #expect(error?.kind == .tooManyRedirects)
        #expect(error?.stage == "redirects")
        #expect(try await servers.manager(redirects: Redirection(maximumHops: 11)).send(Request(url: servers.httpbin("redirect/11"))).status == 200)
        let one = await #expect(throws: SluiceError.self) { try await servers.manager(redirects: Redirection(maximumHops: 1)).send(Request(url: servers.httpbin("redirect/2"))) }
        #expect(one?.kind == .tooManyRedirects)
    }

    @Test("303 turns POST into GET without body; 307 and 308 keep method and body")
    func methods() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        func post(_ status: Int) async throws -> Response {
            let target = "anything/target".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            return try await manager.send(Request(
                method: .post, url: servers.httpbin("redirect-to?url=/\(target)&status_code=\(status)"),
                headers: ["Content-Type": "text/plain"], body: .data(Data("payload".utf8))
            ))
        }
        let seeOther = try JSONSerialization.jsonObject(with: try await post(303).body) as? [String: Any]
        #expect(seeOther?["method"] as? String == "GET")
        #expect(seeOther?["data"] as? String == "")
        for status in [307, 308] {
            let kept = try JSONSerialization.jsonObject(with: try await post(status).body) as? [String: Any]
            #expect(kept?["method"] as? String == "POST", "\(status)")
            #expect(kept?["data"] as? String == "payload", "\(status)")
        }
    }

    @Test("Authorization and Cookie are dropped when the host changes, kept on the same host")
    func credentials() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let headers: HTTPHeaders = ["Authorization": "Bearer secret", "Cookie": "session=1"]
        let port = servers.httpbin.port!
        func headersAfterRedirect(to host: String) async throws -> [String: Any]? {
            let target = "http://\(host):\(port)/headers".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let response = try await manager.send(Request(url: servers.httpbin("redirect-to?url=\(target)"), headers: headers))
            return (try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["headers"] as? [String: Any]
        }
        let same = try await headersAfterRedirect(to: "127.0.0.1")
        #expect(same?["Authorization"] as? String == "Bearer secret")
        #expect(same?["Cookie"] as? String == "session=1")
        let other = try await headersAfterRedirect(to: "localhost")
        #expect(other != nil)
        #expect(other?["Authorization"] == nil)
        #expect(other?["Cookie"] == nil)
    }

    @Test("credentials a Location names are never sent, as curl sends none; a password is never printed in a redirect's error, in Swift or by sluice send")
    func credentialsInALocation() async throws {
        let servers = try TestServers.load()
        let recorder = try #require(URLComponents(url: servers.scenario, resolvingAgainstBaseURL: false))
        let named = "http://evil:leakme1@\(recorder.host!):\(recorder.port!)/raw/ui"
        let redirect = servers.httpbin("redirect-to?url=\(named.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)").absoluteString
        let response = try await servers.manager().send(Request(redirect))
        let received = String(decoding: response.body, as: UTF8.self)
        #expect(received.contains("/raw/ui") && !received.lowercased().contains("authorization"), "\(received)")
        let sent = try await SluiceProcess.launch(["send", "-sL", redirect])
        #expect(sent.output.contains("/raw/ui") && !sent.output.lowercased().contains("authorization"), "\(sent.output)")
        let curl = try await CurlCLI.run(["-sL", redirect])
        #expect(curl.output.contains("/raw/ui") && !curl.output.lowercased().contains("authorization"), "\(curl.output)")

        let own = "http://alice:pw5ecret@\(servers.httpbin.host!):\(servers.httpbin.port!)/redirect/3"
        let error = await #expect(throws: SluiceError.self) { try await servers.manager(redirects: Redirection(maximumHops: 1)).send(Request(own)) }
        #expect(error?.kind == .tooManyRedirects && !"\(error!)".contains("pw5ecret") && "\(error!)".contains("alice:***@"), "\(String(describing: error))")
        let stopped = try await SluiceProcess.launch(["send", "-sSL", "--max-redirs", "1", own])
        #expect(stopped.status == 47 && !(stopped.output + stopped.error).contains("pw5ecret"), "\(stopped.error)")
    }

    @Test("a password written in a pipeline's URL, a request's or a base URL's, is a secret: *** in the result line, the error, --verbose, the JSON report and sluice curl, as sluice send shows it")
    func passwordInAWrittenURL() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let origin = "\(servers.httpbin.host!):\(servers.httpbin.port!)"
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "http://carol:basepw%2133@\(origin)/" }
            requests:
              - name: written
                path: "http://bob:literalpw9@\(origin)/relative-redirect/3"
                redirects: { max-hops: 1 }
              - name: based
                path: basic-auth/carol/basepw!33
            """, to: "userinfo.yaml")
        for arguments in [["run", "--no-color"], ["run", "--no-color", "--verbose"], ["run", "--format", "json"], ["curl"]] {
            let run = try await SluiceProcess.launch(arguments + [path])
            let shown = run.output + run.error
            #expect(!shown.contains("literalpw9") && !shown.contains("basepw"), "\(arguments): \(shown)")
            #expect(shown.contains("bob:***@"), "\(arguments): \(shown)")
        }
    }

    @Test("follow: false beside max-hops, trusted, referer or allow-insecure is refused, at load when written and before sending when a variable says false; a Hurl file's --max-redirs without --location still converts")
    func followFalseWithFollowingOptions() async throws {
        let directory = try TemporaryDirectory()
        let written = try directory.write("""
            stages:
              - redirects: { follow: false, max-hops: 3 }
            requests:
              - name: a
                path: http://127.0.0.1:9/
                redirects: { follow: false, trusted: true }
            """, to: "written.yaml")
        let load = try await SluiceProcess.launch(["validate", written])
        #expect(load.status == 2, "\(load.error)")
        #expect(load.error.contains("written.yaml:2:33: error: max-hops acts on the redirects followed, and follow: false follows none"), "\(load.error)")
        #expect(load.error.contains("written.yaml:6:33: error: redirects: trusted acts on the redirects followed"), "\(load.error)")
        let filled = try directory.write("""
            variables: { f: false }
            requests:
              - name: b
                path: http://127.0.0.1:9/
                redirects: { follow: "${f}", referer: true }
            """, to: "filled.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", filled])
        #expect(run.status == 1 && run.output.contains("redirects at line 5: referer acts on the redirects followed"), "\(run.output)")
        let servers = try TestServers.load()
        let hurl = try directory.write("GET \(servers.httpbin("redirect/1").absoluteString)\nHTTP 302\n", to: "no-location.hurl")
        let converted = try await SluiceProcess.launch(["run", "--max-redirs", "3", hurl])
        #expect(converted.status == 0, "\(converted.output)\(converted.error)")
    }

    @Test("Authorization, Cookie and Host go to the first request's origin again after a hop to another, as curl sends them")
    func credentialsBackToTheFirstOrigin() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let port = servers.httpbin.port!
        func hop(to url: String) -> String {
            "http://127.0.0.1:\(port)/redirect-to?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        }
        func away(to host: String) -> String {
            "http://\(host):\(port)/redirect-to?url=" + "http://127.0.0.1:\(port)/headers".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        }
        let start = hop(to: away(to: "localhost"))
        let headers = ["Authorization: Bearer secret", "Cookie: session=1", "X-Other: kept"]
        func seen(_ body: Data) throws -> [String: String] {
            let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            return (object?["headers"] as? [String: String] ?? [:]).filter { ["Authorization", "Cookie", "X-Other"].contains($0.key) }
        }
        var request = Request(url: URL(string: start)!)
        for line in headers {
            let parts = line.split(separator: ":", maxSplits: 1)
            request.headers.add(name: String(parts[0]), value: parts[1].trimmingCharacters(in: .whitespaces))
        }
        let sluice = try seen(try await manager.send(request).body)
        let curl = try await CurlCLI.run(["-L"] + headers.flatMap { ["-H", $0] } + [start])
        #expect(curl.status == 0)
        #expect(sluice == (try seen(Data(curl.output.utf8))))
        #expect(sluice == ["Authorization": "Bearer secret", "Cookie": "session=1", "X-Other": "kept"])
        // Starting elsewhere, the final hop's origin is not the first one: nothing is sent there.
        let elsewhere = away(to: "localhost")
        let dropped = try seen(try await manager.send(Request(url: URL(string: elsewhere)!, headers: request.headers)).body)
        let curlDropped = try await CurlCLI.run(["-L"] + headers.flatMap { ["-H", $0] } + [elsewhere])
        #expect(dropped == (try seen(Data(curlDropped.output.utf8))))
        #expect(dropped == ["X-Other": "kept"])
    }

    @Test("a request's own redirects: and cookies: in a pipeline file: sluice run, and the curl command sluice curl writes, send the same across hosts")
    func requestsOwnRedirectsBesideCurl() async throws {
        let servers = try TestServers.load()
        let port = servers.httpbin.port!
        let away = servers.httpbin("redirect-to?url=" + "http://localhost:\(port)/anything".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let directory = try TemporaryDirectory()
        let file = try directory.write("""
            stages:
              - header-injection: { headers: { Authorization: Bearer t } }
            requests:
              - name: trusted
                path: \(away.absoluteString)
                redirects: { trusted: true }
                expect: { body: { "$.headers.Authorization": Bearer t } }
              - name: plain
                path: \(away.absoluteString)
                expect: { body: { "$.headers.Authorization": { exists: false } } }
              - name: stop
                path: \(away.absoluteString)
                redirects: { follow: false }
                expect: { status: 302 }
              - name: cookies
                path: \(away.absoluteString)
                cookies: { own: "1", theme: dark }
                expect: { body: { "$.headers.Cookie": own=1; theme=dark } }
            """, to: "redirects.yaml")
        let run = try await SluiceProcess.launch(["run", file])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let cookies = try await SluiceProcess.launch(["curl", "--only", "cookies", file])
        let cookiesCommand = try #require(cookies.output.split(separator: "\n").first { $0.hasPrefix("curl ") })
        #expect(cookiesCommand.contains("-b 'own=1; theme=dark'") && !cookiesCommand.contains("Cookie:"), "\(cookiesCommand)")
        let curlCookies = try await SluiceProcess.launch(["-c", String(cookiesCommand) + " --silent"], executable: URL(fileURLWithPath: "/bin/sh"))
        let echoedCookies = try JSONSerialization.jsonObject(with: Data(curlCookies.output.utf8)) as? [String: Any]
        #expect((echoedCookies?["headers"] as? [String: String])?["Cookie"] == "own=1; theme=dark", "curl sends them to the other host too")
        for (name, authorization) in [("trusted", "Bearer t"), ("plain", nil)] {
            let exported = try await SluiceProcess.launch(["curl", "--show-secrets", "--only", name, file])
            let command = try #require(exported.output.split(separator: "\n").first { $0.hasPrefix("curl ") })
            #expect(command.contains(name == "trusted" ? "--location-trusted" : "--location "), "\(command)")
            let sent = try await SluiceProcess.launch(["-c", String(command) + " --silent"], executable: URL(fileURLWithPath: "/bin/sh"))
            let echoed = try JSONSerialization.jsonObject(with: Data(sent.output.utf8)) as? [String: Any]
            #expect((echoed?["headers"] as? [String: String])?["Authorization"] == authorization, "\(name): \(sent.output)")
        }
        let stop = try await SluiceProcess.launch(["curl", "--only", "stop", file])
        #expect(!stop.output.contains("--location"))
    }

    @Test("redirects: {referer: true}, as the stage's option or a request's own: each hop's Referer is the URL it came from, as curl -L -e ';auto' sends it, and sluice curl writes that flag")
    func refererOnRedirects() async throws {
        let servers = try TestServers.load()
        let port = servers.httpbin.port!
        // Two hops, the second to another origin, the first URL with user information and a
        // fragment that no Referer may carry.
        let inner = "http://localhost:\(port)/headers"
        let start = servers.httpbin("redirect-to?url=" + servers.httpbin("redirect-to?url=" + inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!).absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let first = start.absoluteString.replacingOccurrences(of: "http://", with: "http://u:p@") + "#top"
        let reference = try await CurlCLI.run(["-sL", "-e", ";auto", first])
        let curlReferer = try #require(((try JSONSerialization.jsonObject(with: Data(reference.output.utf8))) as? [String: Any]).flatMap { ($0["headers"] as? [String: String])?["Referer"] })
        #expect(!curlReferer.contains("u:p") && !curlReferer.contains("#"), "\(curlReferer)")
        let directory = try TemporaryDirectory()
        let stageWide = try directory.write("""
            stages:
              - redirects: { referer: true }
            requests:
              - name: auto
                path: "\(first)"
                expect: { body: { "$.headers.Referer": "\(curlReferer)" } }
              - name: none
                path: "\(first)"
                redirects: { referer: false }
                expect: { body: { "$.headers.Referer": { exists: false } } }
            """, to: "stage.yaml")
        let ownOnly = try directory.write("""
            requests:
              - name: own
                path: "\(first)"
                redirects: { referer: true }
                expect: { body: { "$.headers.Referer": "\(curlReferer)" } }
              - name: default
                path: "\(first)"
                expect: { body: { "$.headers.Referer": { exists: false } } }
            """, to: "own.yaml")
        for file in [stageWide, ownOnly] {
            let run = try await SluiceProcess.launch(["run", "--no-color", file])
            #expect(run.status == 0, "\(run.output)\(run.error)")
        }
        let exported = try await SluiceProcess.launch(["curl", "--only", "own", ownOnly])
        let command = try #require(exported.output.split(separator: "\n").first { $0.hasPrefix("curl ") })
        #expect(command.contains("--location --max-redirs 10 --referer ';auto'"), "\(command)")
        let sent = try await SluiceProcess.launch(["-c", String(command) + " --silent"], executable: URL(fileURLWithPath: "/bin/sh"))
        let exportedReferer = ((try? JSONSerialization.jsonObject(with: Data(sent.output.utf8))) as? [String: Any]).flatMap { ($0["headers"] as? [String: String])?["Referer"] }
        #expect(exportedReferer == curlReferer, "\(sent.output)")
        let typo = try directory.write("requests:\n  - { name: t, path: http://localhost/, redirects: { referrer: true } }\n", to: "typo.yaml")
        let refused = try await SluiceProcess.launch(["validate", typo])
        #expect(refused.status == 2 && refused.error.contains("did you mean 'referer'?"), "\(refused.error)")
    }

    @Test("a site's cookie check, a redirect to the same URL that sets a cookie, is followed as curl follows it; a loop that sets none stops at once, exit 47 as curl's")
    func cookieCheckRedirect() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let check = servers.scenario.appendingPathComponent("cookie-check/\(UUID().uuidString)").absoluteString
        let sent = try await SluiceProcess.launch(["send", "-sS", "-L", "-c", directory.file("sluice.jar").path, check])
        let curl = try await CurlCLI.run(["-sS", "-L", "-c", directory.file("curl.jar").path, check])
        #expect(sent.status == 0 && curl.status == 0, "sluice \(sent.status): \(sent.error)")
        #expect(sent.output.contains("\"cookie\": \"1\"") && sent.output == curl.output, "\(sent.output) against \(curl.output)")
        let file = try directory.write("requests:\n  - path: \(check)x\n    expect: { status: 200 }\n", to: "check.yaml")
        let run = try await SluiceProcess.launch(["run", file])
        #expect(run.status == 0, "\(run.output)")
        // The same URL again with nothing changed is a loop: found before the limit, curl's status.
        let loop = servers.fault.appendingPathComponent("redirect-loop").absoluteString
        let looped = try await SluiceProcess.launch(["send", "-sS", "-L", loop])
        #expect(looped.status == 47 && looped.error.contains("redirect loop"), "\(looped.status): \(looped.error)")
        #expect(try await CurlCLI.run(["-sS", "-L", loop]).status == 47)
    }

    @Test("https to http is refused by default; http to https is followed")
    func downgrade() async throws {
        let servers = try TestServers.load()
        let refused = await #expect(throws: SluiceError.self) { try await servers.manager().send(Request(url: servers.nginxTLS("to-http"))) }
        #expect(refused?.kind == .insecureRedirect)
        #expect(refused?.response?.status == 302)
        let allowed = try await servers.manager(redirects: Redirection(allowsInsecureRedirects: true)).send(Request(url: servers.nginxTLS("to-http")))
        #expect(String(decoding: allowed.body, as: UTF8.self) == "hello from nginx\n")
        let upgraded = try await servers.manager().send(Request(url: servers.nginx("to-https")))
        #expect(upgraded.url?.scheme == "https")
        #expect(String(decoding: upgraded.body, as: UTF8.self) == "hello from nginx\n")
    }

    @Test("every hop asks the task about trust")
    func trustOnEveryHop() async throws {
        let servers = try TestServers.load()
        let recorder = TrustRecorder()
        let manager = try servers.manager(trustRecorder: recorder)
        _ = try await manager.send(Request(url: servers.nginx("to-https")))
        #expect(recorder.calls.map(\.scheme) == ["http", "https"], "the plain request and the TLS hop")
        #expect(recorder.calls.last?.showsCertificates == true)
    }
}
