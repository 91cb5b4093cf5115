import Foundation
import Synchronization
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner

@Suite("Running pipeline files over an in-memory transport")
struct PipelineRunnerTests {
    /// A transport that answers every request with its method, URL, headers and body as JSON.
    private static let echo = InMemoryTransport { request in
        if request.url.path.contains("/status/") {
            return Response(status: Int(request.url.lastPathComponent) ?? 500, headers: ["Content-Type": "application/json"], body: Data(#"{"status":true}"#.utf8), url: request.url)
        }
        var headers = JSONObject()
        for field in request.headers { headers[field.name] = .string(field.value) }
        let body: JSONValue = [
            "method": .string(request.method.rawValue), "url": .string(request.url.absoluteString),
            "headers": .object(headers), "body": .string(String(decoding: RunReport.bodyBytes(request.body) ?? Data(), as: UTF8.self)),
        ]
        return Response(status: 200, headers: ["Content-Type": "application/json", "X-Token": "t-1"], body: Data(try JSONWriter().data(from: body)), url: request.url)
    }

    private func runner(_ text: String, variables: [String: String] = [:]) throws -> PipelineRunner {
        try PipelineRunner(file: try PipelineFile.load(text: text, path: "p.yaml", variables: variables, environment: ["SECRET": "hunter2"]), transport: PipelineRunnerTests.echo)
    }

    private static let stages = """
        stages:
          - url-resolution: { base-url: "http://api.test/v1" }
          - serialization: { format: json }
          - response-decoding
        """

    @Test("requests run in order; captures flow forward into paths, headers and bodies")
    func capturesFlow() async throws {
        let results = try await runner(PipelineRunnerTests.stages + """

            requests:
              - name: first
                path: items
                capture:
                  token: { header: X-Token }
                  method: $.method
              - name: second
                method: POST
                path: items/{id}
                path-parameters: { id: "${token}" }
                headers: { X-Seen: "${method}" }
                parameters: { from: "${token}" }
                expect:
                  body:
                    $.url: http://api.test/v1/items/t-1
                    "$.headers['X-Seen']": GET
                    $.body: '{"from":"t-1"}'
            """).run()
        #expect(results.map(\.name) == ["first", "second"])
        #expect(results.allSatisfy { $0.ok }, "\(results.map(\.failures))")
        #expect(results[0].captured == ["token": "t-1", "method": "GET"])
        #expect(results[1].url == "http://api.test/v1/items/t-1")
        #expect(results[1].sent?.headers["Content-Type"] == "application/json")
    }

    @Test("a request's variables: are set before it is rendered, typed, for it and the requests after it; !!binary sends bytes")
    func requestVariables() async throws {
        let results = try await runner(PipelineRunnerTests.stages + """

            requests:
              - name: first
                method: POST
                path: items/${id}
                variables: { id: 7, label: "${id}-x" }
                headers: { X-Label: "${label}" }
                body: !!binary "AAEC/w=="
                expect:
                  checks:
                    - { variable: id, is: integer }
                    - { jsonpath: "$.headers['X-Label']", equals: 7-x }
                    - { jsonpath: $.body, filters: [utf8-encode, count], equals: 6 }
              - name: later
                path: items/${id}
                expect: { body: { $.url: { ends-with: /items/7 } } }
            """).run()
        #expect(results.map(\.ok) == [true, true], "\(results.map(\.failures))")
        #expect(results[0].sent?.url.absoluteString == "http://api.test/v1/items/7")
        #expect(results[1].skipReason == nil && results[1].sent?.url.absoluteString == "http://api.test/v1/items/7", "a later request sees them: \(results[1].skipReason ?? "")")
        if case .data(let bytes)? = results[0].sent?.body { #expect(Array(bytes) == [0, 1, 2, 255]) } else { Issue.record("no bytes sent") }
        #expect(throws: PipelineFileError.self) {
            try PipelineFile.load(text: "requests:\n  - path: http://h/${later}\n  - path: http://h/\n    variables: { later: 1 }\n", path: "p.yaml")
        }
    }

    @Test("append-headers goes beside the injected header of that name; headers replaces it; remove-headers leaves one out")
    func appendedAndRemovedHeaders() async throws {
        let results = try await runner("""
            stages:
              - header-injection: { headers: { X-Team: core, X-Trace: on }, user-agent: none, accept-language: none }
              - response-decoding
            requests:
              - name: appended
                path: http://api.test/a
                append-headers: { x-team: [edge, web] }
                remove-headers: [X-Gone]
                expect:
                  body:
                    "$.headers['X-Team']": core
                    "$.headers['x-team']": web
              - name: replaced
                path: http://api.test/b
                headers: { X-Team: edge }
                expect:
                  body: { "$.headers['X-Team']": edge, "$.headers['X-Trace']": "on" }
            """).run()
        #expect(results.map(\.ok) == [true, true], "\(results.map(\.failures))")
        #expect(results[0].sent?.headers.values(for: "X-Team") == ["edge", "web", "core"], "the request's first, then the stage's")
        #expect(results[0].sent?.omittedHeaders == ["X-Gone"])
        #expect(results[1].sent?.headers.values(for: "X-Team") == ["edge"])
    }

    @Test("header-lines: whole NAME: VALUE lines, a variable may hold one, sent after headers: in order; a name remove-headers lists is not sent; a bad line is refused at load, or when filled in")
    func headerLines() async throws {
        let results = try await runner("""
            stages:
              - header-injection: { headers: { X-Team: core }, user-agent: none, accept-language: none }
            variables: { line: "X-Team:  from-variable ", name: X-Made, bad: "no colon" }
            requests:
              - name: lines
                path: http://api.test/a
                headers: { X-Team: own }
                header-lines: ["X-Team: from-line", "${line}", "${name}: made", "X-Gone: never", "X-Empty:"]
                remove-headers: [x-gone]
              - name: bad
                path: http://api.test/b
                header-lines: ["${bad}"]
            """).run()
        #expect(results[0].ok, "\(results[0].failures)")
        #expect(results[0].sent?.headers.values(for: "X-Team") == ["own", "from-line", "from-variable"], "the request's, in order; the stage's yields")
        #expect(results[0].sent?.headers["X-Made"] == "made" && results[0].sent?.headers["X-Empty"] == "")
        #expect(results[0].sent?.headers["X-Gone"] == nil)
        #expect(results[1].error?.message.contains("header-lines: a line is not NAME: VALUE once filled in") == true, "\(String(describing: results[1].error))")
        #expect(!(results[1].error?.message.contains("no colon") ?? true), "a line's text is not echoed: it may hold a secret")
        #expect(throws: PipelineFileError.self) {
            try PipelineFile.load(text: "requests:\n  - path: http://h/\n    header-lines: [\"Bad Name: x\"]\n", path: "p.yaml")
        }
    }

    @Test("${...} in a header's name is filled in, from a variable or a capture")
    func templatedHeaderName() async throws {
        let results = try await runner(PipelineRunnerTests.stages + """

            variables: { prefix: X-Custom }
            requests:
              - name: first
                path: items
                capture: { suffix: { header: X-Token } }
              - name: second
                path: items
                headers: { "${prefix}-Name": value, "X-${suffix}": captured }
                expect:
                  body:
                    "$.headers['X-Custom-Name']": value
                    "$.headers['X-t-1']": captured
            """).run()
        #expect(results.allSatisfy { $0.ok }, "\(results.map(\.failures))")
        #expect(results[1].sent?.headers["X-Custom-Name"] == "value")
        #expect(results[1].sent?.headers.contains { $0.name.contains("$") } == false)
    }

    @Test("an empty body: as text it is \"\", one space is \" \"; as JSON nothing exists in it, and a path read in it fails saying so")
    func emptyBodies() async throws {
        let transport = InMemoryTransport { request in
            let body = request.url.path == "/space" ? " " : ""
            return Response(status: 200, headers: ["Content-Type": "text/plain"], body: Data(body.utf8), url: request.url)
        }
        func run(format: String, _ expectations: String, path: String = "empty") async throws -> RequestResult {
            let text = """
                stages:
                  - response-decoding: { format: \(format), acceptable-content-types: ["*/*"] }
                requests:
                  - path: http://api.test/\(path)
                    expect:
                      body:
                \(expectations)
                """
            return try await PipelineRunner(file: try PipelineFile.load(text: text, path: "p.yaml"), transport: transport).run()[0]
        }
        #expect(try await run(format: "string", "        $: \"\"").ok)
        #expect(try await run(format: "string", "        $: \" \"", path: "space").ok)
        #expect(try await run(format: "string", "        $: { count: 0 }").ok)
        #expect(try await run(format: "json", "        $.a: { exists: false }").ok)
        #expect(try await run(format: "json", "        $.a: { exists: false }", path: "space").ok)
        let read = try await run(format: "json", "        $.a: 1")
        #expect(read.failures.map(\.description) == ["body $.a: expected a body to read $.a in, actual an empty body"])
    }

    @Test("an integer past 64 bits keeps its digits: from a --var into a body, from a body into a comparison and a capture")
    func bigIntegers() async throws {
        let sent = try await runner(PipelineRunnerTests.stages + """

            requests:
              - name: post
                method: POST
                path: items
                parameters: { n: "${n}", m: 18446744073709551617 }
                expect:
                  body:
                    $.body: '{"n":9223372036854775808,"m":18446744073709551617}'
            """, variables: ["n": "9223372036854775808"]).run()
        #expect(sent[0].ok, "\(sent[0].failures)")
        let transport = InMemoryTransport { request in
            Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"big":18446744073709551617,"f":1.5}"#.utf8), url: request.url)
        }
        let text = """
            stages: [response-decoding]
            requests:
              - name: read
                path: http://api.test/
                capture: { big: $.big }
                expect:
                  body:
                    $.big: { type: integer, gt: 18446744073709551616, lt: 18446744073709551618, not: 18446744073709551616 }
                    "$['big']": 18446744073709551617
                    $["big"]: 18446744073709551616
            """
        let read = try await PipelineRunner(file: try PipelineFile.load(text: text, path: "p.yaml"), transport: transport).run()[0]
        #expect(read.failures.map(\.description) == [#"body $["big"]: expected 18446744073709551616, actual 18446744073709551617"#])
        #expect(read.captured["big"] == .bigInteger("18446744073709551617"))
    }

    @Test("a request's own redirects: replace the stage's for it alone, ${...} filled in when it is sent")
    func requestsOwnRedirects() async throws {
        let transport = InMemoryTransport { request in
            switch request.url.path {
            case "/1": return Response(status: 302, headers: ["Location": "http://b.test/2"], url: request.url)
            case "/2": return Response(status: 302, headers: ["Location": "http://c.test/3"], url: request.url)
            default:
                let seen = request.headers["Authorization"] ?? "none"
                return Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"auth":"\#(seen)"}"#.utf8), url: request.url)
            }
        }
        let text = """
            stages:
              - header-injection: { headers: { Authorization: Bearer t } }
              - response-decoding: { acceptable-status: [200-399] }
            variables: { hops: 1 }
            requests:
              - { name: stop, path: http://a.test/1, redirects: { follow: false }, expect: { status: 302, headers: { Location: http://b.test/2 } } }
              - { name: few, path: http://a.test/1, redirects: { max-hops: "${hops}" } }
              - { name: trusted, path: http://a.test/1, redirects: { trusted: true }, expect: { body: { $.auth: Bearer t } } }
              - { name: default, path: http://a.test/1, expect: { body: { $.auth: none } } }
            """
        let results = try await PipelineRunner(file: try PipelineFile.load(text: text, path: "p.yaml"), transport: transport).run()
        #expect(results.map(\.name) == ["stop", "few", "trusted", "default"])
        #expect(results.map(\.ok) == [true, false, true, true], "\(results.map(\.failures))")
        #expect(results[1].error?.kind == SluiceError.Kind.tooManyRedirects.description)
    }

    @Test("a capture that finds nothing fails its request, and the requests that need it are skipped")
    func missingCapture() async throws {
        let results = try await runner(PipelineRunnerTests.stages + """

            requests:
              - name: first
                path: items
                capture: { id: $.nothing }
              - name: second
                path: items/${id}
              - name: third
                path: other
            """).run()
        #expect(results.map(\.ok) == [false, true, true])
        #expect(results[0].failures.map(\.description) == ["capture id: expected a value to capture, actual none in the response"])
        #expect(results[1].isSkipped && results[1].error == nil)
        #expect(results[1].skipReason == "${id} has no value: request 'first' did not capture it")
    }

    @Test("after a failure every check is reported: those of the head judged when a head came, the others named as not judged, in every report")
    func checksBesideAFailure() async throws {
        // A body cut short after a 200 head, as libcurl's transport reports it; no response at all.
        let transport = InMemoryTransport { request in
            guard request.url.path == "/cut" else { throw SluiceError(kind: .connect, stage: "transport", message: "refused") }
            throw SluiceError(
                kind: .connectionLost, stage: "transport", message: "transfer closed with 90 bytes remaining to read",
                response: Response(status: 200, headers: ["Content-Length": "100", "X-Id": "7"], body: Data("{\"a\":".utf8), url: request.url)
            )
        }
        let file = try PipelineFile.load(text: """
            requests:
              - name: cut
                path: http://api.test/cut
                expect:
                  status: 201
                  headers: { X-Id: "7", Content-Length: "99" }
                  body: { $.a: 1 }
                  checks:
                    - { header: X-Id, equals: "7" }
                    - { cookie: session, exists: true }
                capture: { id: { header: X-Id } }
              - name: refused
                path: http://api.test/none
                expect: { status: 200 }
              - name: uses
                path: "http://api.test/${id}"
            """, path: "p.yaml")
        let runner = try PipelineRunner(file: file, transport: transport)
        let results = try await runner.run()
        // The head's checks judged: the status and one header field fail, the other passes.
        #expect(results[0].error?.kind == "connection lost")
        #expect(results[0].failures.map(\.label) == ["status", "headers.Content-Length"], "\(results[0].failures)")
        #expect(results[0].notJudged?.reason == "the exchange failed after the response head came")
        #expect(results[0].notJudged?.items.map(\.label) == ["body $.a", "cookie session exists", "capture id"], "\(String(describing: results[0].notJudged))")
        #expect(results[0].captured.isEmpty)
        #expect(results[1].failures.isEmpty && results[1].notJudged == RequestResult.NotJudged(reason: "no response came", items: results[1].expectations))
        #expect(results[2].skipReason == "${id} has no value: request 'cut' did not capture it")
        let json = RunReport.json(pipeline: "p", results: results, redactor: runner.redactor)
        let expected: JSONValue = ["reason": "no response came", "checks": [["expectation": "status", "line": 14, "column": 23]]]
        #expect(json["results"]?[1]?["not-judged"] == expected)
        #expect(json["results"]?[2]?["not-judged"] == JSONValue.null)
        let suite = RunReport.Suite(file: "p.yaml", pipeline: "p", results: results)
        let junit = RunReport.junit([suite], redactor: runner.redactor)
        #expect(junit.contains("p.yaml:5:15: status: expected 201, actual 200&#10;p.yaml:6:29: headers.Content-Length: expected 99, actual 100&#10;p.yaml:2:5: transport: transfer closed with 90 bytes remaining to read&#10;not judged (the exchange failed after the response head came): body $.a (line 7), cookie session exists (line 10), capture id (line 11)&#10;response: status 200"), "\(junit)")
        #expect(junit.contains(#"<error message="refused" type="connection failed">p.yaml:12:5: transport: refused&#10;not judged (no response came): status (line 14)</error>"#))
        let tap = RunReport.tap(RunReport.Run(suites: [suite]), redactor: runner.redactor)
        #expect(tap.contains(#"  not-judged: "not judged (no response came): status (line 14)""#), "\(tap)")
        let html = RunReport.html(RunReport.Run(suites: [suite]), redactor: runner.redactor)
        #expect(html.contains("<code>headers.X-Id</code> <span class=\"muted\">line 6</span></li>"), "\(html)")
        #expect(html.contains("<code>body $.a</code> <span class=\"muted\">line 7</span> <span class=\"muted\">not judged: the exchange failed after the response head came</span>"))
    }

    @Test("--fail-fast stops after the first failure, the rest skipped and said so; --only selects by name")
    func failFastAndOnly() async throws {
        let runner = try runner(PipelineRunnerTests.stages + """

            requests:
              - { name: a, path: status/500 }
              - { name: b, path: items }
              - { name: c, path: items, capture: { x: $.method } }
              - { name: d, path: "items/${x}" }
              - { name: e, path: items, when: exists x }
              - { name: f, path: items, when: "x == 'GET'" }
            """)
        // What --fail-fast leaves unsent is skipped, with why: every report counts it.
        let stopped = try await runner.run(failFast: true)
        #expect(stopped.map(\.name) == ["a", "b", "c", "d", "e", "f"])
        #expect(stopped.map(\.skipReason) == [nil] + Array(repeating: "--fail-fast stopped the run after 'a' failed", count: 5))
        #expect(stopped.dropFirst().allSatisfy { $0.sent == nil && $0.response == nil })
        #expect(try await runner.run(selection: RequestSelection(only: ["b"])).map(\.name) == ["b"])
        #expect(try await runner.run(selection: RequestSelection(only: ["c", "d"])).map(\.ok) == [true, true])
        let unknown = await #expect(throws: SluiceError.self) { try await runner.run(selection: RequestSelection(only: ["zz"])) }
        #expect(unknown?.kind == .configuration)
        let orphan = await #expect(throws: SluiceError.self) { try await runner.run(selection: RequestSelection(only: ["d"])) }
        #expect(orphan?.message.contains("leaves out request 'c', which captures ${x} for 'd'") == true)
        // `exists x` judges a missing capture itself; a comparison needs the value.
        let alone = try await runner.run(selection: RequestSelection(only: ["e"]))
        #expect(alone.map(\.skipReason) == ["when: exists x does not hold"])
        let compared = await #expect(throws: SluiceError.self) { try await runner.run(selection: RequestSelection(only: ["f"])) }
        #expect(compared?.message.contains("leaves out request 'c', which captures ${x} for 'f'") == true)
    }

    @Test("a selection that leaves out several captures names them all at once, each once, with every --var that would stand in")
    func everyMissingCapture() async throws {
        let runner = try runner(PipelineRunnerTests.stages + """

            requests:
              - { name: login, path: items, capture: { token: $.method } }
              - { name: order, path: items, capture: { id: $.method } }
              - { name: fetch, path: "items/${id}?t=${token}" }
              - { name: again, path: "items/${id}" }
            """)
        let error = await #expect(throws: SluiceError.self) { try await runner.run(selection: RequestSelection(only: ["fetch", "again"])) }
        #expect(error?.message == "the selection leaves out requests whose captures the selected ones use: 'login' captures ${token} for 'fetch'; 'order' captures ${id} for 'fetch'; select them too, or pass --var token=VALUE --var id=VALUE")
    }

    @Test("each runner makes its run's stages: two runs of one file, or of the file loaded twice, share no cookie jar or HSTS store")
    func runsShareNoState() async throws {
        let text = """
            requests:
              - { name: login, path: "http://api.test/login" }
            """
        let transport = InMemoryTransport { request in Response(status: 200, headers: ["Set-Cookie": "session=s1; Path=/"], url: request.url) }
        let file = try PipelineFile.load(text: text, path: "p.yaml", environment: [:])
        let first = try PipelineRunner(file: file, transport: transport)
        let second = try PipelineRunner(file: file, transport: transport)
        let reloaded = try PipelineRunner(file: try PipelineFile.load(text: text, path: "p.yaml", environment: [:]), transport: transport)
        #expect(try await first.run().allSatisfy(\.ok))
        let url = try #require(URL(string: "http://api.test/"))
        #expect(first.state.cookies.jar.cookies(for: url).map(\.name) == ["session"])
        #expect(second.state.cookies.jar.cookies(for: url).isEmpty && reloaded.state.cookies.jar.cookies(for: url).isEmpty)
        #expect(first.state.cookies.jar !== second.state.cookies.jar && first.state.hsts.store !== second.state.hsts.store)
        #expect(try await second.run().allSatisfy(\.ok))
        #expect(second.state.cookies.jar.cookies(for: url).map(\.name) == ["session"])
    }

    @Test("response decoding's status check yields to the request's own expect.status")
    func expectedStatusWins() async throws {
        let results = try await runner(PipelineRunnerTests.stages + """

            requests:
              - { name: expected, path: status/404, expect: { status: 404, body: { $.status: true } } }
              - { name: unexpected, path: status/404 }
            """).run()
        #expect(results[0].ok && results[0].status == 404)
        #expect(results[1].error?.kind == "unacceptable status" && results[1].error?.stage == "response-decoding")
    }

    @Test("a dry run passes every request through the request-side stages and sends nothing")
    func dryRun() async throws {
        let sent = Atomic<Int>(0)
        let file = try PipelineFile.load(text: PipelineRunnerTests.stages + """

            requests:
              - { name: login, method: POST, path: login, parameters: { user: ada }, capture: { token: $.token } }
              - { name: use, path: "items/${token}", headers: { Authorization: "Bearer ${env.SECRET}" } }
              - { name: own, path: "pages/${page}", variables: { page: 7 } }
              - { name: after, path: "pages/${page}" }
            """, path: "p.yaml", environment: ["SECRET": "hunter2"])
        let runner = try PipelineRunner(file: file, transport: InMemoryTransport { _ in sent.add(1, ordering: .relaxed); return Response(status: 200) })
        let prepared = try await runner.prepare()
        #expect(sent.load(ordering: .relaxed) == 0)
        let login = try prepared[0].result.get()
        #expect(login.url.absoluteString == "http://api.test/v1/login")
        #expect(RunReport.bodyBytes(login.body) == Data(#"{"user":"ada"}"#.utf8))
        let use = try prepared[1].result.get()
        #expect(use.url.absoluteString == "http://api.test/v1/items/%3Ctoken%3E")
        // A request's own variables: are set as a run sets them, for it and those after it.
        #expect(try prepared[2].result.get().url.absoluteString == "http://api.test/v1/pages/7")
        #expect(try prepared[3].result.get().url.absoluteString == "http://api.test/v1/pages/7")
        let document = RunReport.dryRunJSON(pipeline: "p", prepared: prepared, redactor: runner.redactor)
        let text = try JSONWriter().string(from: document)
        #expect(text.contains(#"["Authorization","Bearer ***"]"#) && !text.contains("hunter2"))
        #expect(document["requests"]?[0]?["body"] == #"{"user":"ada"}"#)
        #expect(document["requests"]?[0]?["body-base64"] == .null)
    }

    @Test("a dry run judges when: and skip: as the run would, on what is known before it; a condition that reads a capture is left to the run")
    func dryRunConditions() async throws {
        let runner = try runner(PipelineRunnerTests.stages + """

            variables: { stage: prod }
            requests:
              - { name: login, path: login, capture: { id: $.url } }
              - { name: staging, path: a, when: "stage == 'staging'" }
              - { name: not in prod, path: b, skip: "stage == 'prod'" }
              - { name: needs id, path: "c/${id}", when: exists id }
              - { name: plain, path: d }
            """)
        let prepared = try await runner.prepare()
        #expect(prepared.map(\.skipReason) == [nil, "when: stage == 'staging' does not hold", "skip: stage == 'prod' holds", nil, nil])
        #expect(try prepared[3].result.get().url.absoluteString == "http://api.test/v1/c/%3Cid%3E")
        let document = RunReport.dryRunJSON(pipeline: "p", prepared: prepared, redactor: runner.redactor)
        #expect(document["requests"]?[1]?["skipped"] == "when: stage == 'staging' does not hold")
        #expect(document["requests"]?[1]?["error"] == nil && document["requests"]?[0]?["skipped"] == nil)
    }

    @Test("the JSON document has the keys the format names, secrets redacted")
    func jsonDocument() async throws {
        let runner = try runner(PipelineRunnerTests.stages + """

            requests:
              - { name: a, path: "items?key=${env.SECRET}", expect: { status: 201 } }
            """)
        let results = try await runner.run()
        let document = RunReport.json(pipeline: "p", results: results, redactor: runner.redactor)
        let result = try #require(document["results"]?[0])
        guard case .object(let members) = result else { throw Failure("not an object") }
        // The format page's keys, and this runner's own: the response's size and headers, what a cache did.
        #expect(
            members.keys == [
                "name", "method", "url", "status", "size", "headers", "duration-ms", "total-ms", "cache", "ok", "file", "line", "tags", "skipped", "attempts", "error",
                "failures", "not-judged", "decoded",
            ]
        )
        #expect(result["url"] == "http://api.test/v1/items?key=***")
        #expect(result["ok"] == false && result["status"] == 200)
        #expect(result["failures"]?[0]?["expectation"] == "status" && result["failures"]?[0]?["line"] == 6)
        #expect(result["decoded"]?["url"] == "http://api.test/v1/items?key=***")
        #expect(document["summary"] == ["passed": 0, "failed": 1, "skipped": 0])
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
