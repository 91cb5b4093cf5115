import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// What Sluice must never let through, whatever the output mode or the server: secrets in output,
/// TLS early data, credentials carried to another host, a downgrade to plain HTTP, and invalid
/// certificates accepted without a warning.
@Suite("Security: secrets, early data, redirects, downgrades, invalid certificates", .timeLimit(.minutes(5)))
struct SecurityTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.load()
    }

    @Test("a known secret appears in no output mode, successes and failures alike, load mode and validate included")
    func secretInNoOutput() async throws {
        let secret = "s3cr3t-7d41e0"
        let directory = try TemporaryDirectory()
        let pipeline = directory.file("secrets.yaml")
        // The secret rides in Authorization, a header, a query parameter, a path parameter and a
        // body; one request succeeds, one fails in the transport (its URL is in the error), and
        // one fails an expectation (the failure shows what was found).
        try """
        stages:
          - url-resolution: { base-url: "${base}" }
          - header-injection:
              headers: { X-Api-Key: "${env.SECRET}" }
              authorization: { bearer: "${env.SECRET}" }
          - serialization: { format: json }
        requests:
          - name: echoed
            method: POST
            path: anything/{key}?token=${env.SECRET}
            path-parameters: { key: "${env.SECRET}" }
            parameters: { password: "${env.SECRET}" }
          - name: broken
            path: "\(servers.fault.absoluteString)/short-body?token=${env.SECRET}"
          - name: unmet
            path: headers
            expect:
              body: { "$.headers['X-Api-Key']": "not-the-key" }
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let report = directory.file("report.xml")
        let html = directory.file("report.html")
        let loadResult = directory.file("load.json")
        let loadJUnit = directory.file("load.xml")
        let base = ["--var", "base=\(servers.httpbin.absoluteString)"]
        let runs: [[String]] = [
            ["run"], ["run", "--verbose"], ["run", "--format", "json"], ["run", "--verbose", "--format", "json"],
            ["run", "--report", "junit:\(report.path)", "--report", "html:\(html.path)"], ["run", "--dry-run"], ["run", "--dry-run", "--format", "json"],
            ["run", "--repeat", "4", "--concurrency", "2"], ["run", "--repeat", "4", "--concurrency", "2", "--format", "json"],
            ["run", "--rate", "20", "--repeat", "2", "--concurrency", "4", "--report", "histogram:\(loadResult.path)", "--report", "junit:\(loadJUnit.path)"],
            ["curl"], ["validate"],
        ]
        for arguments in runs {
            let result = try await SluiceProcess.launch(arguments + base + [pipeline.path], environment: ["SECRET": secret])
            #expect(!result.output.contains(secret), "stdout of \(arguments)")
            #expect(!result.error.contains(secret), "stderr of \(arguments)")
        }
        #expect(try !String(contentsOf: report, encoding: .utf8).contains(secret))
        #expect(try !String(contentsOf: html, encoding: .utf8).contains(secret))
        // The load result file holds the first error (the broken request's URL carries the secret).
        let result = try String(contentsOf: loadResult, encoding: .utf8)
        #expect(!result.contains(secret) && result.contains(#""first-error""#) && !result.contains(#""first-error": null"#), "\(result)")
        #expect(try !String(contentsOf: loadJUnit, encoding: .utf8).contains(secret))
        let merged = try await SluiceProcess.launch(["report", "merge", "--format", "json", loadResult.path])
        #expect(!merged.output.contains(secret) && !merged.error.contains(secret))
        // The check has teeth: the secret was really sent, and --show-secrets does show it.
        let shown = try await SluiceProcess.launch(["curl", "--show-secrets"] + base + [pipeline.path], environment: ["SECRET": secret])
        #expect(shown.output.contains(secret))
    }

    @Test("a secret the server echoes encoded its own way (httpbin's url: '/' decoded, the rest kept) is hidden in every output, the HTML report's bodies included")
    func secretEchoedReencoded() async throws {
        let secret = "s3cr3t+/=&x y"
        let directory = try TemporaryDirectory()
        let pipeline = try directory.write("""
            variables:
              token: ${env.API_TOKEN}
            requests:
              - name: echo
                path: \(servers.httpbin.absoluteString)/anything?k=${urlencode(token)}
                expect: { status: 201 }
            """, to: "echo.yaml")
        let html = directory.file("report.html")
        let junit = directory.file("report.xml")
        /// `text` with every %XX read as its byte, and '+' as a space: whatever encoding a server
        /// chose, the secret shows here if any form of it is left.
        func decoded(_ text: String) -> String {
            var bytes: [UInt8] = []
            var input = Array(text.utf8)[...]
            while let byte = input.popFirst() {
                if byte == UInt8(ascii: "%"), input.count >= 2, let value = UInt8(String(decoding: input.prefix(2), as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    input = input.dropFirst(2)
                } else {
                    bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        for arguments in [["run", "--verbose"], ["run", "--format", "json"], ["run", "--report", "html:\(html.path)", "--report", "junit:\(junit.path)"]] {
            let result = try await SluiceProcess.launch(arguments + [pipeline], environment: ["API_TOKEN": secret])
            #expect(result.status == 1, "\(arguments): the status check fails, so the echo is shown")
            #expect(!decoded(result.output).contains(secret) && !decoded(result.error).contains(secret), "\(arguments): \(result.output)")
        }
        let report = try String(contentsOf: html, encoding: .utf8)
        #expect(report.contains("anything") && !decoded(report).contains(secret))
        #expect(try !decoded(String(contentsOf: junit, encoding: .utf8)).contains(secret))
        // The check has teeth: httpbin did echo it, in an encoding of its own.
        let echoed = try await CurlCLI.run(["\(servers.httpbin.absoluteString)/anything?k=s3cr3t%2B%2F%3D%26x%20y"])
        #expect(decoded(echoed.output).contains(secret) && echoed.output.contains("s3cr3t%2B/%3D%26x%20y"), "\(echoed.output)")
    }

    @Test("a secret written only in stage options, a plugin's options or a request, echoed back and captured, appears in no output")
    func secretsWhereverWritten() async throws {
        // Spaces and a slash: sent in a path, the capture is percent-encoded (k3y%20w/sl4sh), so
        // hiding the value as written would not be enough.
        let key = "k3y w/sl4sh-9e2"
        let keyID = "AKIDEXAMPLE7Q2"
        let directory = try TemporaryDirectory()
        let har = directory.file("run.har")
        let pipeline = directory.file("echo.yaml")
        // KEY is only in header-injection's `headers` (an option that is not secret), AKID only in
        // the aws-sigv4 plugin's access-key-id (not secret either), HEADER only in a request's
        // headers; httpbin /anything echoes all three, a capture takes the key and a later request
        // sends it in its path and its query.
        try """
        stages:
          - har-recorder: { path: "\(har.path)" }
          - url-resolution: { base-url: "${base}" }
          - header-injection:
              headers: { X-Api-Key: "${env.KEY}" }
          - aws-sigv4:
              access-key-id: "${env.AKID}"
              secret-access-key: not-a-real-secret-key
              region: us-east-1
              service: execute-api
          - response-decoding: { format: json }
          - serialization: { format: json }
        requests:
          - name: echo
            path: anything
            headers: { X-Other: "${env.HEADER}" }
            capture:
              echoed: "$.headers['X-Api-Key']"
              headers: "$.headers"
            expect:
              body: { "$.headers['X-Api-Key']": "not-the-key" }
          - name: reuse
            path: anything/${echoed}?again=${echoed}
            expect:
              status: 404
          - name: typed
            method: POST
            path: anything
            parameters: { headers: "${headers}", key: "${echoed}" }
            expect:
              body: { "$.json.headers": "${headers}", "$.json.key": "not-the-key" }
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let environment = ["KEY": key, "AKID": keyID, "HEADER": "hdr-secret-31c"]
        let secrets = [key, keyID, "hdr-secret-31c", "k3y%20w/sl4sh-9e2", "k3y%20w%2Fsl4sh-9e2", "k3y+w%2Fsl4sh-9e2"]
        let report = directory.file("report.xml")
        let html = directory.file("report.html")
        let base = ["--var", "base=\(servers.httpbin.absoluteString)"]
        let runs: [[String]] = [
            ["run"], ["run", "--verbose"], ["run", "--format", "json"], ["run", "--verbose", "--format", "json"],
            ["run", "--report", "junit:\(report.path)", "--report", "html:\(html.path)"], ["run", "--dry-run"], ["run", "--dry-run", "--format", "json"],
            ["run", "--repeat", "3", "--concurrency", "2", "--only", "echo"],
            ["run", "--repeat", "3", "--concurrency", "2", "--only", "echo", "--format", "json"],
            ["curl"], ["validate"],
        ]
        for arguments in runs {
            let result = try await SluiceProcess.launch(arguments + base + [pipeline.path], environment: environment)
            for secret in secrets {
                #expect(!result.output.contains(secret), "\(secret) in stdout of \(arguments):\n\(result.output)")
                #expect(!result.error.contains(secret), "\(secret) in stderr of \(arguments):\n\(result.error)")
            }
        }
        let written = try String(contentsOf: report, encoding: .utf8) + String(contentsOf: har, encoding: .utf8) + String(contentsOf: html, encoding: .utf8)
        for secret in secrets { #expect(!written.contains(secret), "\(secret) in the JUnit or HTML report or the HAR file") }
        // The check has teeth: the server really echoed the key, and the second request sent it.
        let shown = try await SluiceProcess.launch(["run", "--format", "json", "--only", "echo"] + base + [pipeline.path], environment: environment)
        #expect(shown.output.contains("\"X-Api-Key\": \"***\""), "\(shown.output)")
        let json = try await SluiceProcess.launch(["run", "--format", "json"] + base + [pipeline.path], environment: environment)
        #expect(json.output.contains("/anything/***?again=***"), "\(json.output)")
        // The typed capture (an object holding the key) was sent as an object and shown redacted.
        #expect(json.output.contains("\"key\": \"***\""), "\(json.output)")
        let curl = try await SluiceProcess.launch(["curl", "--show-secrets"] + base + [pipeline.path], environment: environment)
        #expect(curl.output.contains(key) && curl.output.contains("hdr-secret-31c"))
    }

    @Test("the credentials of an Authorization header a request writes literally (YAML headers, a Hurl file's header and [BasicAuth]), echoed back by the server, appear in no output or report")
    func writtenAuthorizationEchoed() async throws {
        let directory = try TemporaryDirectory()
        let echo = servers.scenario.appendingPathComponent("raw/echo").absoluteString
        let yaml = try directory.write("""
            requests:
              - path: \(echo)
                headers: { Authorization: "Bearer YamlTok8888" }
                expect: { body: { "$.body": "zzz" } }
            """, to: "bearer.yaml")
        let bearer = try directory.write("GET \(echo)\nAuthorization: Bearer HurlTok31337\nHTTP 200\n[Asserts]\nbody contains \"zzz\"\n", to: "bearer.hurl")
        let basic = try directory.write("GET \(echo)\n[BasicAuth]\nbob: LitPass777\nHTTP 200\n[Asserts]\nbody contains \"zzz\"\n", to: "basic.hurl")
        let secrets = ["YamlTok8888", "HurlTok31337", "LitPass777", Data("bob:LitPass777".utf8).base64EncodedString()]
        for file in [yaml, bearer, basic] {
            let report = directory.file("report.tap"), html = directory.file("report.html"), junit = directory.file("report.xml")
            for arguments in [["run", "--no-color"], ["run", "--format", "json"], ["run", "--report", "tap:\(report.path)", "--report", "html:\(html.path)", "--report", "junit:\(junit.path)"]] {
                let run = try await SluiceProcess.launch(arguments + [file])
                #expect(run.status == 1, "the check fails, so the echoed body is shown: \(run.output)")
                for secret in secrets { #expect(!(run.output + run.error).contains(secret), "\(secret) in \(arguments) of \(file):\n\(run.output)") }
            }
            let written = try String(contentsOf: report, encoding: .utf8) + String(contentsOf: html, encoding: .utf8) + String(contentsOf: junit, encoding: .utf8)
            for secret in secrets { #expect(!written.contains(secret), "\(secret) in a report of \(file)") }
        }
    }

    @Test("--secret NAME=VALUE, Hurl's flag, gives a variable that is sent and shown nowhere; beside --var of the same name it is refused")
    func secretOption() async throws {
        let directory = try TemporaryDirectory()
        let echo = servers.scenario.appendingPathComponent("raw/secret").absoluteString
        let hurl = try directory.write("GET \(echo)\nAuthorization: Bearer {{token}}\nHTTP 200\n[Asserts]\nbody contains \"zzz\"\n", to: "secret.hurl")
        let yaml = try directory.write("requests:\n  - path: \(echo)\n    headers: { X-Token: \"${token}\" }\n    expect: { body: { \"$.body\": zzz } }\n", to: "secret.yaml")
        for file in [hurl, yaml] {
            let run = try await SluiceProcess.launch(["run", "--no-color", "--verbose", "--secret", "token=SeCr3tT0k", file])
            #expect(run.status == 1 && !(run.output + run.error).contains("SeCr3tT0k"), "\(file): \(run.output)\(run.error)")
            let shown = try await SluiceProcess.launch(["curl", "--show-secrets", "--secret", "token=SeCr3tT0k", file])
            #expect(shown.output.contains("SeCr3tT0k"), "it is sent: \(shown.output)")
        }
        let both = try await SluiceProcess.launch(["run", "--secret", "token=a1b2c3d4", "--var", "token=x", yaml])
        #expect(both.status == 2 && both.error.contains("both give token") && !both.error.contains("a1b2c3d4"), "\(both.error)")
    }

    @Test("a capture that takes a piece of an echoed secret (split, nth, a regular expression's group) is hidden as the secret is, wherever it is sent on")
    func piecesOfSecrets() async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - header-injection: { headers: { X-Api-Key: "${env.TOK}" } }
              - response-decoding
            requests:
              - name: echo
                path: headers
                capture:
                  head: { jsonpath: "$.headers['X-Api-Key']", filters: [{ split: "/" }, { nth: 0 }] }
                  rest: { jsonpath: "$.headers['X-Api-Key']", filters: [{ split: "/" }, { nth: 1 }] }
                  prefix: { regex: '"X-Api-Key": "(.{6})' }
              - name: reuse
                path: anything/${rest}?h=${head}&p=${prefix}
                expect: { body: { "$.args.h": "not-it" } }
            """, to: "pieces.yaml")
        for arguments in [["--no-color"], ["--verbose"], ["--format", "json"]] {
            let result = try await SluiceProcess.launch(["run"] + arguments + [pipeline], environment: ["TOK": "S3cr3tPart1/S3cr3tPart2"])
            #expect(result.status == 1, "\(arguments): \(result.output)\(result.error)")
            for piece in ["S3cr3tPart1", "S3cr3tPart2", "S3cr3t"] {
                #expect(!result.output.contains(piece) && !result.error.contains(piece), "\(piece) in \(arguments): \(result.output)\(result.error)")
            }
            #expect(result.output.contains("anything/***?h=***&p=***"), "\(arguments): \(result.output)")
        }
    }

    @Test("no TLS early data: a resumed TLS 1.3 session still sends its request after the handshake")
    func noEarlyData() async throws {
        // HTTP/1.1 and `Connection: close`, so that each request needs a new connection, which
        // resumes the TLS 1.3 session of the one before (nginx has ssl_early_data on, and would
        // take the request as early data if it were sent so).
        let transport = servers.trustingTransport(CurlTransport.Configuration(httpVersion: .http1_1))
        let manager = SessionManager(pipeline: try Pipeline(transport: transport))
        var bodies: [String] = []
        for _ in 0..<3 {
            let response = try await manager.send(Request(url: servers.nginxTLS("early-data"), headers: ["Connection": "close"]))
            bodies.append(String(decoding: response.body, as: UTF8.self))
        }
        await transport.shutdown()
        #expect(bodies.allSatisfy { $0.hasPrefix("early-data= ") }, "\(bodies)")
        // The test has teeth only if sessions were resumed: early data needs a resumed session.
        #expect(bodies.dropFirst().contains { $0.hasSuffix("reused=r\n") }, "no session was resumed: \(bodies)")
    }

    @Test("Authorization never crosses to another host; https to http is refused unless allowed")
    func redirects() async throws {
        let headers: HTTPHeaders = ["Authorization": "Bearer secret", "Proxy-Authorization": "Basic eA=="]
        // 127.0.0.1 → localhost is another host, though the same machine.
        let crossing = servers.httpbin("redirect-to?url=" + servers.httpbin.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/headers")
        let echoed = try await servers.manager().send(Request(url: crossing, headers: headers)).jsonObject()
        let received = try #require(echoed["headers"] as? [String: String])
        #expect(received["Authorization"] == nil && received["Proxy-Authorization"] == nil)
        let refused = await #expect(throws: SluiceError.self) { try await servers.manager().send(Request(url: servers.nginxTLS("to-http"))) }
        #expect(refused?.kind == .insecureRedirect)
        #expect(refused?.stage == "redirects")
    }

    @Test("allow-invalid-certificates warns on every run and validate, naming the file and line")
    func allowInvalidCertificatesWarns() async throws {
        let directory = try TemporaryDirectory()
        let pipeline = directory.file("insecure.yaml")
        try """
        stages:
          - url-resolution: { base-url: "\(servers.nginxHTTPSSelfSigned.absoluteString)" }
          - trust-evaluation:
              allow-invalid-certificates: true
              validates-domain-name: false
              pinning: public-key
              pins: ["\(servers.pins.selfSigned)"]
          - response-decoding: { format: string, acceptable-content-types: any }
        requests:
          - path: hello.txt
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        for command in [["run"], ["validate"], ["run", "--format", "json"]] {
            let result = try await SluiceProcess.launch(command + [pipeline.path])
            #expect(result.status == 0, "\(command): \(result.error)")
            #expect(result.error.contains("insecure.yaml:3:5: warning: allow-invalid-certificates is on"), "\(command): \(result.error)")
        }
    }
}
