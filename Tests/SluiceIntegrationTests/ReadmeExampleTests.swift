import Foundation
import Testing
import Sluice

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
        let manager = SessionManager(pipeline: Pipeline { Stamp() })
        let response = try await manager.send(Request(url: servers.httpbin("get")))
        print(response.status, response.httpVersion, response.metrics?.timeToFirstByte ?? .zero)
        #expect(response.status == 200)
        #expect(response.httpVersion == .http1_1)
        let stamp = try #require((try response.jsonObject()["headers"] as? [String: String])?["X-Stamp"])
        #expect(stamp.hasPrefix("task-"))
    }
}
