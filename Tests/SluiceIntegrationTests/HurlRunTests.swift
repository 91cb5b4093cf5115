import Foundation
import Testing
import SluiceCore

/// `sluice run FILE.hurl` and `sluice convert`, against Hurl's own test app: a Hurl file runs as
/// it is, its converted pipeline file runs the same, and what fails is reported at the `.hurl`
/// file's line and column.
@Suite("Hurl files run as they are, against Hurl's test app")
struct HurlRunTests {
    private static func connectTo() throws -> [String] {
        try TestServers.load().hurlConnectTo.flatMap { ["--connect-to", $0] }
    }

    @Test("a Hurl file and its converted pipeline file pass and fail alike, failures at the .hurl's lines")
    func runAndConvert() async throws {
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("""
            # Hurl's hello endpoint, checked the Hurl way
            GET http://localhost:8000/hello
            HTTP 200
            Content-Type: text/html; charset=utf-8
            [Captures]
            greeting: body regex "(Hello)"
            [Asserts]
            variable "greeting" == "Hello"
            body startsWith "Hello"
            header "Content-Length" toInt == 12
            body not contains "Bye"
            `Hello World!`

            GET http://localhost:8000/hello
            HTTP 200
            [Asserts]
            body == "Bye"
            status != 200
            """, to: "hello.hurl")
        let run = try await SluiceProcess.launch(["run", "--no-color"] + Self.connectTo() + [hurl])
        #expect(run.status == 1, "\(run.output)\(run.error)")
        #expect(run.output.contains("entry 1  GET http://localhost:8000/hello  200"), "\(run.output)")
        #expect(run.output.contains("hello.hurl:17:1: failed: body equals\n        expected: \"Bye\"\n        actual:   \"Hello World!\""), "\(run.output)")
        #expect(run.output.contains("hello.hurl:18:1: failed: status not equals"), "\(run.output)")
        #expect(run.output.contains("2 requests: 1 passed, 1 failed"), "\(run.output)")

        let convert = try await SluiceProcess.launch(["convert", hurl])
        #expect(convert.status == 0, "\(convert.error)")
        let yaml = try directory.write(convert.output, to: "hello.yaml")
        let converted = try await SluiceProcess.launch(["run", "--no-color"] + Self.connectTo() + [yaml])
        #expect(converted.status == 1)
        #expect(converted.output.contains("2 requests: 1 passed, 1 failed"), "\(converted.output)")
        #expect(converted.output.contains("failed: body equals\n        expected: \"Bye\""), "\(converted.output)")
    }

    @Test("a Hurl file stops at its first failing entry, as Hurl does, the rest reported as not run; --continue-on-error runs on; a pipeline says fail-fast: true for the same, which its always: requests and load mode respect")
    func stopsAtFirstFailure() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let recorder = servers.scenario.appendingPathComponent("raw").absoluteString
        let marker = "after-\(UUID().uuidString)"
        let hurl = try directory.write("""
            GET \(recorder)/first
            HTTP 200
            [Asserts]
            body contains "never there"

            POST \(recorder)/\(marker)
            HTTP 200
            """, to: "stops.hurl")
        let stopped = try await SluiceProcess.launch(["run", "--no-color", "--format", "json", hurl])
        #expect(stopped.status == 1, "\(stopped.output)\(stopped.error)")
        let report = try JSONReader().value(from: stopped.output)
        #expect(report["results"]?[1]?["skipped"]?.stringValue?.hasPrefix("the file stops after 'entry 1' failed") == true, "\(stopped.output)")
        let onward = try await SluiceProcess.launch(["run", "--no-color", "--continue-on-error", hurl])
        #expect(onward.status == 1 && onward.output.contains("✔ entry 2  POST"), "\(onward.output)")
        let converted = try await SluiceProcess.launch(["convert", hurl])
        #expect(converted.output.contains("\nfail-fast: true\n"), "\(converted.output)")
        // A load run counts every failure: a Hurl file runs whole there.
        let load = try await SluiceProcess.launch(["run", "--repeat", "2", "--no-color", hurl])
        #expect(load.status == 1 && !load.error.contains("fail-fast"), "\(load.output)\(load.error)")

        let yaml = try directory.write("""
            fail-fast: true
            requests:
              - name: first
                path: \(recorder)/first
                expect: { status: 500 }
              - name: second
                path: \(recorder)/second
              - name: teardown
                path: \(recorder)/teardown
                always: true
            """, to: "stops.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", yaml])
        #expect(run.status == 1 && run.output.contains("second") && run.output.contains("the file stops after 'first' failed") && run.output.contains("✔ teardown"), "\(run.output)")
        let refused = try await SluiceProcess.launch(["run", "--repeat", "2", yaml])
        #expect(refused.status == 2 && refused.error.contains("fail-fast: true stops the file at its first failing request; load mode"), "\(refused.error)")
    }

    @Test("a capture that finds nothing and a response header that does not match are reported at their own lines, not the HTTP line")
    func capturesAndHeadersAtTheirLines() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("""
            GET \(servers.httpbin("get").absoluteString)
            HTTP 200
            Content-Type: text/plain
            [Captures]
            found: jsonpath "$.url"
            missing: jsonpath "$.nope"
            """, to: "lines.hurl")
        let run = try await SluiceProcess.launch(["run", "--no-color", hurl])
        #expect(run.output.contains("lines.hurl:3:1: failed: headers.Content-Type"), "\(run.output)")
        #expect(run.output.contains("lines.hurl:6:1: failed: capture missing"), "\(run.output)")
        #expect(!run.output.contains("lines.hurl:2:1: failed"), "\(run.output)")
    }

    @Test("a syntax error and a construct with no pipeline spelling are errors at FILE:LINE:COLUMN, exit 2")
    func errors() async throws {
        let directory = try TemporaryDirectory()
        let syntax = try directory.write("GET http://localhost:8000/hello\nHTTP 200\n[Asserts]\nstatus equals 200\n", to: "syntax.hurl")
        let unsupported = try directory.write("GET http://localhost:8000/hello\n[Options]\nnetrc: true\n", to: "unsupported.hurl")
        let run = try await SluiceProcess.launch(["validate", syntax, unsupported])
        #expect(run.status == 2)
        #expect(run.error.contains("syntax.hurl:4:8: error: expected a predicate"), "\(run.error)")
        #expect(run.error.contains("unsupported.hurl:3:1: error: the option netrc has no pipeline spelling yet"), "\(run.error)")
        let convert = try await SluiceProcess.launch(["convert", unsupported])
        #expect(convert.status == 2 && convert.output.isEmpty)
        let valid = try directory.write("GET http://localhost:8000/hello\nHTTP 200\n", to: "valid.hurl")
        let checked = try await SluiceProcess.launch(["validate", valid])
        #expect(checked.output.hasSuffix("valid.hurl: ok (1 stage listed, 4 in the chain, 1 request)\n"), "\(checked.output)")
        // A capture that finds nothing: the entry that needs it is skipped, in the file's words.
        let servers = try TestServers.load()
        let chained = try directory.write(
            "GET \(servers.httpbin("get"))\nHTTP 200\n[Captures]\nid: jsonpath \"$.nothing\"\n\nGET \(servers.httpbin("anything"))/{{id}}\nHTTP 200\n", to: "chained.hurl"
        )
        let chain = try await SluiceProcess.launch(["run", "--no-color", "--continue-on-error", chained])
        #expect(chain.status == 1 && chain.output.contains("○ entry 2  skipped: {{id}} has no value: request 'entry 1' did not capture it"), "\(chain.output)")
        // Without --continue-on-error the file stops at the failed capture, as Hurl's does.
        let stopped = try await SluiceProcess.launch(["run", "--no-color", chained])
        #expect(stopped.status == 1 && stopped.output.contains("○ entry 2  skipped: the file stops after 'entry 1' failed"), "\(stopped.output)")
    }

    @Test("a GraphQL body is sent as Hurl sends it, run as .hurl and converted: valid JSON whatever its variables hold")
    func graphql() async throws {
        let directory = try TemporaryDirectory()
        let hurl = try directory.write(#"""
            POST {{httpbin}}/anything
            ```graphql
            {
              hero(name: "{{name}}") {
                name
              }
            }
            ```
            HTTP 200
            [Asserts]
            jsonpath "$.headers['Content-Type']" == "application/json"
            jsonpath "$.json.query" == "{\n  hero(name: \"say \"hi\"\nbye\") {\n    name\n  }\n}"
            jsonpath "$.json.variables" not exists

            POST {{httpbin}}/anything
            Content-Type: application/vnd.api+json
            ```graphql
            query Hero($id: ID!) {
              hero(id: $id) { name }
            }

            variables {
              "id": "{{name}}",
              "n": {{n}}
            }
            ```
            HTTP 200
            [Asserts]
            jsonpath "$.headers['Content-Type']" == "application/vnd.api+json"
            jsonpath "$.json.variables.id" == "say \"hi\"\nbye"
            jsonpath "$.json.variables.n" == 3
            jsonpath "$.data" == "{\"query\":\"query Hero($id: ID!) {\\n  hero(id: $id) { name }\\n}\",\"variables\":{\"id\":\"say \\\"hi\\\"\\nbye\",\"n\":3}}"
            """#, to: "graphql.hurl")
        let variables = ["--var", "httpbin=\(try TestServers.load().httpbin.absoluteString)", "--var", "name=say \"hi\"\nbye", "--var", "n=3"]
        let run = try await SluiceProcess.launch(["run", "--no-color"] + variables + [hurl])
        #expect(run.status == 0, "\(run.output)\(run.error)")

        let convert = try await SluiceProcess.launch(["convert", hurl])
        #expect(convert.status == 0, "\(convert.error)")
        let yaml = try directory.write(convert.output, to: "graphql.yaml")
        let converted = try await SluiceProcess.launch(["run", "--no-color"] + variables + [yaml])
        #expect(converted.status == 0, "\(converted.output)\(converted.error)")
    }

    @Test("no-header removes the transport's own Accept and User-Agent; a header written twice is sent twice")
    func removedAndRepeatedHeaders() async throws {
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("""
            GET http://localhost:8000/no-header
            [Options]
            no-header: User-Agent
            no-header: Accept
            HTTP 200

            GET http://localhost:8000/no-header
            HTTP 500
            """, to: "headers.hurl")
        let run = try await SluiceProcess.launch(["run", "--no-color"] + Self.connectTo() + [hurl])
        #expect(run.status == 0, "\(run.output)\(run.error)")
    }

    @Test("Hurl's defaults: a redirect is not followed unless the entry says location: true")
    func redirects() async throws {
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("""
            GET http://localhost:8000/redirect-absolute
            HTTP 302
            Location: http://localhost:8000/redirected

            GET http://localhost:8000/redirect-absolute
            [Options]
            location: true
            HTTP 200
            [Asserts]
            url == "http://localhost:8000/redirected"
            redirects count == 1
            redirects nth 0 location == "http://localhost:8000/redirected"
            """, to: "redirects.hurl")
        let run = try await SluiceProcess.launch(["run", "--no-color"] + Self.connectTo() + [hurl])
        #expect(run.status == 0, "\(run.output)\(run.error)")
    }

    @Test("Hurl's -L, --delay and --retry set every entry, an entry's own options win; beside a pipeline file they are refused")
    func commandLineOptions() async throws {
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("""
            GET http://localhost:8000/redirect-absolute
            HTTP 200
            [Asserts]
            url == "http://localhost:8000/redirected"

            GET http://localhost:8000/redirect-absolute
            [Options]
            location: false
            HTTP 302
            """, to: "location.hurl")
        let without = try await SluiceProcess.launch(["run", "--no-color"] + Self.connectTo() + [hurl])
        #expect(without.status == 1, "without -L the first entry gets the 302: \(without.output)")
        let run = try await SluiceProcess.launch(["run", "--no-color", "-L", "--delay", "5", "--retry", "2"] + Self.connectTo() + [hurl])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let convert = try await SluiceProcess.launch(["convert", "--location", "--delay", "5", "--retry", "2", "--retry-interval", "1s", hurl])
        #expect(convert.output.contains("stages:\n  - redirects:\n      follow: true\n"), "\(convert.output)")
        #expect(convert.output.contains("    delay: 5ms\n") && convert.output.contains("    retry:\n      attempts: 3\n      interval: 1s\n"), "\(convert.output)")
        let yaml = try directory.write(convert.output, to: "location.yaml")
        let refused = try await SluiceProcess.launch(["run", "-L", yaml])
        #expect(refused.status == 2 && refused.error.contains("location.yaml: --location is Hurl's, for .hurl files"), "\(refused.error)")
    }

    @Test("--output - gives standard output to the body alone, as Hurl's does: the results go to standard error; beside --format json it is refused")
    func bodyToStandardOutput() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("GET \(servers.httpbin("get?from=hurl").absoluteString)\nHTTP 200\n", to: "body.hurl")
        let run = try await SluiceProcess.launch(["run", "--no-color", "--output", "-", hurl])
        #expect(run.status == 0, "\(run.error)")
        let body = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect((body?["args"] as? [String: String]) == ["from": "hurl"], "standard output is the body alone: \(run.output)")
        #expect(run.error.contains("✔ entry 1") && run.error.contains("1 request: 1 passed"), "\(run.error)")
        let json = try await SluiceProcess.launch(["run", "--output", "-", "--format", "json", hurl])
        #expect(json.status == 2 && json.error.contains("--format json and the output: /dev/stdout of request 'entry 1' both write standard output"), "\(json.error)")
        // To a file, the results stay on standard output.
        let toFile = try await SluiceProcess.launch(["run", "--no-color", "--output", directory.file("body.json").path, hurl])
        #expect(toFile.output.contains("✔ entry 1"), "\(toFile.output)")
        // A pipeline's output: "-" is standard output too, and ./- a file of that name.
        for (output, toStandardOutput) in [("\"-\"", true), ("./-", false)] {
            let yaml = try directory.write("requests:\n  - path: \(servers.httpbin("get?from=yaml").absoluteString)\n    output: \(output)\n", to: "dash.yaml")
            let dash = try await SluiceProcess.launch(["run", "--no-color", yaml], directory: directory.url.path)
            #expect(dash.status == 0 && dash.output.contains(#""from": "yaml""#) == toStandardOutput, "\(output): \(dash.output)")
            #expect(FileManager.default.fileExists(atPath: directory.file("-").path) != toStandardOutput, "\(output)")
        }
    }

    @Test("Hurl's TLS options (insecure, cacert, cert and key, pinnedpubkey) and -k, --cacert, -E, --key, -m: each entry as curl with the same flags, run and converted alike")
    func tlsOptions() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let certificates = servers.certificates
        let entries: [(options: String, url: URL, curl: [String])] = [
            ("insecure: true", servers.nginxHTTPSSelfSigned.appendingPathComponent("hello.txt"), ["-k"]),
            ("cacert: \(servers.caBundle)", servers.nginxTLS("hello.txt"), ["--cacert", servers.caBundle]),
            ("cacert: \(servers.caBundle)\ncert: \(certificates)/client.pem\nkey: \(certificates)/client.key", servers.nginxHTTPSClientAuth.appendingPathComponent("who"),
                ["--cacert", servers.caBundle, "--cert", "\(certificates)/client.pem", "--key", "\(certificates)/client.key"]),
            ("cacert: \(servers.caBundle)\npinnedpubkey: \(servers.pins.selfSigned)", servers.nginxTLS("hello.txt"), ["--cacert", servers.caBundle, "--pinnedpubkey", servers.pins.selfSigned]),
            ("cacert: \(servers.caBundle)\npinnedpubkey: \(servers.pins.selfSigned);\(servers.pins.localhost)", servers.nginxTLS("hello.txt"), ["--cacert", servers.caBundle, "--pinnedpubkey", "\(servers.pins.selfSigned);\(servers.pins.localhost)"]),
        ]
        for (index, entry) in entries.enumerated() {
            let hurl = try directory.write("GET \(entry.url.absoluteString)\n[Options]\n\(entry.options)\nHTTP 200\n", to: "tls-\(index).hurl")
            let curl = try await CurlCLI.run(entry.curl + ["-o", "/dev/null", entry.url.absoluteString])
            let run = try await SluiceProcess.launch(["run", "--no-color", hurl])
            #expect((run.status == 0) == (curl.status == 0), "\(entry.options): sluice \(run.status), curl \(curl.status): \(run.output)")
            let converted = try await SluiceProcess.launch(["convert", hurl])
            let yaml = try directory.write(converted.output, to: "tls-\(index).yaml")
            #expect(try await SluiceProcess.launch(["run", yaml]).status == run.status, "\(entry.options): converted")
        }
        // The command line's flags set every entry; an entry's insecure: false still checks.
        let plain = try directory.write("""
            GET \(servers.nginxHTTPSSelfSigned.appendingPathComponent("hello.txt").absoluteString)
            HTTP 200

            GET \(servers.nginxHTTPSClientAuth.appendingPathComponent("who").absoluteString)
            HTTP 200
            """, to: "plain.hurl")
        #expect(try await SluiceProcess.launch(["run", plain]).status == 1)
        let flags = try await SluiceProcess.launch(["run", "--no-color", "-k", "-E", "\(certificates)/client.pem", "--key", "\(certificates)/client.key", plain])
        #expect(flags.status == 0, "\(flags.output)\(flags.error)")
        // -k warns once for the file, naming the other entry it applies to.
        let warning = flags.error.split(separator: "\n").filter { $0.contains("allow-invalid-certificates is on") }
        #expect(warning.count == 1 && warning.first?.hasSuffix("(also at \(plain):4:1)") == true, "\(flags.error)")
        let checked = try directory.write("GET \(servers.nginxHTTPSSelfSigned.appendingPathComponent("hello.txt").absoluteString)\n[Options]\ninsecure: false\nHTTP 200\n", to: "checked.hurl")
        #expect(try await SluiceProcess.launch(["run", "-k", checked]).status == 1)
        // -m: a bare number is seconds, as Hurl's and curl's; the entry times out.
        let slow = try directory.write("GET \(servers.httpbin("delay/3").absoluteString)\nHTTP 200\n", to: "slow.hurl")
        let timedOut = try await SluiceProcess.launch(["run", "--no-color", "-m", "1", slow])
        #expect(timedOut.status == 1 && timedOut.output.contains("timeout"), "\(timedOut.output)")
        let refused = try await SluiceProcess.launch(["run", "-k", try directory.write("requests: []\n", to: "p.yaml")])
        #expect(refused.status == 2 && refused.error.contains("--insecure is Hurl's, for .hurl files"), "\(refused.error)")
    }

    @Test("Hurl's --no-header, --no-cookie-store, --ignore-asserts, --output, --from/--to-entry, --cookie/--cookie-jar and --file-root, run and converted alike")
    func moreCommandLineOptions() async throws {
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("""
            GET http://localhost:8000/no_cookie_store/set
            HTTP 200

            GET http://localhost:8000/no_cookie_store/check
            HTTP 200

            GET http://localhost:8000/no-header
            HTTP 200
            `Hello World!`

            GET http://localhost:8000/hello
            HTTP 404
            [Captures]
            greeting: body
            [Asserts]
            body == "Bye"
            """, to: "options.hurl")
        let options = ["--no-header", "User-Agent", "--no-header", "accept", "--no-cookie-store", "--ignore-asserts", "--from-entry", "2", "--output", "body.txt"]
        let plain = try await SluiceProcess.launch(["run", "--no-color"] + Self.connectTo() + [hurl])
        #expect(plain.status == 1, "without the options the server sees the headers and the cookie, and 404 fails: \(plain.output)")
        let run = try await SluiceProcess.launch(["run", "--no-color"] + options + Self.connectTo() + [hurl], directory: directory.url.path)
        #expect(run.status == 0, "\(run.output)\(run.error)")
        // -H is taken out by --no-header too, as Hurl takes it out: httpbin echoes what came.
        let echo = try directory.write("GET \(try TestServers.load().httpbin.absoluteString)/headers\nHTTP 200\n", to: "echo.hurl")
        let dropped = try await SluiceProcess.launch(["run", "--no-color", "-H", "X-Gone: 1", "-H", "X-Kept: 1", "--no-header", "x-gone", "--output", "-", echo])
        #expect(dropped.output.contains("X-Kept") && !dropped.output.contains("X-Gone"), "\(dropped.output)")
        #expect(run.output.contains("3 requests: 3 passed") && !run.output.contains("entry 1 "), "\(run.output)")
        #expect(FileNodes.contents(directory.file("body.txt").path) == "Hello World!", "--output writes the last entry's body")

        let convert = try await SluiceProcess.launch(["convert"] + options + ["--to-entry", "3", hurl], directory: directory.url.path)
        #expect(convert.status == 0, "\(convert.error)")
        #expect(convert.output.contains("    remove-headers:\n      - User-Agent\n      - accept\n      - Accept-Encoding\n    cookie-jar: off\n"), "\(convert.output)")
        #expect(convert.output.contains("name: entry 3") && !convert.output.contains("entry 4") && !convert.output.contains("entry 1\n"), "\(convert.output)")
        #expect(!convert.output.contains("expect:") && convert.output.contains("output: \(directory.file("body.txt").path)"), "\(convert.output)")

        let cookies = try await SluiceProcess.launch(["convert", "-b", "in.txt", "--cookie-jar", "/tmp/out.txt", hurl], directory: directory.url.path)
        #expect(cookies.output.contains("  - cookies:\n      read: \(directory.file("in.txt").path)\n      write: /tmp/out.txt\n"), "\(cookies.output)")

        let rooted = try directory.write("POST http://localhost:8000/x\n[Options]\noutput: out.bin\nfile,in.bin;\n", to: "rooted.hurl")
        let fileRoot = try await SluiceProcess.launch(["convert", "--file-root", "root", rooted], directory: directory.url.path)
        #expect(fileRoot.output.contains("    body-file: \(directory.file("root/in.bin").path)\n"), "\(fileRoot.output)")
        #expect(fileRoot.output.contains("    output: \(directory.file("root/out.bin").path)\n"), "\(fileRoot.output)")

        let backwards = try await SluiceProcess.launch(["run", "--from-entry", "3", "--to-entry", "2", hurl])
        #expect(backwards.status == 2 && backwards.error.contains("--from-entry 3 is after --to-entry 2"), "\(backwards.error)")
        let beyond = try await SluiceProcess.launch(["run", "--from-entry", "9", hurl])
        #expect(beyond.status == 2 && beyond.error.contains("options.hurl:1:1: error: --from-entry 9: the file has 4 entries"), "\(beyond.error)")
    }

    @Test("Hurl's --digest -u and --netrc-file become each entry's credential:, a user: {{...}} too; --digest without -u is refused")
    func credentials() async throws {
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("""
            GET http://localhost:8000/digest
            HTTP 200

            GET http://localhost:8000/basic-authentication-per-request
            [Options]
            variable: who=bob@email.com
            user: {{who}}:secret
            HTTP 200
            """, to: "credentials.hurl")
        let digest = try await SluiceProcess.launch(["run", "--no-color", "--digest", "-u", "username:password", "--to-entry", "1"] + Self.connectTo() + [hurl])
        #expect(digest.status == 0, "\(digest.output)\(digest.error)")
        let templated = try await SluiceProcess.launch(["run", "--no-color", "--from-entry", "2"] + Self.connectTo() + [hurl])
        #expect(templated.status == 0, "Basic at once, the user from a variable: \(templated.output)\(templated.error)")
        let convert = try await SluiceProcess.launch(["convert", "--digest", "-u", "username:password", hurl])
        #expect(convert.output.contains("    credential:\n      username: username\n      password: password\n      schemes: digest\n"), "\(convert.output)")
        #expect(convert.output.contains("    credential:\n      username: ${who}\n      password: secret\n      schemes: digest\n"), "\(convert.output)")
        let netrc = try await SluiceProcess.launch(["convert", "--netrc-file", "my.netrc", hurl], directory: directory.url.path)
        #expect(netrc.output.contains("    credential:\n      netrc-file: \(directory.file("my.netrc").path)\n      schemes: basic\n"), "\(netrc.output)")
        let alone = try await SluiceProcess.launch(["run", "--digest", hurl])
        #expect(alone.status == 2 && alone.error.contains("--digest needs -u NAME:PASSWORD"), "\(alone.error)")
    }
}
