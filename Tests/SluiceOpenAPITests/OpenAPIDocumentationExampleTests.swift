import Foundation
import OpenAPIRuntime
import SluiceCore
import SluiceCurl
import SluiceOpenAPI
import SluiceRetry
import Testing

/// The example of SluiceOpenAPI's landing page (SluiceOpenAPI.docc), as written there, with the
/// client generated from this target's `openapi.yaml`.
@Suite("SluiceOpenAPI documentation example")
struct OpenAPIDocumentationExampleTests {
    @Test("a generated client sends through a pipeline with a retry stage to httpbin")
    func example() async throws {
        let httpbin = try OpenAPIClientTests.httpbin()
        let manager = SessionManager(pipeline: try Pipeline { Retry(attempts: 3) })
        let client = Client(serverURL: httpbin, transport: SluiceClientTransport(manager: manager))
        let echo = try await client.getRequest(query: .init(q: "sluice")).ok.body.json
        #expect(echo.args?.additionalProperties["q"] == "sluice")
    }
}
