import Foundation
import Testing
import Sluice
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceRetry

/// The README's examples, each as written there (`DocumentationExampleTests` checks that every
/// Swift block of the README is in one of these files), run against the local httpbin. What the
/// README leaves to its reader (`base`, an httpbin's address) is bound first.
@Suite("README examples")
struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("'A JSON API': the built-in stages send JSON and decode the echo")
    func jsonAPI() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let manager = SessionManager(pipeline: try Pipeline {
            try URLResolution(baseURL: base)
            HeaderInjection(headers: ["Accept": "application/json"], authorization: .bearer("token-123"))
            Serialization(format: .json)
            ResponseDecoding(format: .json)
        })
        let request = Request(method: .post, "anything/users/{id}", pathParameters: ["id": "42"],
                              parameters: ["login": "zoe", "admin": false])
        let response = try await manager.send(request)
        print(response.decoded?.value?["json"] ?? "no body")   // {"admin":false,"login":"zoe"} (httpbin sorts keys)
        #expect(response.decoded?.value?["json"] == ["login": "zoe", "admin": false])
        #expect(response.decoded?.value?["json"]?.description == #"{"admin":false,"login":"zoe"}"#)
        #expect(response.decoded?.value?["headers"]?["Authorization"] == "Bearer token-123")
        #expect(response.decoded?.value?["url"]?.stringValue == base + "/anything/users/42")
    }

    @Test("'A stage of your own': the stage's header reaches httpbin")
    func stageOfYourOwn() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        struct Stamp: Stage {
            func handle(_ request: Request, context: TaskContext,
                        next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                var request = request
                request.headers["X-Stamp"] = "\(context.id)"
                return try await next(request, context)
            }
        }

        let manager = SessionManager(pipeline: try Pipeline { Stamp() })
        let response = try await manager.send(Request("\(base)/headers"))
        print(response.status, response.httpVersion, response.metrics?.timeToFirstByte ?? .zero)
        #expect(response.status == 200)
        #expect(response.httpVersion == .http1_1)
        let stamp = try #require((try response.jsonObject()["headers"] as? [String: String])?["X-Stamp"])
        #expect(stamp.hasPrefix("task-"))
    }

    @Test("'A body as it arrives': a streamed body is counted piece by piece")
    func bodyAsItArrives() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let manager = SessionManager(pipeline: try Pipeline {})
        let response = try await manager.stream(Request("\(base)/stream-bytes/102400"))
        var bytes = 0
        for try await piece in response.bodyStream! {
            bytes += piece.count
        }
        #expect(response.status == 200)
        #expect(bytes == 102_400)
    }

    @Test("the README's pipeline loads and passes against the local httpbin")
    func pipeline() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```yaml\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        var registry = StageRegistry.builtIn
        try registry.register(RetryModule.self)
        let file = try PipelineFile.load(
            text: String(readme[start.upperBound..<end.lowerBound]), path: "README.yaml", variables: ["base": base],
            registry: registry
        )
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        #expect(results.map(\.name) == ["search", "echo-origin"])
        #expect(results.map(\.ok) == [true, true], "\(results.map(\.failures)) \(results.map(\.error))")
    }
}
