import Foundation
import OpenAPIRuntime
import SluiceCore
import SluiceCurl
import SluiceOpenAPI
import SluiceRetry
import Testing

/// The example of `SluiceClientTransport`'s doc comment, as written there, with the client
/// generated from this target's `openapi.yaml` and the server's URL bound to the local httpbin.
@Suite("SluiceOpenAPI doc comment example")
struct OpenAPIDocCommentExampleTests {
    @Test("SluiceClientTransport: a generated client over a pipeline with a retry stage")
    func clientTransport() async throws {
        let serverURL = try OpenAPIClientTests.httpbin()
        let transport = SluiceClientTransport(manager: SessionManager(pipeline: try Pipeline { Retry() }))
        let client = Client(serverURL: serverURL, transport: transport)   // such as try Servers.Server1.url()
        let echo = try await client.getRequest(query: .init(q: "doc-comment")).ok.body.json
        #expect(echo.args?.additionalProperties["q"] == "doc-comment")
    }
}
