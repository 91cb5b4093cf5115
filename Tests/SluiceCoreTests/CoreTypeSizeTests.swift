import Foundation
import Testing

@testable import SluiceCore

/// The core types stay small: every async frame of a task keeps a copy of its request, and the
/// response comes back through every stage. What only some stages use lives in their
/// ``StageValues``, not in fields of its own (a `Request` was 464 bytes when its parameters,
/// parts, path parameters, trust policy and proxy route were fields).
@Suite("The core types' size")
struct CoreTypeSizeTests {
    @Test("a Request, a Response and TaskMetrics hold no stage's own state in fields")
    func sizes() {
        #expect(MemoryLayout<Request>.size <= 160, "\(MemoryLayout<Request>.size) bytes")
        #expect(MemoryLayout<Response>.size <= 96, "\(MemoryLayout<Response>.size) bytes")
        #expect(MemoryLayout<TaskMetrics>.size <= 80, "\(MemoryLayout<TaskMetrics>.size) bytes")
        print("Request \(MemoryLayout<Request>.size) B, Response \(MemoryLayout<Response>.size) B, TaskMetrics \(MemoryLayout<TaskMetrics>.size) B")
    }

    @Test("stage values round-trip and leave the request empty of them when cleared; setting the URL clears a refused string")
    func stageValues() throws {
        var request = Request(method: .post, "users/{id}", pathParameters: ["id": "7"], parameters: ["a": 1], parts: [.field("f", "v")])
        #expect(request.pathParameters == ["id": "7"] && request.parameters == ["a": 1] && request.parts.count == 1)
        request.parameters = nil
        request.parts = []
        request.pathParameters = [:]
        #expect(request.parameters == nil && request.parts.isEmpty && request.pathParameters.isEmpty)
        var response = Response(status: 200, decoded: .json(["a": 1]))
        #expect(response.decoded == .json(["a": 1]) && response.cacheOutcome == nil)
        response.cacheOutcome = .hit
        #expect(response.cacheOutcome == .hit)
        var metrics = TaskMetrics(stageNames: [])
        metrics.cacheOutcomes.append(.miss)
        #expect(metrics.cacheOutcomes == [.miss])
    }
}
