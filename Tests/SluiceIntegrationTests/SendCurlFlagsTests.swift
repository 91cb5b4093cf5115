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
        for name in ["User-Agent", "Referer", "Authorization", "Content-Type", "Accept"] where name != "User-Agent" || headers[name]?.hasPrefix("curl/") == false {
            seen[name] = headers[name]
        }
        return seen
    }

    @Test("-A, -e, -u with --basic, --oauth2-bearer, --json, -d with --data-urlencode, -G: httpbin sees the same as from curl")
    func sameAsCurl() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let note = try directory.write("a note & more", to: "note.txt")
        let body = try directory.write(#"{"from":"file"}"#, to: "body.json")
        let url = servers.httpbin("anything").absoluteString
        let cases: [[String]] = [
            ["-A", "agent/1.0", "-e", "https://from.example/page", url],
            ["-u", "ada:s3cret pass", url],
            ["-u", "ada:s3cret", "--basic", url],
            ["--oauth2-bearer", "token-123", url],
            ["--json", #"{"a":1}"#, url],
            ["--json", "@" + body, url],
            ["-d", "a=1", "--data-urlencode", "q=x y&z", "--data-urlencode", "plain text", url],
            ["--data-urlencode", "note@" + note, url],
            ["-G", "-d", "a=1", "--data-urlencode", "q=x y", url + "?keep=1"],
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

    @Test("-w, -b, -c and -T: the same write-out, cookies and upload as curl's")
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

        let upload = try directory.write("uploaded by -T\n", to: "up.txt")
        for target in [servers.httpbin("anything/").absoluteString, servers.httpbin("anything/named").absoluteString] {
            let reference = try await CurlCLI.run(["-T", upload, target])
            let sent = try await SluiceProcess.launch(["send", "-T", upload, target])
            #expect(try Self.seen(sent.output) == Self.seen(reference.output), "\(target)")
            #expect(sent.output.contains("/anything/up.txt") == reference.output.contains("/anything/up.txt"))
        }
        let unknown = try await SluiceProcess.launch(["send", "-w", "%{ssl_verify_result}", echo])
        #expect(unknown.status == 2 && unknown.error.contains("%{ssl_verify_result}"), "\(unknown.error)")
    }

    @Test("-I sends HEAD and prints the head, no body; -s hides an error's message but not its status, -sS shows it")
    func headAndSilence() async throws {
        let servers = try TestServers.load()
        let head = try await SluiceProcess.launch(["send", "-I", servers.nginxTLS("hello.txt").absoluteString, "--cacert", servers.caBundle])
        let curlHead = try await CurlCLI.run(["-I", servers.nginxTLS("hello.txt").absoluteString, "--cacert", servers.caBundle])
        #expect(head.status == 0 && curlHead.status == 0)
        #expect(head.output.hasPrefix("HTTP/2 200") && curlHead.output.hasPrefix("HTTP/2 200"), "\(head.output)")
        #expect(head.output.contains("content-length: 17") || head.output.contains("Content-Length: 17"), "\(head.output)")
        #expect(!head.output.contains("hello from nginx"))

        let refused = "http://127.0.0.1:1/"
        let silent = try await SluiceProcess.launch(["send", "-s", refused])
        #expect(silent.status == 1 && silent.error.isEmpty, "\(silent.error)")
        #expect(try await CurlCLI.run(["-s", refused]).status == 7)
        let shown = try await SluiceProcess.launch(["send", "-s", "-S", refused])
        #expect(shown.status == 1 && shown.error.hasPrefix("sluice: error: "), "\(shown.error)")
        let failed = try await SluiceProcess.launch(["send", "-s", "--fail", servers.httpbin("status/404").absoluteString])
        #expect(failed.status == 1 && failed.error.isEmpty && failed.output.isEmpty)
    }

    @Test("what cannot go together is refused with the flags' names, exit 2; a password never shows")
    func refused() async throws {
        let servers = try TestServers.load()
        let url = servers.httpbin("anything").absoluteString
        for (arguments, named) in [
            (["-u", "ada", url], "-u"), (["--basic", url], "--basic"), (["-u", "a:b", "--oauth2-bearer", "t", url], "--oauth2-bearer"),
            (["-I", "-d", "a=1", url], "-I"), (["-G", "--json", "{}", url], "-G"), (["--json", "{}", "-d", "a", url], "--json"),
            (["-S", url], "-S"), (["--digest", "--basic", "-u", "a:b", url], "--digest"), (["--data-urlencode", "@/nonexistent/file", url], "--data-urlencode"),
        ] {
            let result = try await SluiceProcess.launch(["send"] + arguments)
            #expect(result.status == 2 && result.error.contains(named), "\(arguments): \(result.error)")
        }
        let verbose = try await SluiceProcess.launch(["send", "-i", "--metrics", "-u", "ada:hunter2-secret", servers.httpbin("status/401").absoluteString])
        #expect(!verbose.output.contains("hunter2") && !verbose.error.contains("hunter2") && !verbose.error.contains("aHVudGVy"))
    }
}
