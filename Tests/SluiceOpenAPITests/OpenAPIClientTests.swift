import Foundation
import HTTPTypes
import OpenAPIRuntime
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
@testable import SluiceOpenAPI
import Synchronization
import Testing

/// The client swift-openapi-generator made from `openapi.yaml` (committed under `Generated/`),
/// sending through a Sluice pipeline to the local httpbin.
@Suite("A generated OpenAPI client over SluiceClientTransport, against httpbin")
struct OpenAPIClientTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// httpbin's address, from the test servers' servers.json.
    static func httpbin() throws -> URL {
        let path = ProcessInfo.processInfo.environment["SLUICE_TEST_SERVERS"]
            ?? folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".test-servers/servers.json").path
        let data = try #require(FileManager.default.contents(atPath: path), "the test servers are not running; run `scripts/test-servers start`")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require((object["httpbin"] as? String).flatMap(URL.init(string:)))
    }

    /// Records every request the pipeline sends, so a test can see that the stages ran.
    final class Recorder: RequestStage {
        let seen = Mutex<[Request]>([])
        var name: String { "recorder" }
        func prepare(_ request: Request, context: TaskContext) async throws -> Request {
            seen.withLock { $0.append(request) }
            return request
        }
    }

    private func client(_ recorder: Recorder = Recorder()) throws -> Client {
        let manager = SessionManager(pipeline: try Pipeline { recorder })
        return Client(serverURL: try Self.httpbin(), transport: SluiceClientTransport(manager: manager))
    }

    @Test("the committed client was generated from the committed document (scripts/generate-openapi)")
    func generatedIsCurrent() throws {
        let recorded = try String(contentsOf: Self.folder.appendingPathComponent("Generated/SOURCE-SHA256"), encoding: .utf8)
        for line in recorded.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            let file = Self.folder.appendingPathComponent(String(parts[1]))
            #expect(SHA256Hex.of(try Data(contentsOf: file)) == String(parts[0]), "\(parts[1]) changed since the client was generated: run scripts/generate-openapi")
        }
        #expect(recorded.split(separator: "\n").count == 2)
    }

    @Test("a JSON operation with a query parameter goes through the pipeline's stages")
    func jsonOperation() async throws {
        let recorder = Recorder()
        let output = try await client(recorder).getRequest(query: .init(q: "a b/ü"))
        let echo = try output.ok.body.json
        #expect(echo.args?.additionalProperties["q"] == "a b/ü")
        #expect(recorder.seen.withLock { $0.count } == 1)
        #expect(recorder.seen.withLock { $0[0].url.query } == "q=a%20b%2F%C3%BC")
    }

    @Test("a request body streamed from an HTTPBody of unknown length arrives whole, chunked")
    func streamedUpload() async throws {
        let pieces = AsyncStream<ArraySlice<UInt8>> { continuation in
            for index in 0..<50 { continuation.yield(ArraySlice("line \(index)\n".utf8)) }
            continuation.finish()
        }
        let body = HTTPBody(pieces, length: .unknown, iterationBehavior: .single)
        let output = try await client().echoBody(body: .binary(body))
        let echo = try output.ok.body.json
        #expect(echo.data == (0..<50).map { "line \($0)\n" }.joined())
        #expect(echo.headers?.additionalProperties["Transfer-Encoding"] == "chunked")
    }

    @Test("a response body streams to the generated code as it arrives")
    func streamedDownload() async throws {
        let output = try await client().streamBytes(path: .init(count: 100_000), query: .init(chunk_size: 1000))
        let body = try output.ok.body.binary
        var total = 0
        var pieces = 0
        for try await piece in body {
            total += piece.count
            pieces += 1
        }
        #expect(total == 100_000)
        #expect(pieces > 1)
    }

    @Test("the operation's path joins the server URL's path, percent-encoding and query kept as the generated code wrote them")
    func urlJoin() throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/items/a%2Fb?x=1%202")
        for base in ["https://api.example/v1/", "https://api.example/v1"] {
            #expect(try SluiceClientTransport.url(of: request, against: URL(string: base)!).absoluteString == "https://api.example/v1/items/a%2Fb?x=1%202")
        }
        #expect(try SluiceClientTransport.url(of: request, against: URL(string: "http://127.0.0.1:8080")!).absoluteString == "http://127.0.0.1:8080/items/a%2Fb?x=1%202")
    }

    @Test("an error status the document does not list comes back as .undocumented with its status")
    func errorStatus() async throws {
        let output = try await client().status(path: .init(code: 418))
        guard case .undocumented(let status, _) = output else {
            Issue.record("expected .undocumented, got \(output)")
            return
        }
        #expect(status == 418)
    }

    @Test("a transport failure reaches the caller as ClientError wrapping the SluiceError")
    func transportFailure() async throws {
        let manager = SessionManager(pipeline: try Pipeline())
        let client = Client(serverURL: URL(string: "http://127.0.0.1:1")!, transport: SluiceClientTransport(manager: manager))
        let error = await #expect(throws: ClientError.self) { _ = try await client.getRequest() }
        #expect((error?.underlyingError as? SluiceError)?.kind == .connect)
        #expect(error?.operationID == "getRequest")
    }
}
