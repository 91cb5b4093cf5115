import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// The modules under `Plugins/`, and a module loaded at run time, through the `sluice` executable
/// against the local servers.
@Suite("Stage modules through the runner over real sockets")
struct StageModuleRunTests {
    private static let root = RunCommandTests.root


    /// A JSON document from the scenario server.
    private func scenario(_ path: String, post body: String? = nil) async throws -> JSONValue {
        let servers = try TestServers.load()
        var request = Request(url: URL(string: path, relativeTo: servers.scenario)!.absoluteURL)
        if let body {
            request.method = .post
            request.body = .data(Data(body.utf8))
        }
        let response = try await SessionManager(pipeline: try Pipeline()).send(request)
        return try JSONReader().value(from: response.body)
    }

    @Test("retry: resets and 503s are retried until they pass; a refused connection gives up after the attempts, each one shown")
    func retry() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let key = UUID().uuidString
        let path = try directory.write(
            """
            stages:
              - url-resolution: { base-url: "\(servers.scenario.absoluteString)" }
              - retry: { attempts: 3, base-delay: 10ms, max-delay: 1s }
            requests:
              - { name: reset, method: GET, path: "reset/\(key)?failures=2", expect: { status: 200, body: { "$.attempt": 3 } } }
              - { name: flaky, method: GET, path: "flaky/\(key)-503?failures=2", expect: { status: 200 } }
              - { name: post, method: POST, path: "flaky/\(key)-post?failures=1", expect: { status: 503 } }
            """, to: "p.yaml")
        let result = try await SluiceProcess.launch(["run", "--verbose", "--no-color", path])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.error.contains("* retry: attempt 2 of 3 after connection lost"))
        #expect(result.error.contains("* retry: attempt 3 of 3 after status 503"))

        let refused = try directory.write(
            """
            stages:
              - retry: { attempts: 3, base-delay: 10ms }
            requests:
              - { name: down, method: GET, path: "http://127.0.0.1:9/x" }
            """, to: "refused.yaml")
        let down = try await SluiceProcess.launch(["run", "--verbose", "--no-color", refused])
        #expect(down.status == 1)
        #expect(down.output.contains("connection failed in transport"))
        #expect(down.error.contains("* retry: attempt 3 of 3 after connection failed"))
        #expect(down.error.contains("* retry: gave up after 3 attempts; the last ended with connection failed"))
    }

    @Test("oauth2: one token for a load run of 300 requests at concurrency 16, fetched once (single flight)")
    func oauth2Load() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let realm = "load-\(UUID().uuidString)"
        _ = try await scenario("oauth/\(realm)/config", post: #"{"delay": 0.3}"#)
        let path = try directory.write(
            """
            stages:
              - url-resolution: { base-url: "\(servers.scenario.absoluteString)" }
              - oauth2-client-credentials: { token-url: "\(servers.scenario.absoluteString)/oauth/\(realm)/token", client-id: sluice-client, client-secret: "${env.CLIENT_SECRET}" }
            requests:
              - { name: read, method: GET, path: "oauth/\(realm)/resource", expect: { status: 200 } }
            """, to: "p.yaml")
        let result = try await SluiceProcess.launch(["run", "--repeat", "300", "--concurrency", "16", "--format", "json", path], environment: ["CLIENT_SECRET": "s3cr3t-value"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let load = try JSONReader().value(from: result.output)["load"]
        #expect(load?["ok"] == 300)
        let stats = try await scenario("oauth/\(realm)/stats")
        #expect(stats["token_requests"] == 1)
        #expect(stats["resource_requests"] == 300)
        #expect(stats["unauthorized"] == 0)
    }

    @Test("oauth2: a refused client is a clear error without the secret; a dry run fetches no token")
    func oauth2Errors() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let realm = "errors-\(UUID().uuidString)"
        let path = try directory.write(
            """
            stages:
              - oauth2-client-credentials: { token-url: "\(servers.scenario.absoluteString)/oauth/\(realm)/token", client-id: sluice-client, client-secret: "${env.CLIENT_SECRET}" }
            requests:
              - { name: read, method: GET, path: "\(servers.scenario.absoluteString)/oauth/\(realm)/resource" }
            """, to: "p.yaml")
        let refused = try await SluiceProcess.launch(["run", "--no-color", path], environment: ["CLIENT_SECRET": "wrong-secret-value"])
        #expect(refused.status == 1)
        #expect(refused.output.contains("p.yaml:4:5: error: stage failure in oauth2-client-credentials: the token endpoint answered 401: invalid_client (unknown client or wrong secret)"))
        #expect(!refused.output.contains("wrong-secret-value") && !refused.error.contains("wrong-secret-value"))

        let dry = try await SluiceProcess.launch(["run", "--dry-run", "--no-color", path], environment: ["CLIENT_SECRET": "s3cr3t-value"])
        #expect(dry.status == 0, "\(dry.output)\(dry.error)")
        #expect(dry.output.contains("Authorization: Bearer ***"))
        let stats = try await scenario("oauth/\(realm)/stats")
        #expect(stats["token_requests"] == 0)
    }

    @Test("har-recorder: a run against httpbin and nginx over TLS writes a HAR 1.2 file that validates, with the secret hidden")
    func har() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let har = directory.file("run.har").path
        let path = try directory.write(
            """
            stages:
              - header-injection: { headers: { X-Api-Key: "${env.API_KEY}" }, authorization: { bearer: "${env.API_KEY}" } }
              - serialization: { format: json }
              - trust-evaluation: { ca-bundle: "\(servers.caBundle)" }
              - redirects
              - har-recorder: { path: run.har }
            requests:
              - { name: get, method: GET, path: "\(servers.httpbin.absoluteString)/get?key=${env.API_KEY}", expect: { status: 200 } }
              - { name: post, method: POST, path: "\(servers.httpbin.absoluteString)/post", parameters: { token: "${env.API_KEY}", n: 1 }, expect: { status: 200 } }
              - { name: tls, method: GET, path: "\(servers.nginxHTTPS.absoluteString)/hello.txt", expect: { status: 200 } }
              - { name: redirect, method: GET, path: "\(servers.httpbin.absoluteString)/redirect/1", expect: { status: 200 } }
              - { name: gzip, method: GET, path: "\(servers.nginxHTTP.absoluteString)/data.json", headers: { Accept-Encoding: gzip }, expect: { status: 200 } }
            """, to: "p.yaml")
        let secret = "key-\(UUID().uuidString)"
        let result = try await SluiceProcess.launch(["run", "--no-color", path], environment: ["API_KEY": secret])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let text = try String(contentsOfFile: har, encoding: .utf8)
        #expect(!text.contains(secret))
        let check = Process()
        check.executableURL = Self.root.appendingPathComponent(".venv/bin/python")
        check.arguments = [Self.root.appendingPathComponent("scripts/check-schema.py").path, Self.root.appendingPathComponent("Tests/Fixtures/har-1.2.schema.json").path, har]
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0, "\(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        guard case .array(let entries)? = try JSONReader().value(from: text)["log"]?["entries"] else {
            Issue.record("no entries")
            return
        }
        try #require(entries.count == 6)
        let tls = entries[2]
        #expect(tls["request"]?["url"]?.stringValue?.hasPrefix("https://localhost:") == true)
        #expect(tls["timings"]?["ssl"]?.doubleValue.map { $0 > 0 } == true)
        #expect(tls["response"]?["content"]?["text"] == "hello from nginx\n")
        #expect(tls["serverIPAddress"] == "127.0.0.1")
        #expect(entries[3]["response"]?["status"] == 302)
        #expect(entries[3]["response"]?["redirectURL"]?.stringValue?.isEmpty == false)
        #expect(entries[4]["response"]?["status"] == 200)
        // A gzipped body: bodySize as it came on the wire (what curl --compressed counts),
        // content.size decoded, compression the difference (HAR 1.2).
        let wire = try await CurlCLI.run(["--compressed", "-s", "-o", "/dev/null", "-w", "%{size_download}", "\(servers.nginxHTTP.absoluteString)/data.json"])
        let decoded = try FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: servers.wwwRoot).appendingPathComponent("data.json").path)[.size] as? Int
        let gzip = entries[5]["response"]
        #expect(gzip?["bodySize"]?.intValue == Int(wire.output) && Int(wire.output).map { $0 < 10_000 } == true, "\(wire.output)")
        #expect(gzip?["content"]?["size"]?.intValue == decoded)
        #expect(gzip?["content"]?["compression"]?.intValue == decoded.map { $0 - (Int(wire.output) ?? 0) })
        #expect(entries[2]["response"]?["content"]?["compression"] == nil, "an uncoded body saved nothing")
    }

    @Test("a stage module built as a .so by scripts/build-stage-module is loaded through plugins: and listed by stages --plugin")
    func runtimeModule() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let library = directory.file("libExampleRequestID.so").path
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/bin/bash")
        build.arguments = [
            Self.root.appendingPathComponent("scripts/build-stage-module").path, Self.root.appendingPathComponent("Plugins/ExampleRequestID").path, library,
            "--bin-path", SluiceProcess.executable.deletingLastPathComponent().path,
        ]
        let errors = Pipe()
        build.standardError = errors
        build.standardOutput = Pipe()
        // A build lasts tens of seconds: waited for off the cooperative pool.
        try await offPool {
            try build.run()
            build.waitUntilExit()
        }
        try #require(build.terminationStatus == 0, "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")

        let path = try directory.write(
            """
            plugins: [libExampleRequestID.so]
            stages:
              - request-id: { prefix: "run-" }
            requests:
              - name: echo
                method: GET
                path: "\(servers.httpbin.absoluteString)/headers?show_env=1"
                expect:
                  status: 200
                  body: { "$.headers['X-Request-Id']": { matches: "^run-[0-9A-F-]{36}$" } }
            """, to: "p.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        let stages = try await SluiceProcess.launch(["stages", "--plugin", library])
        #expect(stages.output.contains("\nrequest-id\n    Gives every request an id of its own"))
        #expect(stages.output.contains("    prefix: string (default \"\")"))
        let validate = try await SluiceProcess.launch(["validate", path])
        #expect(validate.status == 0, "\(validate.output)\(validate.error)")

        let twice = try directory.write("plugins: [libExampleRequestID.so, \(library)]\nstages: [request-id]\nrequests: []\n", to: "twice.yaml")
        let duplicate = try await SluiceProcess.launch(["validate", twice])
        #expect(duplicate.status == 2)
        #expect(duplicate.error == "\(twice):1:35: error: plugin '\(library)': a stage named 'request-id' is already registered\n")
    }

    @Test("loading errors name the plugins: entry's line and column: missing file, no entry point, a version mismatch, another Sluice, not a library")
    func runtimeModuleErrors() async throws {
        let directory = try TemporaryDirectory()
        func compile(_ source: String, _ name: String) throws -> String {
            let c = directory.file("\(name).c")
            try source.write(to: c, atomically: true, encoding: .utf8)
            let output = directory.file("\(name).so").path
            let cc = Process()
            cc.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
            cc.arguments = ["-shared", "-fPIC", "-o", output, c.path]
            try cc.run()
            cc.waitUntilExit()
            try #require(cc.terminationStatus == 0)
            return output
        }
        let old = try compile(#"const char *sluice_stage_module_version(void) { return "0.0.1"; } void sluice_stage_module_register(void *r) {}"#, "old")
        let foreign = try compile(
            #"extern void $s6Sluice9NoSuchAPIyyF(void); const char *sluice_stage_module_version(void) { $s6Sluice9NoSuchAPIyyF(); return "x"; }"#, "foreign")
        let empty = try compile(#"int nothing_here(void) { return 0; }"#, "empty")
        let text = directory.file("text.so").path
        try "not a library".write(toFile: text, atomically: true, encoding: .utf8)
        let path = try directory.write(
            """
            plugins:
              - missing.so
              - \(empty)
              - \(old)
              - \(foreign)
              - /lib/x86_64-linux-gnu/libz.so.1
              - text.so
            stages: []
            requests: []
            """, to: "p.yaml")
        let result = try await SluiceProcess.launch(["validate", path])
        #expect(result.status == 2)
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(result.error)")
        #expect(lines[0] == "\(path):2:5: error: plugin 'missing.so': no such file")
        #expect(lines[1] == "\(path):3:5: error: plugin '\(empty)': it is not a Sluice stage module: it exports no sluice_stage_module_version entry point")
        #expect(lines[2] == "\(path):4:5: error: plugin '\(old)': it was built against Sluice 0.0.1, and this runner is Sluice \(SluiceVersion.current); rebuild the module against this runner")
        #expect(lines[3].hasPrefix("\(path):5:5: error: plugin '\(foreign)': it needs symbols this program does not have, so it was built against a different Sluice"))
        #expect(lines[3].contains("undefined symbol: $s6Sluice9NoSuchAPIyyF"))
        #expect(lines[4] == "\(path):6:5: error: plugin '/lib/x86_64-linux-gnu/libz.so.1': it is not a Sluice stage module: it exports no sluice_stage_module_version entry point")
        #expect(lines[5].hasPrefix("\(path):7:5: error: plugin 'text.so': cannot load it as a shared library: "))
    }
}
