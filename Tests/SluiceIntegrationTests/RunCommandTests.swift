import Foundation
import Testing
import SluiceCore

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `sluice run`, `validate`, `stages` and `curl`, run as the executable against httpbin and nginx.
@Suite("The pipeline runner over real sockets")
struct RunCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let pipelines = root.appendingPathComponent("pipelines")

    /// The `--var`s that point each example at the local servers, and the environment it reads.
    static func exampleArguments(_ name: String, _ servers: TestServers) -> (variables: [String], environment: [String: String])? {
        switch name {
        case "pinned-tls.yaml": (["--var", "base=\(servers.nginxHTTPS.absoluteString)", "--var", "ca=\(servers.caBundle)"], [:])
        case "serialization-json.yaml": (["--var", "base=\(servers.httpbin.absoluteString)"], ["API_TOKEN": "tok-5f2b9c"])
        case "oauth2-retry.yaml": (["--var", "base=\(servers.scenario.absoluteString)"], ["CLIENT_SECRET": "s3cr3t-value"])
        case "signing.yaml", "events.yaml", "polling.yaml": (["--var", "base=\(servers.scenario.absoluteString)"], [:])
        case "typed-values.yaml":
            (["--var", "base=\(servers.httpbin.absoluteString)", "--vars-file", pipelines.appendingPathComponent("_fixtures/typed-vars.yaml").path, "--var", "note=2"], [:])
        case "data-driven.yaml": (["--var", "base=\(servers.httpbin.absoluteString)", "--vars-file", pipelines.appendingPathComponent("_fixtures/staging.env").path], [:])
        case "demo.yaml", "chain.yaml", "serialization-form.yaml", "serialization-multipart.yaml", "suite.yaml", "reachability.yaml":
            (["--var", "base=\(servers.httpbin.absoluteString)"], [:])
        default: nil
        }
    }

    static func examples() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: pipelines.path).filter { $0.hasSuffix(".yaml") }.sorted()
    }


    @Test("every example pipeline passes against the local servers, and validates against pipelines/schema.json")
    func examplesPass() async throws {
        let servers = try TestServers.load()
        let names = try RunCommandTests.examples()
        #expect(names.count >= 6)
        for name in names {
            let arguments = try #require(RunCommandTests.exampleArguments(name, servers), "pipelines/\(name) has no arguments in RunCommandTests; add them")
            let result = try await SluiceProcess.launch(["run", "--no-color"] + arguments.variables + [RunCommandTests.pipelines.appendingPathComponent(name).path], environment: arguments.environment)
            #expect(result.status == 0, "\(name):\n\(result.output)\(result.error)")
            #expect(result.output.contains(" 0 failed in "), "\(name):\n\(result.output)")
        }
        let check = Process()
        check.executableURL = RunCommandTests.root.appendingPathComponent(".venv/bin/python")
        let shared = try FileManager.default.contentsOfDirectory(atPath: RunCommandTests.pipelines.appendingPathComponent("_shared").path).filter { $0.hasSuffix(".yaml") }.map { "_shared/" + $0 }
        check.arguments = [RunCommandTests.root.appendingPathComponent("scripts/check-schema.py").path, RunCommandTests.pipelines.appendingPathComponent("schema.json").path]
            + (names + shared).map { RunCommandTests.pipelines.appendingPathComponent($0).path }
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)
    }

    @Test("pipelines/schema.json takes what the loader takes, and refuses what it refuses: variables of any type, a bare 0 for a duration, for-each rows holding lists, a null row; not a list as a row")
    func schemaTakesWhatLoads() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("""
            variables:
              ids: [1, 2]
              user: { name: zoe }
              nothing: null
              count: 7
            requests:
              - name: r ${id}
                path: http://localhost/${id}
                timeout: 0
                delay: 0
                retry: { attempts: 2, interval: 0 }
                for-each: [{ id: 1, tags: [a, b], owner: null }, { id: 2, tags: [], owner: { name: ada } }]
              - name: v ${item}
                path: http://localhost/${item}
                for-each: [a, null, 3, 2.5, true]
            """, to: "loose.yaml")
        let listRow = try directory.write("requests:\n  - { name: r, path: http://localhost/, for-each: [[1, 2]] }\n", to: "list-row.yaml")
        for (path, loads) in [(file, true), (listRow, false)] {
            let validated = try await SluiceProcess.launch(["validate", path])
            #expect((validated.status == 0) == loads, "\(validated.output)\(validated.error)")
            let check = try await SluiceProcess.launch(
                [RunCommandTests.root.appendingPathComponent("scripts/check-schema.py").path, RunCommandTests.pipelines.appendingPathComponent("schema.json").path, path],
                executable: RunCommandTests.root.appendingPathComponent(".venv/bin/python")
            )
            #expect((check.status == 0) == loads, "\(check.output)\(check.error)")
        }
    }

    @Test("a server's control characters reach the text output as escapes, never as terminal commands; JSON keeps them as the value")
    func controlCharactersEscaped() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let url = "\(servers.scenario.absoluteString)/cache/escape-\(UUID().uuidString)?set-cookie=a%1B%5B31mred%1B%5D0%3Btitle%07"
        let file = try directory.write("requests:\n  - name: escapes\n    path: \(url)\n    expect: { headers: { Set-Cookie: plain } }\n", to: "escapes.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", "--verbose", file])
        #expect(run.status == 1)
        #expect(!run.output.contains("\u{1B}") && !run.error.contains("\u{1B}") && !run.output.contains("\u{07}"), "\(run.output)")
        #expect(run.output.contains(#"actual:   a\u{1B}[31mred\u{1B}]0;title\u{7}"#), "\(run.output)")
        #expect(run.error.contains(#"< Set-Cookie: a\u{1B}[31mred"#), "\(run.error)")
        let json = try await SluiceProcess.launch(["run", "--format", "json", file])
        #expect(json.output.contains(#"a\u001B[31mred"#), "the JSON string escapes it as JSON does: \(json.output)")
    }

    @Test("text output: a line per request, each failure with expected, actual and its pipeline line; exit 1")
    func textOutput() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - response-decoding
            requests:
              - name: fine
                path: get
              - name: broken
                path: status/500
                expect:
                  status: 200
              - name: wrong
                path: json
                expect:
                  body:
                    $.slideshow.author: { equals: Nobody }
            """, to: "p.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("✔ fine  GET \(servers.httpbin.absoluteString)/get  200  "))
        #expect(lines[0].hasSuffix(" B"))
        #expect(lines[1].hasPrefix("✘ broken  GET \(servers.httpbin.absoluteString)/status/500  500  "))
        #expect(lines[2] == "    \(path):10:15: failed: status")
        #expect(lines[3] == "        expected: 200")
        #expect(lines[4] == "        actual:   500")
        #expect(lines.contains("    \(path):15:31: failed: body $.slideshow.author equals"))
        #expect(lines.contains("        actual:   \"Yours Truly\""))
        #expect(lines.last?.hasPrefix("p: 3 requests: 1 passed, 2 failed in ") == true)
        #expect(!result.output.contains("\u{1B}["))
        let fast = try await SluiceProcess.launch(["run", "--no-color", "--fail-fast", path])
        #expect(fast.output.split(separator: "\n").filter { $0.hasPrefix("✔") || $0.hasPrefix("✘") }.count == 2)
        // The files after the failure are in every report, their requests skipped naming it, but
        // for a teardown marked always, which runs.
        let after = try directory.write("""
            requests:
              - { name: second, path: "\(servers.httpbin.absoluteString)/get" }
              - { name: teardown, path: "\(servers.httpbin.absoluteString)/get", always: true }
            """, to: "after.yaml")
        let junit = directory.file("fast.xml").path
        let twoFiles = try await SluiceProcess.launch(["run", "--no-color", "--fail-fast", "--report", "junit:\(junit)", path, after])
        #expect(twoFiles.status == 1 && twoFiles.output.contains("○ second  skipped: --fail-fast stopped the run after '\(path): broken' failed"), "\(twoFiles.output)")
        #expect(twoFiles.output.contains("✔ teardown  GET"), "\(twoFiles.output)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"name="after" tests="2" failures="0" errors="0" skipped="1""#), "\(xml)")
        let only = try await SluiceProcess.launch(["run", "--no-color", "--only", "fine", path])
        #expect(only.status == 0 && only.output.contains("1 request: 1 passed, 0 failed"))
        let verbose = try await SluiceProcess.launch(["run", "--verbose", "--only", "fine", path])
        let exchange = verbose.error.split(separator: "\n").map(String.init)
        // -v, as curl's and Hurl's, is --verbose.
        let short = try await SluiceProcess.launch(["run", "-v", "--only", "fine", path])
        #expect(Array(short.error.split(separator: "\n").prefix(8).map(String.init)) == Array(exchange.prefix(8)), "\(short.error)")
        #expect(Array(exchange.prefix(8)) == [
            "\(path): the chain, top to bottom:",
            "  call 100   url-resolution     \(path):2:5",
            "  call 200   header-injection   added: a run sends User-Agent: sluice/VERSION (OS; ARCH), as curl sends its own (header-injection: {user-agent: none} sends none)",
            "  call 400   response-decoding  \(path):3:5",
            "  call 900   redirects          added: every pipeline follows redirects unless it lists redirects: {follow: false}",
            "  hop 50     hsts               added: a run honours Strict-Transport-Security (hsts: {file: ...} keeps it between runs)",
            "  hop 100    cookies            added: a run keeps cookies between its requests",
            "> GET \(servers.httpbin.absoluteString)/get",
        ], "\(verbose.error)")
        #expect(exchange.contains("< HTTP/1.1 200 OK") && exchange.contains("< Content-Type: application/json"), "\(verbose.error)")
        // Every hop of a redirect, as curl -v -L shows them: the 302 with its Set-Cookie, then
        // the request that sends the cookie back.
        let redirected = try directory.write("requests:\n  - { name: hop, path: \"\(servers.httpbin.absoluteString)/cookies/set?who=one\" }\n", to: "hop.yaml")
        let hops = try await SluiceProcess.launch(["run", "--verbose", redirected])
        let curl = try await SluiceProcess.launch(["-sv", "-L", "-b", "", "\(servers.httpbin.absoluteString)/cookies/set?who=one"], executable: URL(fileURLWithPath: "/usr/bin/curl"))
        let statusLines = { (text: String) in text.split(whereSeparator: \.isNewline).map { String($0) }.filter { $0.hasPrefix("< HTTP/") } }
        #expect(statusLines(hops.error) == ["< HTTP/1.1 302 FOUND", "< HTTP/1.1 200 OK"] && statusLines(hops.error) == statusLines(curl.error), "\(hops.error)")
        #expect(hops.error.contains("< Set-Cookie: who=one; Path=/\n") && hops.error.contains("> Cookie: who=one\n"), "\(hops.error)")
    }

    @Test("on a terminal: colour (unless --no-color) and the load mode's live progress bar")
    func terminal() async throws {
        let servers = try TestServers.load()
        let demo = RunCommandTests.pipelines.appendingPathComponent("demo.yaml").path
        /// Runs sluice on a pseudo-terminal (util-linux `script`), standard output and error together.
        func onTerminal(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let command = ([SluiceProcess.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-qec", command, "/dev/null"]
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            var environment = ProcessInfo.processInfo.environment
            environment["NO_COLOR"] = nil
            process.environment = environment
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let variables = ["--var", "base=\(servers.httpbin.absoluteString)"]
        let colored = try onTerminal(["run"] + variables + [demo])
        #expect(colored.contains("\u{1B}[32m✔\u{1B}[0m"), "\(colored)")
        let plain = try onTerminal(["run", "--no-color"] + variables + [demo])
        #expect(plain.contains("✔ search") && !plain.contains("\u{1B}["), "\(plain)")
        let load = try onTerminal(["run", "--repeat", "1500", "--concurrency", "4", "--only", "search"] + variables + [demo])
        // The count, the elapsed time (and the time left, once a rate is known), the rate, p99.
        #expect(load.contains("/1500  ") && load.contains(" left  rate ") && load.contains("/s  p99 ") && load.contains("errors 0") && load.contains("[#"), "\(load)")
        #expect(load.contains("requests  1500  ok 1500  errors 0"))
    }

    @Test("a body held in memory stops at 64 MiB unless max-response-size says otherwise; output: streams past it")
    func defaultResponseSizeLimit() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let url = "\(servers.fault.absoluteString)/stream?bytes=\((64 << 20) + 1)"
        let limited = try directory.write("requests:\n  - name: big\n    path: \"\(url)\"\n", to: "limited.yaml")
        let refused = try await SluiceProcess.launch(["run", "--no-color", limited])
        #expect(refused.status == 1)
        // The head that declared it is shown, as curl -i --max-filesize shows it.
        #expect(refused.output.contains("✘ big  GET \(url)  200  "), "\(refused.output)")
        #expect(refused.output.contains("error: response too large in transport: the response declares a body of 67108865 bytes (Content-Length), past the limit of 67108864 bytes; none of it was read"), "\(refused.output)")
        #expect(refused.output.contains("raise the limit (max-response-size: in a pipeline file, maxResponseSize in Swift; none or nil for no limit), or stream the body to a file (output: in a pipeline file"), "\(refused.output)")
        let lifted = try directory.write("max-response-size: none\nrequests:\n  - name: big\n    path: \"\(url)\"\n", to: "lifted.yaml")
        #expect(try await SluiceProcess.launch(["run", "--no-color", lifted]).status == 0)
        let streamed = try directory.write("requests:\n  - name: big\n    path: \"\(url)\"\n    output: big.bin\n", to: "streamed.yaml")
        #expect(try await SluiceProcess.launch(["run", "--no-color", streamed]).status == 0)
    }

    @Test("a transport failure is an error line with its stage and kind; exit 1")
    func transportFailure() async throws {
        let port = try LoopbackSocket.unusedPort()
        let directory = try TemporaryDirectory()
        let path = try directory.write("requests:\n  - name: refused\n    path: http://127.0.0.1:\(port)/\n", to: "p.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(result.status == 1)
        #expect(result.output.contains("\(path):2:5: error: connection failed in transport: "), "\(result.output)")
    }

    @Test("validate: every error of every file as FILE:LINE:COLUMN: error: MESSAGE, exit 2; valid files print ok")
    func validate() async throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.write("""
            stages:
              - url-resolution:
                  base-url: ${missing}
              - serialization: { format: yaml }
            requests:
              - path: x
                expect: { body: { "$[?@.a == 1 && @.b == 'c' || match(@.d, '[b-a]')]": 1 } }
            """, to: "p.yaml")
        let empty = try directory.write("stages: [\n", to: "broken.yaml")
        let result = try await SluiceProcess.launch(["validate", bad, empty])
        #expect(result.status == 2)
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.error)")
        #expect(lines.contains { $0.hasPrefix("\(bad):3:17: error: undefined variable ${missing}") })
        #expect(lines.contains { $0.hasPrefix("\(bad):4:30: error: format must be one of form | json | plist | multipart, not 'yaml'") })
        #expect(lines.contains { $0.hasPrefix("\(bad):7:23: error: invalid JSONPath '$[?@.a == 1 && @.b == 'c' || match(@.d, '[b-a]')]': '[b-a]' is not an I-Regexp (RFC 9485): the range's end comes before its start, at character 2 of the pattern (at character 41)") })
        #expect(lines.contains { $0.hasPrefix("\(empty):2:1: error: ") })
        let run = try await SluiceProcess.launch(["run", bad])
        #expect(run.status == 2 && run.output.isEmpty)
        let good = try await SluiceProcess.launch(
            ["validate", "--vars-file", RunCommandTests.pipelines.appendingPathComponent("_fixtures/typed-vars.yaml").path, "--var", "note=2"]
                + RunCommandTests.examples().map { RunCommandTests.pipelines.appendingPathComponent($0).path },
            environment: ["API_TOKEN": "t", "CLIENT_SECRET": "s"]
        )
        #expect(good.status == 0 && !good.error.contains("warning: request"), "\(good.error)")
        #expect(good.output.contains("demo.yaml: ok (5 stages listed, 8 in the chain, 2 requests)"), "\(good.output)")
    }

    @Test("validate: a body file or part file that is not there, or is a directory, is a warning with its place; a templated path is checked once filled in, unless only a run can fill it")
    func validateWarnsOfUnsendableFiles() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.file("folder"), withIntermediateDirectories: false)
        _ = try directory.write("{}", to: "there.json")
        _ = try directory.write("{}", to: "row-1.json")
        _ = try FileNodes.fifo(at: directory.file("pipe").path)
        let path = try directory.write("""
            stages:
              - serialization: { format: multipart }
            requests:
              - { name: raw, method: POST, path: "http://127.0.0.1:9/", body-file: missing.json, capture: { f: $.f } }
              - { name: present, method: POST, path: "http://127.0.0.1:9/", body-file: there.json }
              - name: parts
                method: POST
                path: http://127.0.0.1:9/
                parts:
                  - { name: a, file: folder }
                  - { name: b, file: "${dir}/anything" }
                  - { name: c, file: there.json }
                  - { name: d, file: pipe }
              - { name: captured, method: POST, path: "http://127.0.0.1:9/", body-file: "${f}" }
              - { name: computed, method: POST, path: "http://127.0.0.1:9/", body-file: "${uuid}.json" }
              - { name: secret, method: POST, path: "http://127.0.0.1:9/", body-file: "${env.SLUICE_TEST_FOLDER}/x.json" }
              - { name: rows, for-each: [{ n: 1 }, { n: 2 }], method: POST, path: "http://127.0.0.1:9/", body-file: "row-${n}.json" }
            """, to: "p.yaml")
        let result = try await SluiceProcess.launch(["validate", "--var", "dir=nowhere", path], environment: ["SLUICE_TEST_FOLDER": "/hidden"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "\(path): ok (1 stage listed, 5 in the chain, 8 requests)\n")
        // A capture (only a run gives it) and a function (a new value each time) are not filled
        // in; a FIFO is sent as read; a path from the environment, a secret, is named as written.
        #expect(result.error == """
            \(path):4:72: warning: request raw sends missing.json, which does not exist (\(directory.file("missing.json").path)): a run fails the request unless the file is there by then
            \(path):10:26: warning: request parts sends folder, a directory, not a file: a run fails the request
            \(path):11:26: warning: request parts sends ${dir}/anything (\(directory.file("nowhere/anything").path)), which does not exist: a run fails the request unless the file is there by then
            \(path):16:75: warning: request secret sends ${env.SLUICE_TEST_FOLDER}/x.json, which does not exist: a run fails the request unless the file is there by then
            \(path):17:105: warning: request rows [n=2] sends row-${n}.json (\(directory.file("row-2.json").path)), which does not exist: a run fails the request unless the file is there by then

            """, "\(result.error)")
    }

    @Test("a --var nothing reads is warned of on standard error, with the near name; the run goes on; Hurl's --variable and --variables-file are taken")
    func unreadVariable() async throws {
        let path = RunCommandTests.pipelines.appendingPathComponent("demo.yaml").path
        for command in ["validate", "curl"] {
            let result = try await SluiceProcess.launch([command, "--var", "bsae=http://prod.example", path])
            #expect(result.error.contains("sluice: warning: --var bsae: nothing in \(path) reads ${bsae}; did you mean base?"), "\(command): \(result.error)")
        }
        let read = try await SluiceProcess.launch(["validate", "--var", "base=http://h", path])
        #expect(!read.error.contains("warning: --var"), "\(read.error)")
        // Hurl's spellings, --variable and --variables-file, are taken as --var and --vars-file.
        let directory = try TemporaryDirectory()
        let dotenv = try directory.write("base=http://h\n", to: "vars.env")
        let hurlSpelling = try await SluiceProcess.launch(["validate", "--variable", "bsae=x", "--variables-file", dotenv, path])
        #expect(hurlSpelling.status == 0 && hurlSpelling.error.contains("--var bsae: nothing in"), "\(hurlSpelling.error)")
        // A name no ${...} can read is refused, as a variables file's is.
        for (variable, reason) in [("bad name=1", "is not a variable name"), ("env.HOME=x", "is not a variable name"), ("now=1", "the name of a template function")] {
            let refused = try await SluiceProcess.launch(["validate", "--var", variable, path])
            #expect(refused.status == 2 && refused.error.contains("--var '\(variable)': ") && refused.error.contains(reason), "\(variable): \(refused.error)")
        }
    }

    @Test("a --header line with a blank before its name or its colon is no field line: refused before anything is sent, as send -H refuses it")
    func headerLineWithBlanks() async throws {
        let path = RunCommandTests.pipelines.appendingPathComponent("demo.yaml").path
        for line in ["X-D : v", " X-Lead: v"] {
            let refused = try await SluiceProcess.launch(["run", "--header", line, "--var", "base=http://127.0.0.1:1", path])
            #expect(refused.status == 2 && refused.error.contains("write NAME: VALUE"), "\(line): \(refused.error)")
        }
    }

    @Test("two header-injection stages: one field set by both is refused at load naming both; the defaults come from the first unless the other sets the field; none sends none; the order listed changes nothing")
    func twoHeaderInjections() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let recorder = servers.scenario.appendingPathComponent("raw/two").absoluteString
        func file(_ name: String, _ first: String, _ second: String) throws -> String {
            try directory.write("stages:\n  - header-injection: \(first)\n  - header-injection: \(second)\nrequests:\n  - path: \(recorder)\n", to: name)
        }
        let both = try file("both.yaml", "{ headers: { X-Env: staging }, user-agent: ua-A }", "{ headers: { x-env: prod }, user-agent: ua-B }")
        let refused = try await SluiceProcess.launch(["validate", both])
        #expect(refused.status == 2, "\(refused.error)")
        #expect(refused.error.contains("both.yaml:3:5: error: two 'header-injection' stages both set x-env (at \(both):2:5 and at \(both):3:5)"), "\(refused.error)")
        #expect(refused.error.contains("both set User-Agent"), "\(refused.error)")
        let headerAndOption = try file("ua.yaml", "{ user-agent: ua-A }", "{ headers: { User-Agent: ua-B } }")
        #expect(try await SluiceProcess.launch(["validate", headerAndOption]).error.contains("both set User-Agent"))

        // The fields the run sent, as --verbose prints them.
        func sent(_ path: String) async throws -> Set<String> {
            let run = try await SluiceProcess.launch(["run", "--no-color", "--verbose", path])
            let lines = (run.output + run.error).split(separator: "\n").filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
            return Set(lines.filter { line in ["User-Agent:", "Accept-Language:", "X-A:", "X-B:"].contains { line.hasPrefix($0) } })
        }
        for (first, second) in [("{ headers: { X-A: \"1\" }, user-agent: none, accept-language: none }", "{ headers: { X-B: \"2\" } }")] {
            for (name, order) in [("none1.yaml", (first, second)), ("none2.yaml", (second, first))] {
                let headers = try await sent(try file(name, order.0, order.1))
                #expect(headers == ["X-A: 1", "X-B: 2"], "\(name): \(headers)")
            }
        }
        let mine = try file("mine.yaml", "{ headers: { X-A: \"1\" }, accept-language: fr }", "{ user-agent: mine }")
        #expect(try await sent(mine) == ["X-A: 1", "Accept-Language: fr", "User-Agent: mine"])
    }

    @Test("--format json: one document with results and summary, as the format page says")
    func jsonOutput() async throws {
        let servers = try TestServers.load()
        let result = try await SluiceProcess.launch(["run", "--format", "json", "--var", "base=\(servers.httpbin.absoluteString)", RunCommandTests.pipelines.appendingPathComponent("demo.yaml").path])
        #expect(result.status == 0, "\(result.error)")
        let document = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(document["pipeline"] as? String == "httpbin-demo")
        #expect(document["summary"] as? [String: Int] == ["passed": 2, "failed": 0, "skipped": 0])
        let results = try #require(document["results"] as? [[String: Any]])
        // The format page's keys, and the extensions (size, headers, cache, file, line, tags, skipped, attempts, not-judged).
        #expect(
            Set(results[0].keys) == [
                "name", "method", "url", "status", "size", "headers", "duration-ms", "total-ms", "cache", "ok", "file", "line", "tags", "skipped", "attempts",
                "error", "failures", "not-judged", "decoded",
            ]
        )
        #expect(results[0]["cache"] is NSNull)
        #expect(results[0]["status"] as? Int == 200 && results[0]["ok"] as? Bool == true && results[0]["error"] is NSNull)
        #expect((results[0]["decoded"] as? [String: Any])?["args"] as? [String: String] == ["q": "swift", "page": "2"])
    }

    @Test("--dry-run sends nothing and shows every request after the request-side stages")
    func dryRun() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let marker = UUID().uuidString
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.nginxHTTP.absoluteString)" }
              - header-injection: { user-agent: none, accept-language: none, headers: { X-Run: dry } }
              - serialization: { format: json }
            requests:
              - { name: post, method: POST, path: "upload?marker=\(marker)", parameters: { a: [1, true] } }
              - { name: get, path: "hello.txt?marker=\(marker)" }
            """, to: "p.yaml")
        let json = try await SluiceProcess.launch(["run", "--dry-run", "--format", "json", path])
        #expect(json.status == 0, "\(json.error)")
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let requests = try #require(document["requests"] as? [[String: Any]])
        #expect(requests[0]["url"] as? String == "\(servers.nginxHTTP.absoluteString)/upload?marker=\(marker)")
        #expect(requests[0]["headers"] as? [[String]] == [["X-Run", "dry"], ["Content-Type", "application/json"]])
        #expect(requests[0]["body"] as? String == #"{"a":[1,true]}"#)
        #expect(requests[0]["body-base64"] is NSNull && requests[1]["body"] is NSNull)
        let text = try await SluiceProcess.launch(["run", "--dry-run", "--no-color", path])
        #expect(text.output.hasPrefix("# post\nPOST \(servers.nginxHTTP.absoluteString)/upload?marker=\(marker)\nX-Run: dry\nContent-Type: application/json\n\n{\"a\":[1,true]}\n"))
        let log = try String(contentsOfFile: servers.nginxAccessLog, encoding: .utf8)
        #expect(!log.contains(marker))
    }

    @Test("--dry-run: a capture's placeholder shows as written in the URL; a body file a run could not send is the request's error")
    func dryRunPlaceholdersAndBodyFiles() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - { name: login, path: "http://127.0.0.1:9/login", capture: { n: $.id } }
              - { name: upload, method: POST, path: "http://127.0.0.1:9/upload", body-file: missing.json }
              - { name: item, path: "http://127.0.0.1:9/items/${n}?of=${n}" }
            """, to: "p.yaml")
        let text = try await SluiceProcess.launch(["run", "--dry-run", "--no-color", path])
        #expect(text.status == 1, "\(text.output)")
        #expect(text.output.contains("# upload\n\(path):3:5: error: file I/O failure in transport for http://127.0.0.1:9/upload: cannot read upload file \(directory.file("missing.json").path): No such file or directory\n"), "\(text.output)")
        #expect(text.output.contains("# item\nGET http://127.0.0.1:9/items/<n>?of=<n>\n"), "\(text.output)")
        let json = try await SluiceProcess.launch(["run", "--dry-run", "--format", "json", path])
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let requests = try #require(document["requests"] as? [[String: Any]])
        #expect(requests[2]["url"] as? String == "http://127.0.0.1:9/items/<n>?of=<n>")
        #expect((requests[1]["error"] as? [String: Any])?["kind"] as? String == "file I/O failure" && requests[1]["body"] == nil, "\(json.output)")
        // A curl command names the file, which may be there by the time it runs: written as it is.
        let curl = try await SluiceProcess.launch(["curl", path])
        #expect(curl.status == 0, "\(curl.error)")
        #expect(curl.output.contains("curl http://127.0.0.1:9/upload"), "\(curl.output)")
        #expect(curl.output.contains("curl 'http://127.0.0.1:9/items/<n>?of=<n>'"), "\(curl.output)")
    }

    @Test("--dry-run and sluice curl: a capture in the host and a function of a capture show as placeholders; an escape the user wrote stays")
    func dryRunPlaceholdersInHostAndFunctions() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - { name: login, path: "http://127.0.0.1:9/login", capture: { h: $.host, n: $.id, p: $.port } }
              - name: item
                method: POST
                path: "http://${h}/items/${base64(n)}?tag=%3Cb%3E&n=${n}"
                headers: { X-Token: "t ${urlencode(text(n))}", Content-Type: application/json }
                body: '{"token": "${base64url(n)}"}'
              - { name: port, path: "http://127.0.0.1:${p}/" }
            """, to: "p.yaml")
        let text = try await SluiceProcess.launch(["run", "--dry-run", "--no-color", path])
        #expect(text.output.contains("""
            # item
            POST http://<h>/items/<base64(n)>?tag=%3Cb%3E&n=<n>
            X-Token: t <urlencode(text(n))>
            """), "\(text.output)")
        #expect(text.output.contains("{\"token\": \"<base64url(n)>\"}"), "\(text.output)")
        // A port must be digits: no placeholder can stand there, and the dry run says why.
        #expect(text.output.contains("path 'http://127.0.0.1:<p>/' is not a URL reference with a capture's placeholder in it (a dry run shows no captured port)"), "\(text.output)")
        #expect(text.status == 1)
        let json = try await SluiceProcess.launch(["run", "--dry-run", "--format", "json", path])
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let requests = try #require(document["requests"] as? [[String: Any]])
        #expect(requests[1]["url"] as? String == "http://<h>/items/<base64(n)>?tag=%3Cb%3E&n=<n>")
        let curl = try await SluiceProcess.launch(["curl", "--only", "item", path])
        #expect(curl.output.contains("curl 'http://<h>/items/<base64(n)>?tag=%3Cb%3E&n=<n>'"), "\(curl.output)")
        #expect(curl.output.contains("-H 'X-Token: t <urlencode(text(n))>'"), "\(curl.output)")
    }

    @Test("--report junit:PATH writes JUnit XML with a testcase per request")
    func junitReport() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let report = directory.file("report.xml")
        let result = try await SluiceProcess.launch([
            "run", "--report", "junit:\(report.path)", "--var", "base=\(servers.httpbin.absoluteString)",
            RunCommandTests.pipelines.appendingPathComponent("chain.yaml").path,
        ])
        #expect(result.status == 0, "\(result.error)")
        let parser = try #require(XMLParser(contentsOf: report))
        let names = TestcaseNames()
        parser.delegate = names
        #expect(parser.parse())
        #expect(names.testcases == ["issue-id", "create", "fetch", "title", "use-title", "teapot"])
    }

    final class TestcaseNames: NSObject, XMLParserDelegate {
        var testcases: [String] = []
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            if elementName == "testcase" { testcases.append(attributes["name"] ?? "") }
        }
    }

    @Test("load mode: N times each, C in flight; requests, errors, rps and latency percentiles, in text and JSON")
    func loadMode() async throws {
        let servers = try TestServers.load()
        let demo = RunCommandTests.pipelines.appendingPathComponent("demo.yaml").path
        let json = try await SluiceProcess.launch(["run", "--repeat", "40", "--concurrency", "4", "--only", "search", "--format", "json", "--var", "base=\(servers.httpbin.absoluteString)", demo])
        #expect(json.status == 0, "\(json.error)")
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let load = try #require(document["load"] as? [String: Any])
        #expect(load["requests"] as? Int == 40 && load["ok"] as? Int == 40 && load["errors"] as? Int == 0)
        #expect((load["rps"] as? Double ?? 0) > 0 && (load["seconds"] as? Double ?? 0) > 0)
        let latency = try #require(load["latency-ms"] as? [String: Double])
        #expect(Set(latency.keys) == ["p50", "p90", "p99", "p99.9", "max"])
        #expect(latency["p50"]! <= latency["p90"]! && latency["p90"]! <= latency["p99"]! && latency["p99"]! <= latency["p99.9"]! && latency["p99.9"]! <= latency["max"]!)
        #expect(load["mode"] as? String == "closed" && load["dropped"] as? Int == 0 && load["concurrency"] as? Int == 4)
        let text = try await SluiceProcess.launch(["run", "--repeat", "10", "--no-color", "--var", "base=\(servers.httpbin.absoluteString)", demo, "--only", "search"])
        #expect(text.status == 0)
        #expect(text.output.contains("requests  10  ok 10  errors 0") && text.output.contains("latency   p50 "), "\(text.output)")
        let captures = try await SluiceProcess.launch(["run", "--repeat", "2", "--var", "base=\(servers.httpbin.absoluteString)", demo])
        #expect(captures.status == 2 && captures.error.contains("uses ${origin}, a capture; load mode"))
        let failing = try await SluiceProcess.launch(["run", "--repeat", "3", "--format", "json", "--var", "base=\(servers.httpbin.absoluteString)/status/500#", demo, "--only", "search"])
        #expect(failing.status == 1)
        #expect(failing.output.contains(#""errors" : 3"#) || failing.output.contains(#""errors": 3"#), "\(failing.output)")
    }

    @Test("curl: each printed command, run by curl, sends what sluice sends")
    func curlExport() async throws {
        let servers = try TestServers.load()
        let path = RunCommandTests.pipelines.appendingPathComponent("serialization-form.yaml").path
        let result = try await SluiceProcess.launch(["curl", "--var", "base=\(servers.httpbin.absoluteString)", path])
        #expect(result.status == 0, "\(result.error)")
        let commands = result.output.split(separator: "\n").filter { $0.hasPrefix("curl ") }
        #expect(commands.count == 2)
        let sent = try await SluiceProcess.launch(["-c", String(commands[1]) + " --silent"], executable: URL(fileURLWithPath: "/bin/bash"))
        let echoed = try #require(JSONSerialization.jsonObject(with: Data(sent.output.utf8)) as? [String: Any])
        #expect(echoed["form"] as? [String: String] == ["q": "a&b=c", "empty": ""])
        let headers = try #require(echoed["headers"] as? [String: String])
        #expect(headers["User-Agent"]?.hasPrefix("sluice/") == true && headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test("curl: a quote or a double quote followed by a combining mark (U+0301) is still escaped: the command sends the value as written and runs nothing else")
    func curlExportQuotesCombiningMarks() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let marker = directory.file("pwned").path
        // Foundation's replacingOccurrences passes over a quote that a combining mark follows.
        let value = "a'\u{301}; touch \(marker); echo '\u{301}\"\u{301}$(touch \(marker))"
        let yaml = "requests:\n  - name: echo\n    path: \(servers.httpbin("headers").absoluteString)\n    headers:\n      X-Value: \"\(value.replacingCodePoints(of: "\"", with: "\\\""))\"\n"
        let path = try directory.write(yaml, to: "quotes.yaml")
        let exported = try await SluiceProcess.launch(["curl", path])
        let command = try #require(exported.output.split(separator: "\n").first { $0.hasPrefix("curl ") }, "\(exported.output)\(exported.error)")
        let sent = try await SluiceProcess.launch(["-c", String(command) + " --silent"], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(!FileManager.default.fileExists(atPath: marker), "\(command)")
        let echoed = try #require(JSONSerialization.jsonObject(with: Data(sent.output.utf8)) as? [String: Any], "\(sent.output)\(sent.error)")
        // httpbin reads header bytes as Latin-1: each of its characters is one byte sent.
        let header = (echoed["headers"] as? [String: String])?["X-Value"].map { String(decoding: $0.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }, as: UTF8.self) }
        #expect(header?.hasSameCodePoints(as: value) == true, "\(header ?? "none")")
    }

    @Test("curl: requests that share the run's cookie jar get a line that says so; the commands run with -b and -c as it says pass as sluice run does")
    func curlExportOfSharedCookies() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - name: set
                path: \(servers.httpbin("cookies/set?flavour=oat").absoluteString)
              - name: read
                path: \(servers.httpbin("cookies").absoluteString)
                expect:
                  body:
                    $.cookies.flavour: oat
            """, to: "cookies.yaml")
        #expect(try await SluiceProcess.launch(["run", path]).status == 0)
        let exported = try await SluiceProcess.launch(["curl", path])
        #expect(exported.output.hasPrefix("# sluice run keeps one cookie jar for these requests (the cookies each response sets); to do the same, give every command below -b cookies.txt -c cookies.txt\n"), "\(exported.output)")
        let commands = exported.output.split(separator: "\n").filter { $0.hasPrefix("curl ") }.map { $0 + " --silent -b cookies.txt -c cookies.txt" }
        let script = commands.joined(separator: " > /dev/null\n")
        let folder = directory.url.path
        let ran = try await offPool { try SluiceProcess.run(["-c", script], executable: URL(fileURLWithPath: "/bin/bash"), directory: folder) }
        let cookies = (try JSONSerialization.jsonObject(with: Data(ran.output.utf8)) as? [String: Any])?["cookies"] as? [String: String]
        #expect(cookies == ["flavour": "oat"], "\(ran.output)\(ran.error)")
        // One request, or a jar turned off, needs no such line.
        let alone = try await SluiceProcess.launch(["curl", "--only", "read", path])
        #expect(!alone.output.contains("cookie jar"), "\(alone.output)")
    }

    @Test("curl: a POST redirected by a 303 goes on as a GET in the exported command run by curl, as sluice run sends it")
    func curlExportOfRedirectedPost() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - name: post
                method: POST
                path: "\(servers.httpbin.absoluteString)/redirect-to?url=/anything&status_code=303"
                body: hello
                expect: { body: { $.method: GET } }
            """, to: "p.yaml")
        let run = try await SluiceProcess.launch(["run", path])
        #expect(run.status == 0, "\(run.output)")
        let exported = try await SluiceProcess.launch(["curl", path])
        let command = try #require(exported.output.split(separator: "\n").first { $0.hasPrefix("curl ") })
        #expect(!command.contains("-X POST") && command.contains("--data-binary hello"), "\(command)")
        let sent = try await SluiceProcess.launch(["-c", String(command) + " --silent"], executable: URL(fileURLWithPath: "/bin/bash"))
        let echoed = try #require(JSONSerialization.jsonObject(with: Data(sent.output.utf8)) as? [String: Any])
        #expect(echoed["method"] as? String == "GET", "\(sent.output)")
    }

    @Test("curl: a command that holds a capture's placeholder says so above it; a value given with --var is no placeholder")
    func curlExportNamesPlaceholders() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("captures.yaml").path
        try """
            requests:
              - name: login
                path: http://127.0.0.1:9/login
                capture: { token: $.token, user: $.user }
              - name: me
                path: http://127.0.0.1:9/users/${user}
                headers: { Authorization: "Bearer ${token}" }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await SluiceProcess.launch(["curl", path])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("# <") } == [
            "# <token>, <user> stand for values captured from earlier responses when the file runs: put the real ones in first"
        ], "\(result.output)")
        #expect(lines.firstIndex { $0.hasPrefix("# <") } == lines.firstIndex(of: "# me").map { $0 + 1 }, "\(result.output)")
        let given = try await SluiceProcess.launch(["curl", "--var", "user=zoe", path])
        #expect(given.output.contains("# <token> stands for a value captured from an earlier response when the file runs: put the real one in first\n"), "\(given.output)")
        #expect(given.output.contains("/users/zoe"), "\(given.output)")
    }

    @Test("curl: pinned-tls.yaml (a CA pin) exports a command that curl runs as sluice does, and says the pins are not exported")
    func curlExportOfPins() async throws {
        let servers = try TestServers.load()
        let path = RunCommandTests.pipelines.appendingPathComponent("pinned-tls.yaml").path
        let arguments = try #require(RunCommandTests.exampleArguments("pinned-tls.yaml", servers)).variables
        #expect(try await SluiceProcess.launch(["run"] + arguments + [path]).status == 0)
        let result = try await SluiceProcess.launch(["curl"] + arguments + [path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("# not exported: public-key pinning to \(servers.pins.ca)"), "\(result.output)")
        // curl's --pinnedpubkey with the CA pin fails where Sluice passes: the reason it is not exported.
        let commands = result.output.split(separator: "\n").filter { $0.hasPrefix("curl ") }
        #expect(commands.count == 2)
        #expect(!commands.contains { $0.contains("--pinnedpubkey") })
        for (command, extra) in [(commands[1], ""), (commands[1], " --pinnedpubkey '\(servers.pins.ca)'")] {
            let sent = try await SluiceProcess.launch(
                ["-c", String(command) + extra + " --silent --fail --output /dev/null"], executable: URL(fileURLWithPath: "/bin/bash")
            )
            #expect(sent.status == (extra.isEmpty ? 0 : 90), "\(command)\(extra)")
        }
    }

    @Test("curl: a pin beside allow-invalid-certificates is exported with --insecure, so curl refuses what sluice refuses; a client certificate as --cert, --key and --pass")
    func curlExportOfTrust() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let certificates = servers.certificates
        let path = try directory.write("""
            requests:
              - name: pinned
                path: ${base}/hello.txt
                stages:
                  - trust-evaluation: {pinning: public-key, pins: ["\(servers.pins.localhost)"], allow-invalid-certificates: true}
              - name: identity
                path: \(servers.nginxHTTPSClientAuth.absoluteString)/hello.txt
                stages:
                  - trust-evaluation:
                      ca-bundle: \(servers.caBundle)
                      client-certificate: \(certificates)/client.pem
                      client-key: \(certificates)/client-encrypted.key
                      client-key-password: client-key-pass
            """, to: "trust.yaml")
        for (base, status) in [(servers.nginxHTTPS, 0), (servers.nginxHTTPSInterceptor, 90)] {
            let variables = ["--var", "base=\(base.absoluteString)"]
            let run = try await SluiceProcess.launch(["run", "--only", "pinned"] + variables + [path])
            #expect(run.status == (status == 0 ? 0 : 1), "\(run.output)\(run.error)")
            let export = try await SluiceProcess.launch(["curl", "--show-secrets"] + variables + [path])
            let commands = export.output.split(separator: "\n").filter { $0.hasPrefix("curl ") }
            #expect(commands.count == 2 && commands[0].contains("--pinnedpubkey \(servers.pins.localhost) --insecure"), "\(export.output)")
            #expect(commands[1].contains("--cert \(certificates)/client.pem --key \(certificates)/client-encrypted.key --pass client-key-pass"), "\(export.output)")
            for (command, expected) in zip(commands, [status, 0]) {
                let sent = try await SluiceProcess.launch(["-c", String(command) + " --silent --output /dev/null"], executable: URL(fileURLWithPath: "/bin/bash"))
                #expect(sent.status == Int32(expected), "\(command): \(sent.error)")
            }
        }
        let hidden = try await SluiceProcess.launch(["curl", "--var", "base=\(servers.nginxHTTPS.absoluteString)", path])
        #expect(hidden.output.contains("--pass '***'") && !hidden.output.contains("client-key-pass"), "\(hidden.output)")
    }

    @Test("a secret in a binary body or a file's path is hidden: dry run's body-base64, sluice curl's base64 and paths")
    func secretsInBinaryBodiesAndPaths() async throws {
        let directory = try TemporaryDirectory()
        let secret = "S3cr3tValue9"
        try Data([0, 1, 0xFF, 0xFE]).write(to: directory.file("bin.dat"))
        try Data("x".utf8).write(to: directory.file("\(secret).bin"))
        let path = try directory.write("""
            stages:
              - serialization: { format: multipart }
            requests:
              - name: parts
                method: POST
                path: http://127.0.0.1:9/post
                parts:
                  - { name: f, file: bin.dat }
                  - { name: a, value: "${env.TOK}" }
                  - { name: g, file: "${env.TOK}.bin", filename: "${env.TOK}" }
              - name: raw
                method: POST
                path: http://127.0.0.1:9/raw
                body: !!binary AAH//g==
                headers: { X-Key: "${env.TOK}" }
              - name: file
                method: POST
                path: http://127.0.0.1:9/file
                body-file: ${env.TOK}.bin
            """, to: "binary.yaml")
        let dryRun = try await SluiceProcess.launch(["run", "--dry-run", "--format", "json", path], environment: ["TOK": secret])
        #expect(dryRun.status == 0, "\(dryRun.error)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(dryRun.output.utf8)) as? [String: Any])
        let requests = try #require(document["requests"] as? [[String: Any]])
        let encodedBody = try #require(requests[0]["body-base64"] as? String)
        let body = try #require(Data(base64Encoded: encodedBody))
        #expect(body.range(of: Data(secret.utf8)) == nil && body.range(of: Data("\r\n\r\n***\r\n".utf8)) != nil)
        #expect(!dryRun.output.contains(secret), "\(dryRun.output)")
        let exported = try await SluiceProcess.launch(["curl", path], environment: ["TOK": secret])
        #expect(exported.status == 0 && !exported.output.contains(secret) && exported.output.contains("--data-binary '@\(directory.url.path)/***.bin'"), "\(exported.output)")
        for line in exported.output.split(separator: "\n") where line.hasPrefix("echo ") {
            let encoded = try #require(line.split(separator: " ").dropFirst().first)
            #expect(Data(base64Encoded: String(encoded)).map { $0.range(of: Data(secret.utf8)) == nil } == true)
        }
    }

    @Test("secrets never appear: text, verbose, JSON, report, dry run and curl all show ***")
    func secretsRedacted() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let report = directory.file("report.xml")
        let secret = "tok-5f2b9c"
        let path = RunCommandTests.pipelines.appendingPathComponent("serialization-json.yaml").path
        let base = ["--var", "base=\(servers.httpbin.absoluteString)"]
        let runs = [
            ["run", "--verbose", "--report", "junit:\(report.path)"] + base + [path],
            ["run", "--verbose", "--format", "json"] + base + [path],
            ["run", "--dry-run"] + base + [path],
            ["run", "--dry-run", "--format", "json"] + base + [path],
            ["curl"] + base + [path],
        ]
        for arguments in runs {
            let result = try await SluiceProcess.launch(arguments, environment: ["API_TOKEN": secret])
            #expect(result.status == 0, "\(arguments): \(result.error)")
            #expect(!result.output.contains(secret) && !result.error.contains(secret), "\(arguments)")
            #expect(result.output.contains("***") || result.error.contains("***"), "\(arguments)")
        }
        #expect(try !String(contentsOf: report, encoding: .utf8).contains(secret))
        let shown = try await SluiceProcess.launch(["curl", "--show-secrets"] + base + [path], environment: ["API_TOKEN": secret])
        #expect(shown.output.contains("Authorization: Bearer \(secret)"))
    }

    @Test("stages lists every stage with its options; --help for every command; shell completion")
    func commandLine() async throws {
        let stages = try await SluiceProcess.launch(["stages"])
        for name in ["url-resolution", "header-injection", "serialization", "trust-evaluation", "response-decoding", "redirects"] {
            #expect(stages.output.contains("\n\(name)\n") || stages.output.hasPrefix("\(name)\n"), "\(name)")
        }
        #expect(stages.output.contains("    base-url: string (required)"))
        #expect(stages.output.contains("url-resolution\n    Resolves each request's path against a base URL (RFC 3986) and fills its {name} templates.\n    runs as: a call stage, rank 100\n"))
        #expect(stages.output.contains("cookies\n    Keeps cookies between requests (RFC 6265), every redirect hop included; sluice run adds it, with a new jar, to every pipeline that lists none.\n    runs as: a hop stage, rank 100\n"))
        let listed = stages.output.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init)
        #expect(listed.firstIndex(of: "response-decoding")! < listed.firstIndex(of: "retry")!, "listed in the order a chain runs them")
        #expect(listed.firstIndex(of: "redirects")! < listed.firstIndex(of: "cookies")!, "listed in the order a chain runs them")
        for name in ["retry", "aws-sigv4", "hmac-signature", "oauth2-client-credentials", "har-recorder"] {
            #expect(stages.output.contains("\n\(name)\n"), "the plugin module's stage \(name)")
        }
        for command in [[], ["run"], ["validate"], ["stages"], ["curl"], ["send"]] {
            let help = try await SluiceProcess.launch(command + ["--help"])
            #expect(help.status == 0 && help.output.contains("USAGE: sluice"), "\(command)")
        }
        for shell in ["bash", "zsh", "fish"] {
            let completion = try await SluiceProcess.launch(["--generate-completion-script", shell])
            #expect(completion.status == 0 && completion.output.contains("validate"), "\(shell)")
        }
    }

    @Test("stages --keys lists the keys of a pipeline file, a request and a group, from the descriptions the schema is made of")
    func keysListed() async throws {
        let keys = try await SluiceProcess.launch(["stages", "--keys"])
        #expect(keys.status == 0)
        #expect(keys.output.hasPrefix("a pipeline file\n    name: string (default the file's stem)\n"), "\(keys.output)")
        #expect(keys.output.contains("\na request\n    name: string (default METHOD path)\n"))
        #expect(keys.output.contains("\n    method: string (default GET)\n") && keys.output.contains("\n    path: string (required)\n"))
        #expect(keys.output.contains("\na group of requests\n    include: string\n"))
    }

    @Test("pipelines/schema.json is what `sluice stages --schema` prints (regenerate it with that command)")
    func schemaInSync() async throws {
        let committed = try String(contentsOf: RunCommandTests.pipelines.appendingPathComponent("schema.json"), encoding: .utf8)
        let generated = try await SluiceProcess.launch(["stages", "--schema"])
        #expect(generated.status == 0)
        #expect(committed == generated.output, "pipelines/schema.json is stale: run `swift run sluice stages --schema > pipelines/schema.json`")
    }

    @Test("command-line mistakes exit 2 with a message")
    func usageErrors() async throws {
        let demo = RunCommandTests.pipelines.appendingPathComponent("demo.yaml").path
        for arguments in [["run"], ["run", "--report", "xml:r", demo], ["run", "--concurrency", "2", demo], ["run", "--var", "novalue", demo], ["run", "--only", "nope", demo], ["bogus"]] {
            let result = try await SluiceProcess.launch(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(!result.error.isEmpty, "\(arguments)")
        }
    }
}
