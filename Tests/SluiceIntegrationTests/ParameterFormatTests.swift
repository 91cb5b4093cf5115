import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import SluiceHMACSignature
import Testing

/// Each request may choose how its body is made (`json:`, `form:`, `multipart:`), as Alamofire's
/// `parameters:encoder:` lets each call choose; the `Serialization` stage gives the defaults.
@Suite("A request chooses its body's format")
struct ParameterFormatTests {
    struct Login: Encodable {
        var user: String
        var remember: Bool
        var scopes: [String]
    }

    private func manager(_ servers: TestServers, _ stages: [any Stage] = []) throws -> SessionManager {
        SessionManager(pipeline: try Pipeline(stages: [try URLResolution(baseURL: servers.httpbin), ResponseDecoding()] + stages))
    }

    @Test("json: an Encodable goes out as JSON with no Serialization stage, and over a stage whose format is form; for GET too")
    func json() async throws {
        let servers = try TestServers.load()
        for stages in [[], [Serialization(format: .form)]] as [[any Stage]] {
            let manager = try manager(servers, stages)
            let posted = try await manager.send(try Request("post", json: Login(user: "zoe", remember: true, scopes: ["a", "b"])))
            #expect(posted.decoded?.value?["json"] == ["user": "zoe", "remember": true, "scopes": ["a", "b"]])
            #expect(posted.decoded?.value?["headers"]?["Content-Type"] == "application/json")
            let got = try await manager.send(Request(method: .get, "anything", json: ["n": 2]))
            #expect(got.decoded?.value?["json"] == ["n": 2], "a JSON body chosen for GET stays a body")
            #expect(got.decoded?.value?["args"] == [:])
        }
    }

    @Test("form: the stage's encodings apply; without a stage, the defaults; GET puts them in the query")
    func form() async throws {
        let servers = try TestServers.load()
        let indices = try manager(servers, [Serialization(format: .json, formEncoder: FormEncoder(arrayEncoding: .indices))])
        let posted = try await indices.send(Request("post", form: ["tags": ["x", "y"], "on": true]))
        #expect(posted.decoded?.value?["form"] == ["tags[0]": "x", "tags[1]": "y", "on": "1"])
        let plain = try manager(servers)
        let query = try await plain.send(Request(method: .get, "get", form: ["tags": ["x"], "q": "a b"]))
        #expect(query.decoded?.value?["args"] == ["tags[]": "x", "q": "a b"])
        #expect(query.url?.query == "q=a%20b&tags%5B%5D=x")
    }

    @Test("multipart: fields and a file, with no Serialization stage")
    func multipart() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = directory.file("note.txt")
        try "hello".write(to: file, atomically: true, encoding: .utf8)
        let response = try await manager(servers).send(Request("post", multipart: [.file("note", file)], fields: ["title": "Q3"]))
        #expect(response.decoded?.value?["form"] == ["title": "Q3"])
        #expect(response.decoded?.value?["files"] == ["note": "hello"])
    }

    @Test("a body that cannot be encoded is a typed error when the request is made; plain parameters without a stage are still refused")
    func refusals() async throws {
        struct Bad: Encodable { var x = Double.nan }
        let error = #expect(throws: SluiceError.self) { try Request("post", json: Bad()) }
        #expect(error?.kind == .serialization)
        let servers = try TestServers.load()
        let refused = await #expect(throws: SluiceError.self) { try await manager(servers).send(Request(method: .post, "post", parameters: ["a": 1])) }
        #expect(refused?.kind == .invalidRequest && refused?.message.contains("Request(..., json:)") == true)
    }

    @Test("a signature covers a body the request chose, written before the signing stage runs")
    func signed() async throws {
        let servers = try TestServers.load()
        let pipeline = try Pipeline(stages: [HMACSignature(secret: Data("hmac-test-secret".utf8)), try URLResolution(baseURL: servers.scenario), ResponseDecoding()])
        let response = try await SessionManager(pipeline: pipeline).send(Request("hmac/order", json: ["total": 12.5]))
        #expect(response.decoded?.value?["verified"] == true)
        #expect(response.decoded?.value?["signed"]?.stringValue?.hasPrefix("POST\n/hmac/order\n\n") == true)
    }
}
