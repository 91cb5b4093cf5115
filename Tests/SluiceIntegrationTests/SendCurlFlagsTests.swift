import Foundation
import Testing
@testable import SluiceCore

/// `sluice send` takes curl's everyday flags: each case runs curl and `sluice send` with the same
/// flags against httpbin's `/anything`, which echoes what it received, and compares what the
/// server saw (method, query, body, form, JSON and the headers the flags set) and the exit status.
@Suite("sluice send speaks curl's everyday flags, checked against curl on the same httpbin")
struct SendCurlFlagsTests {
    /// What httpbin saw of a request, the fields the flags decide.
    static func seen(_ output: String) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        let headers = object["headers"] as? [String: String] ?? [:]
        var seen: [String: String] = [
            "method": object["method"] as? String ?? "",
            "args": String(describing: (object["args"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }),
            "data": object["data"] as? String ?? "",
            "form": String(describing: (object["form"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }),
            "json": String(describing: object["json"] ?? "null"),
        ]
        for name in ["User-Agent", "Referer", "Authorization", "Content-Type", "Accept"] where name != "User-Agent" || (headers[name]?.hasPrefix("curl/") == false && headers[name]?.hasPrefix("sluice/") == false) {
            seen[name] = headers[name]
        }
        return seen
    }

    @Test("-A (empty too), -e, -u with --basic, --oauth2-bearer, --json, -d with --data-urlencode, -G (a fragment too): httpbin sees the same as from curl")
    func sameAsCurl() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let note = try directory.write("a note & more", to: "note.txt")
        let body = try directory.write(#"{"from":"file"}"#, to: "body.json")
        let url = servers.httpbin("anything").absoluteString
        let cases: [[String]] = [
            ["-A", "agent/1.0", "-e", "https://from.example/page", url],
            ["-A", "", url],
            ["-u", "ada:s3cret pass", url],
            ["-u", "ada:s3cret", "--basic", url],
            ["--oauth2-bearer", "token-123", url],
            ["--json", #"{"a":1}"#, url],
            ["--json", "@" + body, url],
            ["-d", "a=1", "--data-urlencode", "q=x y&z", "--data-urlencode", "plain text", url],
            ["--data-urlencode", "note@" + note, url],
            ["-G", "-d", "a=1", "--data-urlencode", "q=x y", url + "?keep=1"],
            // -G's data goes before a fragment (after it, nothing was sent), after an empty query.
            ["-G", "-d", "a=1", url + "#top"], ["-G", "-d", "a=1", url + "?keep=1#top"], ["-G", "-d", "a=1", url + "?"],
            ["-X", "PUT", "--json", "[1,2]", "-H", "Accept: text/plain", url],
            ["-s", "-S", url],
        ]
        for arguments in cases {
            let reference = try await CurlCLI.run(arguments)
            let sent = try await SluiceProcess.launch(["send"] + arguments)
            #expect(sent.status == reference.status, "\(arguments): \(sent.error)")
            #expect(try Self.seen(sent.output) == Self.seen(reference.output), "\(arguments)")
        }
    }

    @Test("-X goes out as typed, as curl sends it: get stays get, PURGE stays PURGE (methods are case-sensitive)")
    func methodAsTyped() async throws {
        let servers = try TestServers.load()
        let url = servers.scenario.appendingPathComponent("raw/method").absoluteString
        for method in ["get", "Post", "PURGE", "m-search"] {
            let arguments = ["-X", method, "-H", "X-Record-Request: 1", url]
            let reference = try await CurlCLI.run(arguments)
            let sent = try await SluiceProcess.launch(["send"] + arguments)
            let line = { (text: String) in (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["request_line"] as? String }
            #expect(line(sent.output) == "\(method) /raw/method HTTP/1.1", "\(sent.output)\(sent.error)")
            #expect(line(sent.output) == line(reference.output))
        }
    }

    @Test("-L and --location-trusted across hosts: -u, -H Authorization, -H Cookie and -b go where curl sends them")
    func credentialsAcrossRedirects() async throws {
        let servers = try TestServers.load()
        let port = servers.httpbin.port!
        let elsewhere = "http://localhost:\(port)/anything".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let away = servers.httpbin("redirect-to?url=\(elsewhere)").absoluteString
        let back = "http://localhost:\(port)/redirect-to?url=" + servers.httpbin("anything").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let cases: [[String]] = [
            ["-L", "-u", "ada:s3cret", away],
            ["--location-trusted", "-u", "ada:s3cret", away],
            ["-L", "-H", "Authorization: Bearer t", away],
            ["--location-trusted", "-H", "Authorization: Bearer t", away],
            ["--location-trusted", "--max-redirs", "0", away],
            ["-L", "-H", "Authorization: Bearer t", "-H", "Cookie: c=1", back],
            ["-L", "-b", "c=1; d=2", back],
            ["-L", "-b", "c=1", "-H", "Cookie: own=1", back],
        ]
        for arguments in cases {
            let reference = try await CurlCLI.run(arguments)
            let sent = try await SluiceProcess.launch(["send"] + arguments)
            #expect(sent.status == reference.status, "\(arguments): \(sent.error)")
            guard reference.status == 0 else { continue }
            let (mine, theirs) = (try Self.seen(sent.output), try Self.seen(reference.output))
            #expect(mine == theirs, "\(arguments)")
            let cookie = { (output: String) in
                ((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]).flatMap { ($0["headers"] as? [String: String])?["Cookie"] }
            }
            #expect(cookie(sent.output) == cookie(reference.output), "\(arguments)")
        }
    }

    @Test("-w, -b (given once or again), -c and -T: the same write-out, cookies and upload as curl's")
    func writeOutCookiesUpload() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let format = #"%{http_code} %{size_download} %{num_redirects} %{content_type} %{url_effective}\n%%"#
        let redirected = servers.httpbin("redirect-to?url=%2Fredirect-to%3Furl%3D%252Fbytes%252F300").absoluteString
        for arguments in [["-L", redirected], [servers.httpbin("bytes/300").absoluteString], [servers.httpbin("status/418").absoluteString]] {
            let reference = try await CurlCLI.run(["-o", "/dev/null", "-w", format] + arguments)
            let sent = try await SluiceProcess.launch(["send", "-o", "/dev/null", "-w", format] + arguments)
            #expect(sent.status == reference.status && sent.output == reference.output, "\(arguments): \(sent.output) vs \(reference.output)")
        }
        let json = try await SluiceProcess.launch(["send", "-o", "/dev/null", "-w", "%{json}", servers.httpbin("bytes/300").absoluteString])
        let curlJSON = try await CurlCLI.run(["-o", "/dev/null", "-w", "%{json}", servers.httpbin("bytes/300").absoluteString])
        let mine = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(curlJSON.output.utf8)) as? [String: Any])
        for key in ["http_code", "response_code", "url_effective", "content_type", "size_download", "num_redirects"] {
            #expect(String(describing: mine[key] ?? "missing") == String(describing: theirs[key] ?? "missing"), "\(key)")
        }
        // Every name of ours is one of curl's; curl's others are the five the README names.
        let onlyCurl: Set = ["curl_version", "certs", "num_certs", "ftp_entry_path", "proxy_ssl_verify_result"]
        #expect(Set(mine.keys) == Set(theirs.keys).subtracting(onlyCurl), "\(Set(mine.keys).symmetricDifference(theirs.keys))")

        // Cookie files: each tool's -c jar, read by the other's -b.
        func cookies(in path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                .filter { !$0.hasPrefix("#") || $0.hasPrefix("#HttpOnly_") }
                .map { line in let fields = line.split(separator: "\t"); return "\(fields[0]) \(fields[2]) \(fields[5])=\(fields[6])" }
                .sorted()
        }
        let byCurl = directory.file("curl.jar").path
        let bySluice = directory.file("sluice.jar").path
        let set = servers.httpbin("cookies/set?a=1&b=two").absoluteString
        _ = try await CurlCLI.run(["-L", "-c", byCurl, "-o", "/dev/null", set])
        let written = try await SluiceProcess.launch(["send", "-L", "-c", bySluice, "-o", "/dev/null", set])
        #expect(written.status == 0, "\(written.error)")
        #expect(try cookies(in: bySluice) == cookies(in: byCurl))
        let echo = servers.httpbin("cookies").absoluteString
        for jar in [byCurl, bySluice] {
            let sent = try await SluiceProcess.launch(["send", "-b", jar, echo])
            #expect(try Self.seen(sent.output).isEmpty == false && sent.output.contains(#""a": "1""#) && sent.output.contains(#""b": "two""#), "\(sent.output)")
            #expect(try await CurlCLI.run(["-b", jar, echo]).output == sent.output)
        }
        let literal = try await SluiceProcess.launch(["send", "-b", "x=1; y=2", echo])
        #expect(literal.output == (try await CurlCLI.run(["-b", "x=1; y=2", echo]).output))
        // -b given again adds to what came before, as curl's does: texts joined with ';' (byte
        // for byte), every file read, '@FILE' a file whatever it holds. A file's cookies of one
        // path go out oldest first, as RFC 6265 orders them, where curl sends the newest first:
        // compared as a set.
        let headers = servers.httpbin("headers").absoluteString
        let field = { (output: String) in
            ((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]).flatMap { ($0["headers"] as? [String: String])?["Cookie"] }
        }
        let texts = ["-b", "x=1", "-b", "y=2; z=3"]
        let joined = try await SluiceProcess.launch(["send"] + texts + [headers])
        let joinedByCurl = try await CurlCLI.run(texts + [headers])
        #expect(field(joined.output) == "x=1;y=2; z=3" && field(joined.output) == field(joinedByCurl.output), "\(joined.output)")
        let pairs = { (output: String) in
            Set((field(output) ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        for arguments in [["-b", byCurl, "-b", "x=1"], ["-b", "x=1", "-b", byCurl, "-b", "y=2"], ["-b", "@" + byCurl]] {
            let sent = try await SluiceProcess.launch(["send"] + arguments + [headers])
            let reference = try await CurlCLI.run(arguments + [headers])
            #expect(pairs(sent.output).contains("a=1") && pairs(sent.output) == pairs(reference.output), "\(arguments): \(sent.output)")
        }

        let upload = try directory.write("uploaded by -T\n", to: "up.txt")
        for target in [servers.httpbin("anything/").absoluteString, servers.httpbin("anything/named").absoluteString] {
            let reference = try await CurlCLI.run(["-T", upload, target])
            let sent = try await SluiceProcess.launch(["send", "-T", upload, target])
            #expect(try Self.seen(sent.output) == Self.seen(reference.output), "\(target)")
            #expect(sent.output.contains("/anything/up.txt") == reference.output.contains("/anything/up.txt"))
        }
        // -w @- reads the format from standard input; -b '' turns the cookie engine on with no
        // file, so a cookie set on the way is sent on the next hop: both as curl's.
        let shell = URL(fileURLWithPath: "/bin/sh")
        let piped = try await SluiceProcess.launch(["-c", "printf '%%{http_code}' | '\(SluiceProcess.executable.path)' send -w @- -o /dev/null '\(echo)'"], executable: shell)
        #expect(piped.status == 0 && piped.output == "200", "\(piped.output)\(piped.error)")
        let engine = try await SluiceProcess.launch(["send", "-L", "-b", "", set])
        let engineByCurl = try await CurlCLI.run(["-L", "-b", "", set])
        #expect(engine.status == 0 && engine.output.contains(#""a": "1""#) && engine.output == engineByCurl.output, "\(engine.output)\(engine.error)")
        // -e URL;auto: the URL on the first request, and each hop the URL it came from, without
        // user information or fragment, as curl's.
        let redirect = servers.httpbin("redirect-to?url=/headers").absoluteString
        let withUser = redirect.replacingOccurrences(of: "http://", with: "http://u:p@") + "#fragment"
        for arguments in [["-e", "http://ref.example/;auto", redirect], ["-e", ";auto", withUser], ["-e", "http://ref.example/;auto", headers], ["-e", "http://r/", redirect]] {
            let sent = try await SluiceProcess.launch(["send", "-sL"] + arguments)
            let reference = try await CurlCLI.run(["-L"] + arguments)
            let referer = { (output: String) in
                ((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]).flatMap { ($0["headers"] as? [String: String])?["Referer"] }
            }
            #expect(sent.status == 0 && referer(sent.output) != nil && referer(sent.output) == referer(reference.output), "\(arguments): \(sent.output) against \(reference.output)")
        }
        let unknown = try await SluiceProcess.launch(["send", "-w", "%{proxy_ssl_verify_result}", echo])
        #expect(unknown.status == 2 && unknown.error.contains("%{proxy_ssl_verify_result}"), "\(unknown.error)")
    }

    @Test("-I sends HEAD and prints the head, with -L every hop's as curl, no body; -s hides an error's message but not its status, -sS shows it")
    func headAndSilence() async throws {
        let servers = try TestServers.load()
        let head = try await SluiceProcess.launch(["send", "-I", servers.nginxTLS("hello.txt").absoluteString, "--cacert", servers.caBundle])
        let curlHead = try await CurlCLI.run(["-I", servers.nginxTLS("hello.txt").absoluteString, "--cacert", servers.caBundle])
        #expect(head.status == 0 && curlHead.status == 0)
        #expect(head.output.hasPrefix("HTTP/2 200") && curlHead.output.hasPrefix("HTTP/2 200"), "\(head.output)")
        #expect(head.output.contains("content-length: 17") || head.output.contains("Content-Length: 17"), "\(head.output)")
        #expect(!head.output.contains("hello from nginx"))

        // -IL, -I -L and -I -L -o FILE: every hop's head, as curl prints them.
        let redirected = servers.httpbin("redirect/2").absoluteString
        let statusLines = { (text: String) in text.split(separator: "\r\n").filter { $0.hasPrefix("HTTP/") } }
        let curlHops = try await CurlCLI.run(["-sIL", redirected])
        #expect(statusLines(curlHops.output).count == 3, "\(curlHops.output)")
        for arguments in [["-sIL"], ["-I", "-L"]] {
            let hops = try await SluiceProcess.launch(["send"] + arguments + [redirected])
            #expect(statusLines(hops.output) == statusLines(curlHops.output), "\(arguments): \(hops.output)")
        }
        let directory = try TemporaryDirectory()
        let headFile = directory.file("heads.txt").path
        let toFile = try await SluiceProcess.launch(["send", "-I", "-L", "-o", headFile, redirected])
        #expect(toFile.status == 0 && toFile.output.isEmpty, "\(toFile.error)")
        #expect(statusLines(FileNodes.contents(headFile) ?? "") == statusLines(curlHops.output))

        let refused = "http://127.0.0.1:1/"
        let silent = try await SluiceProcess.launch(["send", "-s", refused])
        #expect(silent.status == 7 && silent.error.isEmpty, "\(silent.error)")
        #expect(try await CurlCLI.run(["-s", refused]).status == 7)
        let shown = try await SluiceProcess.launch(["send", "-s", "-S", refused])
        #expect(shown.status == 7 && shown.error.hasPrefix("sluice: error: "), "\(shown.error)")
        let failed = try await SluiceProcess.launch(["send", "-s", "--fail", servers.httpbin("status/404").absoluteString])
        #expect(failed.status == 22 && failed.error.isEmpty && failed.output.isEmpty)
    }

    @Test("what cannot go together is refused with the flags' names, exit 2; a password never shows, in a URL either")
    func refused() async throws {
        let servers = try TestServers.load()
        let url = servers.httpbin("anything").absoluteString
        for (arguments, named) in [
            (["-u", "ada", url], "-u"), (["--basic", url], "--basic"), (["-u", "a:b", "--oauth2-bearer", "t", url], "--oauth2-bearer"),
            (["-I", "-d", "a=1", url], "-I"), (["-G", "--json", "{}", url], "-G"),
            (["-S", url], "-S"), (["--digest", "--basic", "-u", "a:b", url], "--digest"), (["-K", "config.txt", url], "-K"), (["--no-such", "1", url], "--no-such"),
            (["-H", "X-D :  spaced", url], "-H 'X-D': a field name has no space or tab before it"), (["-H", " Lead: sp", url], "-H 'Lead'"),
        ] {
            let result = try await SluiceProcess.launch(["send"] + arguments)
            #expect(result.status == 2 && result.error.contains(named), "\(arguments): \(result.error)")
        }
        // A file that cannot be read: curl's read error, where curl itself would send an empty body.
        let unreadable = try await SluiceProcess.launch(["send", "--data-urlencode", "@/nonexistent/file", url])
        #expect(unreadable.status == 26 && unreadable.error.contains("--data-urlencode"), "\(unreadable.error)")
        let verbose = try await SluiceProcess.launch(["send", "-i", "--metrics", "-u", "ada:hunter2-secret", servers.httpbin("status/401").absoluteString])
        #expect(!verbose.output.contains("hunter2") && !verbose.error.contains("hunter2") && !verbose.error.contains("aHVudGVy"))
        // A password that stands in the URL too is hidden there as well, by send -v and by run -u.
        let inPath = servers.httpbin("basic-auth/ada/hunter2-secret").absoluteString
        let sent = try await SluiceProcess.launch(["send", "-sv", "-o", "/dev/null", "-u", "ada:hunter2-secret", inPath])
        #expect(sent.status == 0 && sent.error.contains("> GET /basic-auth/ada/*** HTTP/1.1"), "\(sent.error)")
        // A password in the URL's user information is not printed by a failure's message, where
        // curl's message leaves the URL out: a refused connection, a host that does not resolve.
        for failing in ["http://ada:url-secret-pw@127.0.0.1:9/x", "http://ada:url-secret-pw@nonexistent.invalid/x"] {
            let failed = try await SluiceProcess.launch(["send", "-sS", failing])
            #expect([6, 7].contains(failed.status) && failed.error.contains("ada:***@") && !failed.error.contains("url-secret-pw"), "\(failed.error)")
        }
        // A server's Location with terminal escapes (a title, a clear screen) is shown escaped in
        // the error, never written to the terminal as it came.
        let escapes = servers.scenario.absoluteString + "/cache/escapes-\(UUID().uuidString)?status=302&location=gopher://x%1B%5D0;pwned%07%1B%5B2J/"
        let hostile = try await SluiceProcess.launch(["send", "-L", "-o", "/dev/null", escapes])
        #expect(hostile.status != 0 && !hostile.error.contains("\u{1B}") && !hostile.error.contains("\u{7}"), "\(hostile.error)")
        #expect(hostile.error.contains(#"gopher://x\u{1B}]0;pwned\u{7}\u{1B}[2J/"#), "\(hostile.error)")
        let directory = try TemporaryDirectory()
        let pipeline = try directory.write("requests:\n  - name: in-path\n    path: \(inPath)\n    expect: {status: 200}\n", to: "in-path.yaml")
        for format in [["--no-color"], ["--format", "json"], ["--verbose"]] {
            let run = try await SluiceProcess.launch(["run", "-u", "ada:hunter2-secret"] + format + [pipeline])
            #expect(run.status == 0 && !run.output.contains("hunter2") && !run.error.contains("hunter2"), "\(format): \(run.output)\(run.error)")
        }
    }
}

/// The rest of curl's everyday flags, each run beside curl with the same flags.
@Suite("sluice send: -v, --retry, --http2, -4, -6, --limit-rate, -n and --netrc-file beside curl")
struct SendMoreCurlFlagsTests {
    @Test("-v shows each exchange as > and < lines on standard error, the request line and status as curl's, credentials and cookies as ***")
    func verbose() async throws {
        let servers = try TestServers.load()
        let url = servers.httpbin("cookies/set?a=1").absoluteString
        let sent = try await SluiceProcess.launch(["send", "-v", "-L", "-u", "ada:s3cret-pass", "-b", "k=cookie-value", "-o", "/dev/null", url])
        let reference = try await SluiceProcess.launch(["--silent", "-v", "-L", "-u", "ada:s3cret-pass", "-b", "k=cookie-value", "-o", "/dev/null", url], executable: URL(fileURLWithPath: "/usr/bin/curl"))
        #expect(sent.status == 0, "\(sent.error)")
        func lines(_ text: String, _ prefix: String) -> [String] {
            // curl ends its lines with CRLF, one Character in Swift.
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix(prefix) }
        }
        // The request lines and status lines (reason phrase included) of both hops, as curl shows them.
        let requestLines = lines(sent.error, "> ").filter { $0.hasPrefix("> GET") }
        #expect(requestLines == lines(reference.error, "> ").filter { $0.hasPrefix("> GET") }, "\(sent.error)")
        #expect(lines(sent.error, "< HTTP/") == lines(reference.error, "< HTTP/"), "\(sent.error)")
        #expect(lines(sent.error, "> Host: ") == lines(reference.error, "> Host: "))
        // What libcurl wrote, its own Accept included: the same fields as curl's but the two decided
        // differences (User-Agent's value, Accept-Encoding), in the order libcurl writes them.
        func names(_ text: String) -> [String] {
            lines(text, "> ").dropFirst().compactMap { line in line.firstIndex(of: ":").map { String(line[line.index(line.startIndex, offsetBy: 2)..<$0]) } }
                .filter { $0 != "Accept-Encoding" }
        }
        #expect(Set(names(sent.error)) == Set(names(reference.error)), "\(sent.error)")
        #expect(sent.error.contains("> Accept: */*"))
        // curl shows the secrets; Sluice never does.
        #expect(reference.error.contains(Data("ada:s3cret-pass".utf8).base64EncodedString()))
        for secret in ["s3cret-pass", Data("ada:s3cret-pass".utf8).base64EncodedString(), "cookie-value"] {
            #expect(!sent.error.contains(secret), "\(secret)")
        }
        #expect(sent.error.contains("> Authorization: Basic ***") && sent.error.contains("< Set-Cookie: ***"))
    }

    @Test("--retry N: the fault server's 503s (Retry-After: 0) are retried until it answers, as curl; past N the 503 is the answer")
    func retry() async throws {
        let servers = try TestServers.load()
        for (retries, failures) in [(2, 2), (1, 2)] {
            let key = "send-retry-\(retries)-\(failures)-\(UUID().uuidString)"
            let sent = try await SluiceProcess.launch(["send", "--retry", "\(retries)", "-w", "\n%{http_code}", servers.fault.appendingPathComponent("busy/\(key)-s").absoluteString + "?failures=\(failures)&retry-after=0"])
            let reference = try await CurlCLI.run(["--retry", "\(retries)", "-w", "\n%{http_code}", servers.fault.appendingPathComponent("busy/\(key)-c").absoluteString + "?failures=\(failures)&retry-after=0"])
            #expect(sent.status == reference.status && sent.output == reference.output, "\(retries): \(sent.output) vs \(reference.output)")
        }
    }

    @Test("--retry-delay S waits S seconds before each retry as curl's does (httpbin's 503 has no Retry-After), announced unless -s; --retry-connrefused is taken; either without --retry is refused")
    func retryDelay() async throws {
        let servers = try TestServers.load()
        let unavailable = servers.httpbin("status/503").absoluteString
        let clock = ContinuousClock()
        // Waits only a lower bound can check: a loaded machine makes them longer, never shorter.
        // The default wait before the first retry is 1 s; --retry-delay 2 makes it 2.
        let start = clock.now
        let sent = try await SluiceProcess.launch(["send", "--retry", "1", "--retry-delay", "2", "--retry-connrefused", "-o", "/dev/null", "-w", "%{http_code}", unavailable])
        let waited = clock.now - start
        let reference = try await CurlCLI.run(["--retry", "1", "--retry-delay", "2", "--retry-connrefused", "-o", "/dev/null", "-w", "%{http_code}", unavailable])
        #expect(sent.status == reference.status && sent.output == "503" && reference.output == "503", "\(sent.error)")
        #expect(waited >= .seconds(2), "\(waited)")
        // Without -s the wait is announced, as curl's "Will retry in 2 seconds" warning is.
        #expect(sent.error == "sluice: warning: attempt 2 of 2 after status 503, waiting 2000 ms\n", "\(sent.error)")
        for flags in [["--retry-delay", "2"], ["--retry-connrefused"], ["--retry", "0", "--retry-delay", "1"]] {
            let alone = try await SluiceProcess.launch(["send"] + flags + [unavailable])
            #expect(alone.status == 2 && alone.error.contains("changes how --retry retries: give --retry N too"), "\(flags): \(alone.error)")
        }
        let negative = try await SluiceProcess.launch(["send", "--retry", "1", "--retry-delay", "-1", unavailable])
        #expect(negative.status == 2 && negative.error.contains("--retry-delay must be 0 or more seconds"), "\(negative.error)")
    }

    @Test("--http2 over plain http asks for h2c, which nginx does not take: HTTP/1.1 as curl gets; over TLS HTTP/2; -4 reaches nginx, -6 fails to connect as curl's does")
    func versions() async throws {
        let servers = try TestServers.load()
        for (arguments, expected) in [
            (["--http2", "-o", "/dev/null", "-w", "%{http_code}", servers.nginx("hello.txt").absoluteString], "200"),
            (["--http2", "--cacert", servers.caBundle, "-I", servers.nginxTLS("hello.txt").absoluteString], nil),
        ] as [([String], String?)] {
            let sent = try await SluiceProcess.launch(["send"] + arguments)
            let reference = try await CurlCLI.run(arguments)
            #expect(sent.status == 0 && reference.status == 0, "\(sent.error)")
            if let expected { #expect(sent.output == expected && reference.output == expected) }
            else { #expect(sent.output.hasPrefix("HTTP/2 200") && reference.output.hasPrefix("HTTP/2 200"), "\(sent.output)") }
        }
        let local = "http://localhost:\(servers.nginxHTTP.port!)/hello.txt"
        let four = try await SluiceProcess.launch(["send", "-4", local])
        let curlFour = try await CurlCLI.run(["-4", local])
        #expect(four.status == 0 && four.output == curlFour.output)
        let six = try await SluiceProcess.launch(["send", "-6", local])
        #expect(six.status == 7 && six.error.contains("connection failed"), "\(six.error)")
        let curlSix = try await CurlCLI.run(["-6", local])
        #expect(curlSix.status == 7)
        let both = try await SluiceProcess.launch(["send", "-4", "-6", local])
        #expect(both.status == 2 && both.error.contains("-4"))
    }

    /// curl 7.88 is no reference for the time here: on loopback it takes the 3 MiB in a few
    /// milliseconds whatever `--limit-rate` says; it is for the bytes.
    @Test("--limit-rate 1M: 3 MiB take at least 1.5 seconds (a lower bound, which a slow machine only passes more easily), all of them, as curl takes")
    func limitRate() async throws {
        let servers = try TestServers.load()
        let url = servers.nginx("medium.bin").absoluteString
        let sent = try await SluiceProcess.launch(["send", "--limit-rate", "1M", "-o", "/dev/null", "-w", "%{size_download} %{time_total}", url])
        let reference = try await CurlCLI.run(["--limit-rate", "1M", "-o", "/dev/null", "-w", "%{size_download}", url])
        let fields = sent.output.split(separator: " ")
        #expect(fields.first.map(String.init) == reference.output && (Double(fields.last ?? "") ?? 0) >= 1.5, "\(sent.output)")
        let bad = try await SluiceProcess.launch(["send", "--limit-rate", "fast", url])
        #expect(bad.status == 2 && bad.error.contains("--limit-rate"))
    }

    @Test("-w when no response came (a refused connection): 000, 0 bytes and the URL, as curl writes it")
    func writeOutWithoutResponse() async throws {
        let arguments = ["-w", "%{http_code} %{size_download} %{url_effective}", "http://127.0.0.1:1/refused"]
        let sent = try await SluiceProcess.launch(["send", "-s"] + arguments)
        let reference = try await CurlCLI.run(arguments)
        #expect(sent.status == 7 && reference.status == 7)
        #expect(sent.output == reference.output && sent.output == "000 0 http://127.0.0.1:1/refused", "\(sent.output)")
    }

    @Test("--max-filesize under a declared Content-Length: -i, -D and -w show the head that declared it, exit 63, an -o file left as it was, as curl's")
    func maxFilesizeKeepsHead() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let url = servers.httpbin("bytes/5000").absoluteString
        // httpbin's Date differs between the two runs.
        func head(_ text: String) -> [String] { text.split(separator: "\r\n").map(String.init).filter { !$0.hasPrefix("Date:") } }
        for arguments in [["-s", "-i"], ["-s", "-D", "-", "-o", "/dev/null"]] {
            let sent = try await SluiceProcess.launch(["send", "--max-filesize", "100"] + arguments + [url])
            let reference = try await CurlCLI.run(["--max-filesize", "100"] + arguments + [url])
            #expect(sent.status == 63 && reference.status == 63)
            #expect(head(sent.output) == head(reference.output) && sent.output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(arguments): \(sent.output) vs \(reference.output)")
        }
        let format = "%{http_code} %{size_download} %{exitcode}"
        let sent = try await SluiceProcess.launch(["send", "-s", "-o", "/dev/null", "--max-filesize", "100", "-w", format, url])
        let reference = try await CurlCLI.run(["-o", "/dev/null", "--max-filesize", "100", "-w", format, url])
        #expect(sent.output == reference.output && sent.output == "200 0 63", "\(sent.output) vs \(reference.output)")
        let kept = try directory.write("earlier\n", to: "kept.bin")
        let refused = try await SluiceProcess.launch(["send", "-sS", "-i", "-o", kept, "--max-filesize", "100", url])
        #expect(refused.status == 63 && refused.error.contains("the response declares a body of 5000 bytes (Content-Length), past the limit of 100 bytes"), "\(refused.error)")
        #expect(FileNodes.contents(kept) == "earlier\n")
    }

    @Test("-n and --netrc-file: the credential for the URL's host, as curl's; -u wins; a redirect to another host gets none, even with a default entry (CVE-2024-11053)")
    func netrc() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let text = """
            # the test's credentials
            machine 127.0.0.1 login user password "pass word"
            machine localhost login other
            default login fallback password default-secret
            """
        let netrc = try directory.write(text, to: "netrc")
        _ = try directory.write(text, to: ".netrc")
        let protected = servers.httpbin("basic-auth/user/pass%20word").absoluteString
        for arguments in [["--netrc-file", netrc, protected], ["-n", protected], ["--netrc-file", netrc, "-u", "user:wrong", protected]] {
            let sent = try await SluiceProcess.launch(["send", "-w", "\n%{http_code}"] + arguments, environment: ["HOME": directory.url.path])
            let reference = try await SluiceProcess.launch(["--silent", "-w", "\n%{http_code}"] + arguments, executable: URL(fileURLWithPath: "/usr/bin/curl"), environment: ["HOME": directory.url.path])
            #expect(sent.status == reference.status && sent.output == reference.output, "\(arguments): \(sent.output) vs \(reference.output)")
        }
        let elsewhere = "http://localhost:\(servers.httpbin.port!)/headers"
        let away = servers.httpbin("redirect-to?url=\(elsewhere.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)").absoluteString
        let redirected = try await SluiceProcess.launch(["send", "-L", "--netrc-file", netrc, away])
        #expect(redirected.status == 0 && !redirected.output.contains("Authorization"), "\(redirected.output)")
        let broken = try directory.write("machine a.test login u password \"open", to: "broken")
        let refused = try await SluiceProcess.launch(["send", "--netrc-file", broken, protected])
        #expect(refused.status == 2 && refused.error.contains("line 1"), "\(refused.error)")
        let missing = try await SluiceProcess.launch(["send", "--netrc-file", directory.file("none").path, protected])
        #expect(missing.status == 2 && missing.error.contains("--netrc-file"), "\(missing.error)")
    }
}
