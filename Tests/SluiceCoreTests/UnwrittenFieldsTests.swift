import Foundation
import Testing

@testable import SluiceCore

/// What a request carries for a stage to write (parameters, multipart parts, path parameters)
/// never vanishes: sent through a pipeline without the stage, the request is refused before the
/// transport sees it.
@Suite("Nothing a request carries is dropped in silence")
struct UnwrittenFieldsTests {
    private func refusal(_ request: Request, through stages: [any Stage]) async throws -> (SluiceError?, [Request]) {
        let recorder = RequestRecorder()
        let manager = SessionManager(pipeline: try Pipeline(stages: stages, transport: recorder.transport()))
        let error = await #expect(throws: SluiceError.self) { try await manager.send(request) }
        return (error, recorder.all)
    }

    @Test("a POST with parameters and no Serialization is refused naming the parameters, and nothing is sent")
    func parameters() async throws {
        let request = Request(method: .post, url: exampleURL, parameters: ["a": 1])
        let (error, sent) = try await refusal(request, through: [HeaderInjection(headers: ["X-A": "1"])])
        #expect(error?.kind == .invalidRequest)
        #expect(error?.stage == "pipeline")
        #expect(error?.message == "the request's parameters would not be sent: no stage of the pipeline wrote them; add a Serialization stage, or choose the body's format for the request: Request(..., json:), (form:) or (multipart:)")
        #expect(sent.isEmpty)
        let written = try await send(request, through: [Serialization(format: .json)])
        #expect(written.sent.parameters == nil)
        #expect(written.sent.body.isEmpty == false)
    }

    @Test("multipart parts with no Serialization are refused, naming the parts")
    func parts() async throws {
        let request = Request(method: .post, url: exampleURL, parts: [.field("name", "value")])
        let (error, sent) = try await refusal(request, through: [])
        #expect(error?.message.hasPrefix("the request's multipart parts would not be sent") == true)
        #expect(sent.isEmpty)
    }

    @Test("path parameters with no URLResolution are refused, naming them")
    func pathParameters() async throws {
        let request = Request(method: .get, url: URL(string: "http://example.test/users/%7Bid%7D")!, pathParameters: ["id": "42", "org": "x"])
        let (error, sent) = try await refusal(request, through: [])
        #expect(error?.message.hasPrefix("the request's path parameters (id, org) would not be sent") == true)
        #expect(sent.isEmpty)
    }
}
