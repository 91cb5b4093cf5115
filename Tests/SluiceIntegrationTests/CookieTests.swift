import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// The cookies stage over real sockets: httpbin's cookie endpoints, redirects that set cookies,
/// and cookie files exchanged with the curl command line both ways.
@Suite("Cookies against httpbin and curl")
struct CookieTests {
    private func cookies(in response: Response) throws -> [String: String] {
        try #require((try response.jsonObject()["cookies"]) as? [String: String])
    }

    @Test("/cookies/set redirects to /cookies: the hop sends what the first response set; /cookies/delete removes")
    func setAndDelete() async throws {
        let servers = try TestServers.load()
        let jar = CookieJar()
        let manager = try servers.manager(stages: [CookieHandling(jar: jar)])
        #expect(manager.pipeline.stageNames == ["redirects", "cookies"])
        let set = try await manager.send(Request(url: servers.httpbin("cookies/set?session=abc&theme=dark")))
        #expect(set.url?.path == "/cookies")
        #expect(try cookies(in: set) == ["session": "abc", "theme": "dark"])
        #expect(jar.cookies.map(\.name).sorted() == ["session", "theme"])
        #expect(jar.cookies.allSatisfy { $0.hostOnly && $0.path == "/" && $0.domain == "127.0.0.1" })
        let deleted = try await manager.send(Request(url: servers.httpbin("cookies/delete?theme")))
        #expect(try cookies(in: deleted) == ["session": "abc"])
        // A Cookie header the request sets itself comes first.
        let own = try await manager.send(Request(url: servers.httpbin("cookies"), headers: ["Cookie": "mine=1"]))
        #expect(try cookies(in: own) == ["session": "abc", "mine": "1"])
    }

    @Test("a redirect to another host does not carry the first host's cookies; coming back does")
    func acrossHosts() async throws {
        let servers = try TestServers.load()
        let jar = CookieJar()
        let manager = try servers.manager(stages: [CookieHandling(jar: jar)])
        _ = try await manager.send(Request(url: servers.httpbin("cookies/set?a=1")))
        let port = servers.httpbin.port!
        let elsewhere = "http://localhost:\(port)/cookies".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let moved = try await manager.send(Request(url: servers.httpbin("redirect-to?url=\(elsewhere)")))
        #expect(moved.url?.host == "localhost")
        #expect(try cookies(in: moved).isEmpty)
        let back = "http://127.0.0.1:\(port)/cookies".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let returned = try await manager.send(Request(url: URL(string: "http://localhost:\(port)/redirect-to?url=\(back)")!))
        #expect(try cookies(in: returned) == ["a": "1"])
    }

    @Test("cookies run below redirects in whatever order they are listed, so every hop passes them; two jars are refused")
    func placement() throws {
        #expect(try Pipeline(stages: [CookieHandling(), Redirection()]).stageNames == ["redirects", "cookies"])
        #expect(try Pipeline(stages: [Redirection(), CookieHandling()]).stageNames == ["redirects", "cookies"])
        #expect(try Pipeline(stages: [CookieHandling(), Redirection(follows: false)]).stageNames == ["redirects", "cookies"])
        let error = #expect(throws: SluiceError.self) { try Pipeline(stages: [CookieHandling(), CookieHandling()]) }
        #expect(error?.kind == .configuration)
        #expect(error?.message.hasPrefix("two 'cookies' stages cannot work together (stages 1 and 2 as listed): both claim the cookie jar") == true)
    }

    @Test("a cookie file Sluice writes is one curl -b sends from, and one curl -c writes is one Sluice sends from")
    func curlBothWays() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let written = directory.file("sluice-cookies.txt")
        let stage = try CookieHandling(file: written)
        let manager = try servers.manager(stages: [stage])
        _ = try await manager.send(Request(url: servers.httpbin("cookies/set?from=sluice&n=42")))
        stage.jar.insert(Cookie(name: "hidden", value: "h1", domain: "127.0.0.1", httpOnly: true))
        try stage.save()
        let attributes = try FileManager.default.attributesOfItem(atPath: written.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let echoed = try JSONSerialization.jsonObject(with: Data(try await CurlCLI.run(["-b", written.path, servers.httpbin("cookies").absoluteString]).output.utf8)) as? [String: Any]
        #expect(echoed?["cookies"] as? [String: String] == ["from": "sluice", "n": "42", "hidden": "h1"])

        let curlFile = directory.file("curl-cookies.txt")
        _ = try await CurlCLI.run(["-c", curlFile.path, servers.httpbin("cookies/set?from=curl&x=9").absoluteString])
        let loaded = try CookieHandling(file: curlFile)
        #expect(loaded.jar.cookies.map(\.name).sorted() == ["from", "x"])
        let response = try await servers.manager(stages: [loaded]).send(Request(url: servers.httpbin("cookies")))
        #expect(try cookies(in: response) == ["from": "curl", "x": "9"])
    }

    @Test("a hostile cookie file is refused line by line: a value with ';' or a control cannot add cookies or headers")
    func hostileFile() throws {
        let directory = try TemporaryDirectory()
        for line in ["127.0.0.1\tFALSE\t/\tFALSE\t0\ta\tb; admin=1", "127.0.0.1\tFALSE\t/\tFALSE\t0\ta\tb\r\nX: y", "127.0.0.1\tFALSE\t/\tFALSE\t0\ta=b\tc", "127.0.0.1\tFALSE\t/\tFALSE\tsoon\ta\tb", "127.0.0.1\tFALSE\t/"] {
            let file = directory.file("bad.txt")
            try line.write(to: file, atomically: true, encoding: .utf8)
            #expect(throws: NetscapeCookieFile.LineError.self, "\(line.debugDescription)") { try CookieHandling(file: file) }
        }
        #expect(throws: Never.self) { try CookieHandling(file: directory.file("missing.txt")) }
    }
}
