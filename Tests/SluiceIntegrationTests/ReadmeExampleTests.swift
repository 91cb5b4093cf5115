import Foundation
import Testing
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import SluiceRetry
import SluiceHTTPTypes
import HTTPTypes

/// The stage from the README's "Using the library" example, as written there.
private struct Stamp: Stage {
    func handle(_ request: Request, context: TaskContext,
                next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        var request = request
        request.headers["X-Stamp"] = "\(context.id)"
        return try await next(request, context)
    }
}

@Suite("README examples")
struct ReadmeExampleTests {
    @Test("the 'Using the library' example runs against the local httpbin")
    func usingTheLibrary() async throws {
        let servers = try TestServers.load()
        let manager = SessionManager(pipeline: try Pipeline { Stamp() })
        let response = try await manager.send(Request(servers.httpbin("get").absoluteString))
        print(response.status, response.httpVersion, response.metrics?.timeToFirstByte ?? .zero)
        #expect(response.status == 200)
        #expect(response.httpVersion == .http1_1)
        let stamp = try #require((try response.jsonObject()["headers"] as? [String: String])?["X-Stamp"])
        #expect(stamp.hasPrefix("task-"))
    }
}

extension ReadmeExampleTests {
    @Test("the 'From Swift' pipeline example loads with a registered stage and runs the demo")
    func pipelineFromSwift() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("pipelines/demo.yaml").path
        var registry = StageRegistry.builtIn
        try registry.register(RetryModule.self)
        try registry.register(StageDescriptor(
            name: "stamp", summary: "Adds an X-Stamp header.", placement: .headerInjection,
            options: [OptionDescriptor("value", .string, required: true, summary: "The header's value.")]
        ) { options in
            HeaderInjection(headers: ["X-Stamp": options.string("value")!], userAgent: .none, acceptLanguage: .none)
        })
        let file = try PipelineFile.load(path: path, variables: ["base": base], registry: registry)
        let results = try await PipelineRunner(file: file).run()
        print(results.map { "\($0.name) \($0.ok)" })
        #expect(results.map(\.ok) == [true, true], "\(results.map(\.failures)) \(results.map(\.error))")
        let stamped = try PipelineFile.load(
            text: "stages:\n  - stamp: { value: s1 }\nrequests:\n  - path: \(base)/headers\n    expect: { body: { \"$.headers['X-Stamp']\": s1 } }\n",
            path: "stamp.yaml", registry: registry
        )
        #expect(try await PipelineRunner(file: stamped).run().map(\.ok) == [true])
    }
}

extension ReadmeExampleTests {
    @Test("the 'Built-in stages' example runs against the local httpbin")
    func builtInStages() async throws {
        let servers = try TestServers.load()
        let pipeline = try Pipeline(transport: servers.trustingTransport()) {
            try URLResolution(baseURL: servers.httpbin)
            HeaderInjection(headers: ["Accept": "application/json"], authorization: .bearer("token-123"))
            Serialization(format: .json)
            ResponseDecoding(format: .json)
        }
        let manager = SessionManager(pipeline: pipeline)
        let request = Request(method: .post, "anything/users/{id}", pathParameters: ["id": "42"],
                              parameters: ["login": "zoe", "admin": false])
        let response = try await manager.send(request)
        print(response.decoded?.value?["json"] ?? "no body")
        #expect(response.decoded?.value?["json"] == ["login": "zoe", "admin": false])
        #expect(response.decoded?.value?["json"]?.description == #"{"admin":false,"login":"zoe"}"#)
        #expect(response.decoded?.value?["headers"]?["Authorization"] == "Bearer token-123")
    }
}

extension ReadmeExampleTests {
    @Test("the 'Trust evaluation and pinning' example pins the local nginx")
    func pinning() async throws {
        let servers = try TestServers.load()
        let pins = try TrustPin.pins(from: servers.pins.localhost)
            + TrustPin.pins(from: "ca.pem", relativeTo: URL(fileURLWithPath: servers.certificates, isDirectory: true))
        let pipeline = try Pipeline(transport: CurlTransport()) {
            try URLResolution(baseURL: servers.nginxHTTPS)
            TrustEvaluation(policy: try TrustPolicy(pinning: .publicKey, pins: pins, caBundle: servers.caBundle))
        }
        let response = try await SessionManager(pipeline: pipeline).send(Request("hello.txt"))
        #expect(String(decoding: response.body, as: UTF8.self) == "hello from nginx\n")
    }
}

extension ReadmeExampleTests {
    @Test("the libcurl transport article's example (Sluice.docc/LibcurlTransport.md): a task group spread over transport.executors")
    func transportExecutorExample() async throws {
        let servers = try TestServers.load()
        let urls = (0..<8).map { servers.nginx($0.isMultiple(of: 2) ? "data.json" : "hello.txt") }
        // As written in the article.
        let transport = CurlTransport()
        let manager = SessionManager(pipeline: try Pipeline(transport: transport))
        let executors = transport.executors
        let statuses = await withTaskGroup(of: Int.self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask(executorPreference: executors[index % executors.count]) {
                    (try? await manager.send(Request(url: url)).status) ?? 0
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        await transport.shutdown()
    }
}

extension ReadmeExampleTests {
    @Test("the load testing article's example (Sluice.docc/LoadTesting.md) runs as written, on a shorter ramp")
    func loadTestingExample() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try LoadModeTests.pipeline(directory, path: "/hello.txt", name: "checkout")
        let base = servers.nginxHTTP.absoluteString
        // As written in the article, but for the path, the ramp and its length.
        let plan = LoadPlan(duration: .seconds(1), rate: LoadRate(from: 20, to: 60), concurrency: 256)
        let transport = CurlTransport(configuration: plan.transportConfiguration())
        let file = try PipelineFile.load(path: path, variables: ["base": base])
        let result = try await LoadRun(runner: PipelineRunner(file: file, transport: transport), plan: plan).run()
        #expect(result.requests == 40 && result.ok == 40 && result.dropped == 0, "\(result.requests) \(result.ok) \(result.dropped)")
        await transport.shutdown()
    }

    @Test("the JSONPath example's requests run as written against the local httpbin")
    func jsonPathFilters() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let marker = try #require(text.range(of: "JSONPath is the whole of RFC 9535"))
        let start = try #require(text.range(of: "```yaml\n", range: marker.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let requests = String(text[start.upperBound..<end.lowerBound])
        let pipeline = "stages:\n  - url-resolution: { base-url: \"\(base)\" }\n  - serialization: { format: json }\n  - response-decoding\n" + requests
        let file = try PipelineFile.load(text: pipeline, path: "readme-jsonpath.yaml")
        let results = try await PipelineRunner(file: file).run()
        #expect(results.map(\.ok) == [true], "\(results.map(\.failures)) \(results.map(\.error))")
        #expect(results.first?.captured["first-failed"] == 2, "a captured number stays a number")
    }
}

extension ReadmeExampleTests {
    @Test("the 'Streaming and server-sent events' examples run against the local servers")
    func streamingExamples() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let url = servers.nginx("medium.bin")
        let response = try await manager.stream(Request(url: url))
        var bytes = 0
        for try await piece in response.bodyStream! {
            bytes += piece.count
        }
        #expect(bytes == 3 << 20)

        let lines = AsyncStream<Data> { continuation in
            for line in ["first\n", "second\n"] { continuation.yield(Data(line.utf8)) }
            continuation.finish()
        }
        let upload = Request(method: .post, url: servers.httpbin("post"), body: .stream(RequestBodyStream(lines)))
        let uploaded = try await manager.send(upload)
        #expect(try uploaded.jsonObject()["data"] as? String == "first\nsecond\n")

        let feed = URL(string: servers.scenario.absoluteString + "/events/readme-\(UUID().uuidString)?count=3&retry=10")!
        var seen: [String] = []
        for try await event in manager.events(Request(url: feed), options: .init(maxReconnects: 5)) {
            print(event.type, event.lastEventID, event.data)
            seen.append(event.data)
        }
        #expect(seen == ["event 1", "event 2", "event 3"])
    }
}

extension ReadmeExampleTests {
    @Test("the swift-http-types example: an HTTPRequest sent through Sluice to httpbin, its response as an HTTPResponse")
    func httpTypesExample() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let url = servers.httpbin("headers")
        let request = try Request(HTTPRequest(method: .get, url: url, headerFields: [.accept: "application/json"]))
        let head = try HTTPResponse(try await manager.send(request))
        #expect(head.status == .ok)
        #expect(head.headerFields[.contentType] == "application/json")
    }
}
