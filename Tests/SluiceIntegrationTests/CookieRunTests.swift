import Foundation
import Testing

/// Cookies in `sluice run`: one jar per run, `cookie-file:` read and written in curl's format,
/// `expect.cookies`, `{cookie: NAME}` captures, and HttpOnly values hidden from output.
@Suite("Cookies in the runner, against httpbin")
struct CookieRunTests {
    @Test("a run keeps cookies, checks and captures them, writes cookie-file:, and the next run reads it")
    func jarAcrossRequestsAndRuns() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - response-decoding
            cookie-file: jar.txt
            requests:
              - name: login
                path: cookies/set?session=abc123&theme=dark
                expect:
                  cookies:
                    session: abc123
                    theme: { exists: true }
                  body:
                    "$.cookies.session": abc123
                capture:
                  theme: { cookie: theme }
              - name: echo
                path: anything/${theme}
                expect:
                  body: { "$.url": { contains: "/anything/dark" } }
              - name: logout
                path: cookies/delete?theme
                expect:
                  cookies:
                    theme: { exists: false }
                    session: { matches: "^abc" }
            """, to: "cookies.yaml")
        let first = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(first.status == 0, "\(first.output)\(first.error)")
        #expect(first.output.contains("3 requests: 3 passed, 0 failed"), "\(first.output)")
        let file = try String(contentsOf: directory.file("jar.txt"), encoding: .utf8)
        #expect(file.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tabc123"), "\(file)")
        #expect(!file.contains("theme"))

        let second = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            cookie-file: jar.txt
            requests:
              - path: cookies
                expect:
                  body: { "$.cookies": { equals: { session: abc123 } } }
            """, to: "again.yaml")
        let rerun = try await SluiceProcess.launch(["run", "--no-color", second])
        #expect(rerun.status == 0, "\(rerun.output)\(rerun.error)")
    }

    @Test("the cookies stage's read: is only read and write: only written, as curl's -b FILE -c FILE; file: beside either is refused naming both")
    func readAndWriteFiles() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let input = "127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tfrom-file\n"
        _ = try directory.write(input, to: "in.txt")
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - cookies: { read: in.txt, write: out.txt }
            requests:
              - path: cookies/set?theme=dark
                redirects: { follow: false }
              - path: cookies
                expect:
                  body: { "$.cookies": { equals: { session: from-file, theme: dark } } }
            """, to: "cookies.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(FileNodes.contents(directory.file("in.txt").path) == input, "read: is never written")
        let written = FileNodes.contents(directory.file("out.txt").path) ?? ""
        #expect(written.contains("\tsession\tfrom-file") && written.contains("\ttheme\tdark"), "\(written)")

        let both = try directory.write("stages:\n  - cookies: { file: a.txt, write: b.txt }\nrequests:\n  - path: http://a.test/\n", to: "both.yaml")
        let refused = try await SluiceProcess.launch(["validate", both])
        #expect(refused.status == 2 && refused.error.contains("give file: (read and written) or read: and write:, not file: and write: both"), "\(refused.error)")
    }

    @Test("cookie-jar: off sends and stores nothing for one request; clear empties the jar for it and those after")
    func jarPerRequest() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            requests:
              - name: set
                path: cookies/set?a=1
              - name: without the jar
                path: cookies/set?b=2
                cookie-jar: off
                cookies: { own: yes }
                expect:
                  body: { $.cookies: { equals: { own: "yes" } } }
              - name: jar kept
                path: cookies
                expect:
                  body: { $.cookies: { equals: { a: "1" } } }
              - name: cleared
                path: cookies
                cookie-jar: clear
                expect:
                  body: { $.cookies: { equals: {} } }
              - name: still empty
                path: cookies
                expect:
                  body: { $.cookies: { equals: {} } }
            """, to: "jar.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("5 requests: 5 passed, 0 failed"), "\(run.output)")
        let bad = try directory.write("requests:\n  - path: http://h/\n    cookie-jar: none\n", to: "bad.yaml")
        let refused = try await SluiceProcess.launch(["validate", bad])
        #expect(refused.status == 2 && refused.error.contains("bad.yaml:3:17: error: cookie-jar is clear"), "\(refused.error)")
    }

    @Test("store-cookies puts cookie-file lines (tabs or spaces, ${...} filled in) in the jar after cookie-jar: clear; a bad line is refused at load; load mode stores them once and refuses clear")
    func storeCookies() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            variables: { flavour: oat }
            requests:
              - name: stored
                path: cookies
                store-cookies:
                  - "127.0.0.1\tFALSE\t/\tFALSE\t0\ttabbed\tA"
                  - "127.0.0.1   FALSE   /   FALSE   0   spaced ${flavour}"
                expect:
                  body: { "$.cookies": { equals: { tabbed: A, spaced: oat } } }
              - name: cleared then stored
                path: cookies
                cookie-jar: clear
                store-cookies: ["127.0.0.1 FALSE / FALSE 0 fresh yes"]
                expect:
                  body: { "$.cookies": { equals: { fresh: "yes" } } }
              - name: other host
                path: cookies
                store-cookies: ["elsewhere.test FALSE / FALSE 0 away no"]
                expect:
                  body: { "$.cookies": { equals: { fresh: "yes" } } }
            """, to: "store.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")

        let bad = try directory.write("requests:\n  - path: http://a.test/\n    store-cookies: [\"a.test FALSE / FALSE 0 name\"]\n", to: "bad.yaml")
        let refused = try await SluiceProcess.launch(["validate", bad])
        #expect(refused.status == 2 && refused.error.contains("bad.yaml:3:21: error: store-cookies: expected 7 fields (DOMAIN SUBDOMAINS PATH SECURE EXPIRES NAME VALUE), found 6"), "\(refused.error)")

        let load = try directory.write("""
            requests:
              - path: "\(servers.httpbin.absoluteString)/cookies"
                store-cookies: ["127.0.0.1 FALSE / FALSE 0 loaded once"]
                expect:
                  body: { "$.cookies.loaded": { equals: once } }
            """, to: "load.yaml")
        let loaded = try await SluiceProcess.launch(["run", "--repeat", "4", "--concurrency", "2", "--format", "json", load])
        #expect(loaded.status == 0 && loaded.output.contains("\"ok\": 4"), "\(loaded.output)\(loaded.error)")
        let clearing = try directory.write("requests:\n  - name: wipe\n    path: \(servers.httpbin.absoluteString)/cookies\n    cookie-jar: clear\n", to: "clearing.yaml")
        let refusedLoad = try await SluiceProcess.launch(["run", "--repeat", "2", clearing])
        #expect(refusedLoad.status == 2 && refusedLoad.error.contains("request 'wipe' has cookie-jar: clear; load mode"), "\(refusedLoad.error)")
    }

    @Test("a cookies: name that is no token, or a value with ';' or a control character, is refused: at load when written, before sending when a capture fills it; a Cookie header of the request's own and cookies: go out together, from a run and from the command sluice curl writes")
    func ownCookiesChecked() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let written = try directory.write("""
            requests:
              - path: http://127.0.0.1:9/
                cookies: { "k=x; evil": v, ok: "a; admin=1", "sp ace": "a b", fine: "a b,\\"c\\"" }
            """, to: "written.yaml")
        let load = try await SluiceProcess.launch(["validate", written])
        #expect(load.status == 2, "\(load.error)")
        #expect(load.error.contains("written.yaml:3:16: error: cookies: the cookie name 'k=x; evil' holds '='"), "\(load.error)")
        #expect(load.error.contains("error: cookies: the value of cookie ok holds ';'"), "\(load.error)")
        #expect(load.error.contains("'sp ace' holds byte 0x20") && !load.error.contains("cookie fine"), "\(load.error)")

        let recorder = servers.scenario.absoluteString
        let captured = try directory.write("""
            requests:
              - name: source
                path: \(servers.httpbin("anything?c=v%3B%20admin%3D1").absoluteString)
                capture: { c: $.args.c }
              - name: injected
                path: \(recorder)/raw/cookie
                cookies: { k: "${c}" }
              - name: together
                path: \(recorder)/raw/together
                headers: { Cookie: "sess=1" }
                cookies: { own: "2" }
            """, to: "captured.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", "--verbose", captured])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("✘ injected") && run.output.contains("the value of cookie k holds ';'") && !run.output.contains("> Cookie: k=v; admin=1"), "\(run.output)")
        #expect(run.output.contains("✔ together"), "\(run.output)")
        let exported = try await SluiceProcess.launch(["curl", "--only", "together", captured])
        #expect(exported.output.contains("-H 'Cookie: ***'") || exported.output.contains("-H 'Cookie: sess=1; own=2'"), "\(exported.output)")
        #expect(!exported.output.contains(" -b "), "\(exported.output)")
        let replayed = try await SluiceProcess.launch(["-c", exported.output.replacingOccurrences(of: "'Cookie: ***'", with: "'Cookie: sess=1; own=2'")], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(replayed.output.contains(#"["Cookie", "sess=1; own=2"]"#), "\(replayed.output)")
    }

    @Test("a failed cookie expectation says what the jar holds")
    func failingExpectation() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - path: \(servers.httpbin.absoluteString)/cookies/set?a=1
                expect:
                  cookies:
                    a: 2
                    missing: x
            """, to: "p.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(result.status == 1)
        #expect(result.output.contains("failed: cookie a\n        expected: 2\n        actual:   \"1\""), "\(result.output)")
        #expect(result.output.contains("actual:   no cookie missing"), "\(result.output)")
    }

    @Test("the value of an HttpOnly cookie is a credential: hidden in --verbose and in the JSON report")
    func httpOnlyRedacted() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let header = "token=tok-5f2b9c77; HttpOnly; Path=/".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            requests:
              - name: set
                path: response-headers?Set-Cookie=\(header)
              - name: send
                path: cookies
                expect:
                  cookies: { token: { exists: true } }
            """, to: "p.yaml")
        let verbose = try await SluiceProcess.launch(["run", "--no-color", "--verbose", path])
        #expect(verbose.status == 0, "\(verbose.output)\(verbose.error)")
        #expect(verbose.error.contains("Set-Cookie: token=***; HttpOnly"), "\(verbose.error)")
        #expect(verbose.error.contains("Cookie: token=***"), "\(verbose.error)")
        #expect(!verbose.output.contains("tok-5f2b9c77") && !verbose.error.contains("tok-5f2b9c77"))
        let json = try await SluiceProcess.launch(["run", "--format", "json", path])
        #expect(!json.output.contains("tok-5f2b9c77"), "\(json.output)")
    }

    @Test("a cookie file that is not one, and a cookie file named twice, are load-time errors at their line")
    func loadErrors() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("127.0.0.1\tFALSE\t/\tFALSE\t0\ta\tb; admin=1\n", to: "bad.txt")
        let bad = try directory.write("cookie-file: bad.txt\nrequests: []\n", to: "bad.yaml")
        let refused = try await SluiceProcess.launch(["validate", bad])
        #expect(refused.status == 2)
        #expect(refused.error.contains("bad.yaml:1:14: error: cannot read the cookie file"), "\(refused.error)")
        #expect(refused.error.contains("line 1: the name or value holds a character a cookie cannot"), "\(refused.error)")
        let twice = try directory.write("cookie-file: a.txt\nstages:\n  - cookies: { file: b.txt }\nrequests: []\n", to: "twice.yaml")
        let named = try await SluiceProcess.launch(["validate", twice])
        #expect(named.status == 2)
        #expect(named.error.contains("twice.yaml:1:14: error: cookie-file: and the cookies stage both name the cookie file"), "\(named.error)")
    }
}
