import Foundation
import Testing

/// What `sluice send` writes, beside curl 7.88 on the same httpbin: every head with `-i -L`, the
/// status line's reason phrase, `-D`, `-O`, `-r`, several URLs in turn, and the refusal of a
/// binary body on a terminal.
@Suite("sluice send writes what curl writes: heads, -D, -O, -r, several URLs, binary bodies")
struct SendCurlOutputTests {
    /// Text without the lines that differ by time, or by the length of httpbin's echo of the two
    /// decided differences (`User-Agent`, `Accept-Encoding`).
    static func comparable(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.lowercased().hasPrefix("date:") && !$0.lowercased().hasPrefix("content-length:") }.joined(separator: "\n")
    }

    @Test("-i -L prints every response's head with its reason phrase; -D writes the same heads to a file")
    func headsOfEveryHop() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let url = servers.httpbin("redirect/2").absoluteString
        let sent = try await SluiceProcess.launch(["send", "-s", "-i", "-L", "-o", "/dev/null", "-D", directory.file("sluice.head").path, url])
        let reference = try await CurlCLI.run(["-i", "-L", "-o", "/dev/null", "-D", directory.file("curl.head").path, url])
        #expect(sent.status == 0 && reference.status == 0)
        let mine = try String(contentsOf: directory.file("sluice.head"), encoding: .utf8)
        let theirs = try String(contentsOf: directory.file("curl.head"), encoding: .utf8)
        #expect(Self.comparable(mine) == Self.comparable(theirs), "\(mine)\n---\n\(theirs)")
        #expect(mine.contains("HTTP/1.1 302 FOUND") && mine.contains("HTTP/1.1 200 OK"))
        let included = try await SluiceProcess.launch(["send", "-s", "-i", "-L", servers.httpbin("redirect/1").absoluteString])
        let curlIncluded = try await CurlCLI.run(["-i", "-L", servers.httpbin("redirect/1").absoluteString])
        let heads = { (text: String) in Self.comparable(text).components(separatedBy: "\n\n").dropLast() }
        #expect(Array(heads(included.output)) == Array(heads(curlIncluded.output)), "\(included.output)")
    }

    @Test("-O names the file after the URL; a URL ending in '/' names none (curl's 23); -r asks for a range")
    func remoteNameAndRange() async throws {
        let servers = try TestServers.load()
        for tool in ["curl", "sluice"] {
            let directory = try TemporaryDirectory()
            let arguments = ["-s", "-O", servers.httpbin("bytes/16?seed=3").absoluteString]
            let result = tool == "curl"
                ? try await SluiceProcess.launch(arguments, executable: URL(fileURLWithPath: "/usr/bin/curl"), directory: directory.url.path)
                : try await SluiceProcess.launch(["send"] + arguments, directory: directory.url.path)
            #expect(result.status == 0, "\(tool): \(result.error)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["16"], "\(tool)")
            #expect(try Data(contentsOf: directory.file("16")).count == 16)
        }
        let folder = servers.httpbin("anything/").absoluteString
        let noName = try await SluiceProcess.launch(["send", "-s", "-O", folder])
        let curlNoName = try await CurlCLI.run(["-O", folder])
        #expect(noName.status == 23 && curlNoName.status == 23)
        let range = try await SluiceProcess.launch(["send", "-r", "10-19", servers.httpbin("range/100").absoluteString])
        let curlRange = try await CurlCLI.run(["-r", "10-19", servers.httpbin("range/100").absoluteString])
        #expect(range.output == curlRange.output && range.output.count == 10, "\(range.output)")
        let badRange = try await SluiceProcess.launch(["send", "-r", "ten", servers.httpbin("range/100").absoluteString])
        #expect(badRange.status == 2 && badRange.error.contains("-r"))
    }

    @Test("--create-dirs makes the folders of -o's and -O's path as curl's does, with its mode; without it, or through a file, 23 as curl")
    func createDirectories() async throws {
        let servers = try TestServers.load()
        let hello = servers.nginx("hello.txt").absoluteString
        var modes: [String: [Int]] = [:]
        for tool in ["curl", "sluice"] {
            let directory = try TemporaryDirectory()
            let launch = { (arguments: [String]) in
                tool == "curl"
                    ? try await SluiceProcess.launch(["-s"] + arguments, executable: URL(fileURLWithPath: "/usr/bin/curl"), directory: directory.url.path)
                    : try await SluiceProcess.launch(["send", "-s"] + arguments, directory: directory.url.path)
            }
            #expect(try await launch(["-o", "a/b/hello.txt", hello]).status == 23, "\(tool): no such folder")
            #expect(try await launch(["--create-dirs", "-o", "a/b/hello.txt", hello]).status == 0, "\(tool)")
            #expect(try String(contentsOf: directory.file("a/b/hello.txt"), encoding: .utf8) == "hello from nginx\n", "\(tool)")
            modes[tool] = try ["a", "a/b"].map { try (FileManager.default.attributesOfItem(atPath: directory.file($0).path)[.posixPermissions] as? Int) ?? -1 }
            try Data().write(to: directory.file("plain"))
            #expect(try await launch(["--create-dirs", "-o", "plain/hello.txt", hello]).status == 23, "\(tool): a file in the way")
        }
        #expect(modes["sluice"] == modes["curl"], "\(modes)")
    }

    @Test("several URLs are sent in turn, each -o with its URL, -w for each; the exit status is the last one's, as curl's")
    func severalURLs() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let arguments = ["-w", "%{http_code} %{url_effective}\n", "-o", "/dev/null", servers.httpbin("get?n=1").absoluteString,
                         "--url", servers.httpbin("status/404").absoluteString, "-o", "/dev/null"]
        let sent = try await SluiceProcess.launch(["send", "-s"] + arguments)
        let reference = try await CurlCLI.run(arguments)
        #expect(sent.status == reference.status && sent.output == reference.output, "\(sent.output) vs \(reference.output)")
        let failing = ["-f", "-o", directory.file("a").path, servers.httpbin("status/500").absoluteString, servers.httpbin("get").absoluteString]
        let failed = try await SluiceProcess.launch(["send", "-s"] + failing)
        let curlFailed = try await CurlCLI.run(failing)
        #expect(failed.status == curlFailed.status, "\(failed.status) vs \(curlFailed.status)")
        let tooMany = try await SluiceProcess.launch(["send", "-o", "a", "-o", "b", servers.httpbin("get").absoluteString])
        #expect(tooMany.status == 2 && tooMany.error.contains("-o"))
    }

    @Test("a binary body is not written to a terminal (curl's 23) unless -o - asks for it; text is")
    func binaryOnTerminal() async throws {
        let servers = try TestServers.load()
        // script(1) gives the command a terminal of its own; -e returns the command's status.
        func onTerminal(_ command: String) async throws -> Int32 {
            try await SluiceProcess.launch(["-q", "-e", "-c", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script")).status
        }
        let png = servers.httpbin("image/png").absoluteString
        let sluice = SluiceProcess.executable.path
        let refused = try await onTerminal("\(sluice) send -s \(png)")
        let curlRefused = try await onTerminal("curl -s \(png)")
        #expect(refused == 23 && curlRefused == 23)
        let asked = try await onTerminal("\(sluice) send -s -o - \(png) | head -c 1 >/dev/null")
        #expect(asked == 0)
        let text = try await onTerminal("\(sluice) send -s \(servers.httpbin("get").absoluteString)")
        #expect(text == 0)
    }

    @Test("-w: curl 7.88's variables for an HTTP exchange give what curl gives, redirects, bodies and failures included")
    func writeOutVariables() async throws {
        let servers = try TestServers.load()
        // Not compared: size_request and speed_* (Sluice's request carries two more fields, the
        // decided differences), local_port (each tool's own), and num_connects over redirects:
        // Sluice sends each hop as a transfer of its own, and a hop can start before the last
        // one's connection is back in the pool, so the count is 1 or 2 (curl's is 1).
        let format = "%{size_header}|%{num_headers}|%{http_version}|%{scheme}|%{method}|%{url}|%{redirect_url}|%{exitcode}|%{errormsg}|%{num_connects}|%header{content-type}|%{remote_ip}|%{remote_port}|%{size_upload}|%{http_code}|%{num_redirects}"
        for arguments in [
            [servers.httpbin("redirect-to?url=/get").absoluteString], ["-L", servers.httpbin("redirect/2").absoluteString],
            ["-d", "a=1", servers.httpbin("post").absoluteString], ["http://127.0.0.1:1/"],
        ] {
            let format = arguments.contains("-L") ? format.replacingOccurrences(of: "|%{num_connects}", with: "") : format
            let sent = try await SluiceProcess.launch(["send", "-s", "-o", "/dev/null", "-w", format] + arguments)
            let reference = try await CurlCLI.run(["-o", "/dev/null", "-w", format] + arguments)
            #expect(sent.output == reference.output && sent.status == reference.status, "\(arguments): \(sent.output) vs \(reference.output)")
        }
        let json = try await SluiceProcess.launch(["send", "-s", "-o", "/dev/null", "-w", "%{header_json}", servers.httpbin("get").absoluteString])
        let curlJSON = try await CurlCLI.run(["-o", "/dev/null", "-w", "%{header_json}", servers.httpbin("get").absoluteString])
        let mine = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: [String]])
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(curlJSON.output.utf8)) as? [String: [String]])
        #expect(Set(mine.keys) == Set(theirs.keys) && mine["content-type"] == theirs["content-type"], "\(mine)")
    }

    @Test("-w: the rest of curl-format.txt's variables and curl's other ones, %{onerror}, and an unclosed %{ as curl writes them")
    func writeOutMoreVariables() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let format = "%{urlnum}|%{filename_effective}|%{referer}|%{ssl_verify_result}|%{http_connect}|%{local_ip}|%{http_code}\\n"
        let get = servers.httpbin("get").absoluteString
        let hello = servers.nginxHTTPS.appendingPathComponent("hello.txt").absoluteString
        for arguments in [
            ["-e", "http://referer.test/", "-o", directory.file("a").path, get, "-o", directory.file("b").path, get],
            ["-k", "-o", "/dev/null", servers.nginxHTTPSSelfSigned.appendingPathComponent("hello.txt").absoluteString],
            ["--cacert", servers.caBundle, "-o", "/dev/null", hello],
            ["--cacert", servers.caBundle, "-x", servers.proxy.absoluteString, "-o", "/dev/null", hello],
            ["-o", "/dev/null", "-L", "-w", "%{time_redirect}", "http://127.0.0.1:1/"],
        ] {
            let sent = try await SluiceProcess.launch(["send", "-s", "-w", format] + arguments)
            let reference = try await CurlCLI.run(["-w", format] + arguments)
            #expect(sent.status == reference.status && sent.output == reference.output, "\(arguments): \(sent.output) vs \(reference.output)")
        }
        // %{onerror}: the rest only for a request that failed; a '%{' never closed is text.
        for (format, url) in [("ok%{onerror} failed %{exitcode}", get), ("ok%{onerror} failed %{exitcode}", "http://127.0.0.1:1/"), ("%{http_code", get)] {
            let sent = try await SluiceProcess.launch(["send", "-s", "-o", "/dev/null", "-w", format, url])
            let reference = try await CurlCLI.run(["-o", "/dev/null", "-w", format, url])
            #expect(sent.status == reference.status && sent.output == reference.output, "\(format) \(url): \(sent.output) vs \(reference.output)")
        }
        // Timed over the redirects, as curl 7.88 times them: the hops before the last are
        // time_redirect, inside time_starttransfer and time_total; no redirect, no time_redirect.
        let timings = "%{time_redirect} %{time_starttransfer} %{time_total}"
        let redirected = try await SluiceProcess.launch(["send", "-s", "-L", "-o", "/dev/null", "-w", timings, servers.httpbin("redirect/2").absoluteString])
        let figures = redirected.output.split(separator: " ").compactMap { Double($0) }
        #expect(figures.count == 3 && figures[0] > 0 && figures[0] < figures[1] && figures[1] <= figures[2], "\(redirected.output)")
        let direct = try await SluiceProcess.launch(["send", "-s", "-o", "/dev/null", "-w", "%{time_redirect}", get])
        #expect(direct.output == "0.000000")
    }

    @Test("%{size_download} counts a compressed body as it came on the wire, as curl --compressed does; --raw as plain curl")
    func sizeDownloadCountsWireBytes() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        // nginx gzips data.json (10,392 bytes) for a client that accepts it, whatever else it sent.
        let url = servers.nginxHTTP.appendingPathComponent("data.json").absoluteString
        let format = "%{size_download} %{http_code}"
        let compressed = try await CurlCLI.run(["--compressed", "-o", "/dev/null", "-w", format, url])
        let plain = try await CurlCLI.run(["-o", "/dev/null", "-w", format, url])
        #expect(compressed.output != plain.output, "nginx did not compress: \(compressed.output)")
        let written = directory.file("data.json").path
        for (arguments, reference) in [([url], compressed), (["--compressed", url], compressed), (["--raw", url], plain)] {
            let sent = try await SluiceProcess.launch(["send", "-s", "-o", written, "-w", format] + arguments)
            #expect(sent.status == 0 && sent.output == reference.output, "\(arguments): \(sent.output) vs \(reference.output)")
        }
        // The file holds the body decoded all the same (sluice send decodes unless --raw).
        let decoded = try await SluiceProcess.launch(["send", "-s", "-o", written, url])
        #expect(decoded.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: written)) == Data(contentsOf: URL(fileURLWithPath: servers.wwwRoot).appendingPathComponent("data.json")))
    }

    @Test("a body cut off (a short body, a truncated chunk, a timeout mid-body): -w writes the response's status and the bytes that came, as curl does; -m 0 is no limit")
    func writeOutAfterBodyFailure() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let format = "%{http_code} %{size_download} %{exitcode}"
        for path in ["short-body", "truncated-chunked"] {
            let url = servers.fault.appendingPathComponent(path).absoluteString
            for output in [["-o", "/dev/null"], ["-o", directory.file(path).path]] {
                let arguments = ["-s", "-w", format] + output + [url]
                let sent = try await SluiceProcess.launch(["send"] + arguments)
                let reference = try await CurlCLI.run(arguments)
                #expect(sent.status == 18 && reference.status == 18, "\(arguments)")
                #expect(sent.output == reference.output, "\(arguments): \(sent.output) vs \(reference.output)")
            }
        }
        // -m 0 is no limit, as curl reads it (and --connect-timeout 0 the default).
        let ok = servers.fault.appendingPathComponent("ok").absoluteString
        for arguments in [["-s", "-m", "0", "-o", "/dev/null", "-w", format, ok], ["-s", "--connect-timeout", "0", "-o", "/dev/null", "-w", format, ok]] {
            let sent = try await SluiceProcess.launch(["send"] + arguments)
            let reference = try await CurlCLI.run(arguments)
            #expect(sent.status == 0 && sent.output == reference.output, "\(arguments): \(sent.output) vs \(reference.output)")
        }
        // A byte every 0.2 s, cut off by -m 1 after a handful: how many is the clock's, so the
        // status and the exit code are compared, and the count with the bytes written out.
        let drip = servers.fault.appendingPathComponent("drip").absoluteString + "?interval=0.2"
        let timedOut = try await SluiceProcess.launch(["send", "-s", "-m", "1", "-w", "\n" + format + " %{time_total}", drip])
        let lines = timedOut.output.split(separator: "\n", omittingEmptySubsequences: false)
        let fields = lines.last.map { $0.split(separator: " ").map(String.init) } ?? []
        let taken = lines.count == 2 ? lines[0].count : -1
        #expect(timedOut.status == 28 && fields.count == 4 && fields[0] == "200" && fields[2] == "28", "\(timedOut.output)")
        #expect(fields.count == 4 && Int(fields[1]) == taken && taken > 0 && (Double(fields[3]) ?? 0) >= 1, "\(timedOut.output)")
    }

    @Test("-f writes no body and leaves an -o file alone, but still writes the head to -D and -i (or -I) and -w's line, as curl does")
    func failKeepsHeadAndWriteOut() async throws {
        let servers = try TestServers.load()
        let missing = servers.httpbin("status/404").absoluteString
        let format = "%{http_code}|%{exitcode}|%{errormsg}|%{url_effective}|%{num_redirects}\n"
        for arguments in [
            ["-f", "-w", format, "-o", "/dev/null", missing], ["-f", "-w", format, missing], ["-f", "-i", missing], ["-f", "-I", missing],
            ["-f", "-i", "-w", format, "-L", servers.httpbin("redirect-to?url=/status/500").absoluteString],
            ["--fail-with-body", "-w", format, missing],
        ] {
            let sent = try await SluiceProcess.launch(["send", "-s"] + arguments)
            let reference = try await CurlCLI.run(arguments)
            #expect(sent.status == 22 && reference.status == 22, "\(arguments)")
            #expect(Self.comparable(sent.output) == Self.comparable(reference.output), "\(arguments): \(sent.output) vs \(reference.output)")
        }
        let directory = try TemporaryDirectory()
        var heads: [String] = []
        for tool in ["sluice", "curl"] {
            let body = directory.file("\(tool).body")
            try Data("kept".utf8).write(to: body)
            let arguments = ["-f", "-D", directory.file("\(tool).head").path, "-o", body.path, missing]
            let status = tool == "curl" ? try await CurlCLI.run(arguments).status : try await SluiceProcess.launch(["send", "-s"] + arguments).status
            #expect(status == 22, "\(tool)")
            #expect(try String(contentsOf: body, encoding: .utf8) == "kept", "\(tool)")
            heads.append(Self.comparable(try String(contentsOf: directory.file("\(tool).head"), encoding: .utf8)))
        }
        #expect(heads[0] == heads[1] && heads[0].hasPrefix("HTTP/1.1 404 NOT FOUND"), "\(heads)")
    }

    @Test("a request stopped by --max-redirs is written by -w for its last response, as curl writes it: status, URL, the redirect not followed")
    func writeOutAfterTooManyRedirects() async throws {
        let servers = try TestServers.load()
        let format = "%{http_code}|%{url_effective}|%{num_redirects}|%{redirect_url}|%{exitcode}\n"
        for url in [servers.httpbin("redirect/3"), servers.httpbin("relative-redirect/3"), servers.httpbin("absolute-redirect/3")] {
            let arguments = ["-L", "--max-redirs", "1", "-o", "/dev/null", "-w", format, url.absoluteString]
            let sent = try await SluiceProcess.launch(["send", "-s"] + arguments)
            let reference = try await CurlCLI.run(arguments)
            #expect(sent.status == 47 && reference.status == 47, "\(url)")
            #expect(sent.output == reference.output, "\(url): \(sent.output) vs \(reference.output)")
        }
        // curl 7.88 writes no header after a failed transfer; Sluice writes the last response's.
        let location = try await SluiceProcess.launch(["send", "-s", "-L", "--max-redirs", "1", "-o", "/dev/null", "-w", "%header{location}", servers.httpbin("redirect/3").absoluteString])
        #expect(location.output == "/relative-redirect/1", "\(location.output)")
    }

    @Test("a hop after a redirect that gets no answer is written by -w as curl writes it: the last status received, the URL that failed, the redirects followed")
    func writeOutAfterAFailedHop() async throws {
        let servers = try TestServers.load()
        let format = "%{http_code}|%{url_effective}|%{num_redirects}|%{exitcode}\n"
        let target = "http://127.0.0.1:9/refused".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let arguments = ["-L", "-o", "/dev/null", "-w", format, servers.httpbin("redirect-to?url=\(target)").absoluteString]
        let sent = try await SluiceProcess.launch(["send", "-s"] + arguments)
        let reference = try await CurlCLI.run(arguments)
        #expect(sent.status == 7 && reference.status == 7)
        #expect(sent.output == reference.output && sent.output.hasPrefix("302|http://127.0.0.1:9/refused|1|"), "\(sent.output) vs \(reference.output)")
    }

    @Test("'-' is standard input where curl takes a file: -T - streams it chunked, -d @- and --json @- read it, -H @- reads headers")
    func standardInput() async throws {
        let servers = try TestServers.load()
        let raw = servers.scenario.appendingPathComponent("raw/stdin").absoluteString
        let sluice = SluiceProcess.executable.path
        for (input, flags) in [("line one\nline two\n", "-T -"), ("a=1\r\nb=2\n", "-d @-"), ("{\"a\": 1}", "--json @-"), ("X-From-Stdin: yes\n", "-H @-")] {
            func received(_ command: String) async throws -> String? {
                let result = try await SluiceProcess.launch(["-c", "printf '\(input)' | \(command) \(flags) \(raw)"], executable: URL(fileURLWithPath: "/bin/bash"))
                return SendCurlCorpusTests.received(result.output)?.split(separator: "\n").filter { !$0.hasPrefix("expect:") }.joined(separator: "\n")
            }
            let mine = try await received("\(sluice) send -s")
            let theirs = try await received("curl -s")
            #expect(mine != nil && mine == theirs, "\(flags): \(mine ?? "nothing") vs \(theirs ?? "nothing")")
        }
    }

    @Test("-c - writes the cookie jar to standard output after the body and -b - reads one from standard input, as curl; no file named '-'")
    func cookieJarOnStandardStreams() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let sluice = SluiceProcess.executable.path
        // The jar's comment lines name the tool that wrote it, and each writes the cookies in an
        // order of its own: the lines of the body and the cookies are compared as a set.
        func withoutComments(_ output: String) -> Set<String> {
            Set(output.split(separator: "\n").filter { !$0.hasPrefix("# ") }.map(String.init))
        }
        let set = servers.httpbin("cookies/set?a=1&b=two").absoluteString
        let written = try await SluiceProcess.launch(["send", "-s", "-L", "-c", "-", set], directory: directory.url.path)
        let reference = try await CurlCLI.run(["-L", "-c", "-", set])
        #expect(written.status == 0 && withoutComments(written.output) == withoutComments(reference.output), "\(written.output) vs \(reference.output)")
        #expect(written.output.contains("\ta\t1\n") && !FileManager.default.fileExists(atPath: directory.file("-").path))

        let jar = "127.0.0.1\\tFALSE\\t/\\tFALSE\\t0\\tq\\t7\\n"
        let cookies = servers.httpbin("cookies").absoluteString
        let read = try await SluiceProcess.launch(["-c", "printf '\(jar)' | \(sluice) send -s -b - \(cookies)"], executable: URL(fileURLWithPath: "/bin/bash"), directory: directory.url.path)
        let curlRead = try await SluiceProcess.launch(["-c", "printf '\(jar)' | curl -s -b - \(cookies)"], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(read.status == 0 && read.output == curlRead.output && read.output.contains("\"q\": \"7\""), "\(read.output) vs \(curlRead.output)")

        // A jar that cannot be written leaves the status as curl's leaves it, 0, with a warning.
        let unwritable = try await SluiceProcess.launch(["send", "-o", "/dev/null", "-c", directory.url.path, set])
        let curlUnwritable = try await CurlCLI.run(["-o", "/dev/null", "-c", directory.url.path, set])
        #expect(unwritable.status == 0 && curlUnwritable.status == 0)
        #expect(unwritable.error.contains("sluice: warning: cannot write the cookie file") && !unwritable.error.contains("error:"), "\(unwritable.error)")
    }
}
