import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// The built-in stages together against httpbin, as a pipeline file would declare them.
@Suite("Built-in stages against httpbin")
struct BuiltInStagesTests {
    /// url-resolution on httpbin, header-injection, serialization in `format`, response-decoding.
    private func manager(
        _ servers: TestServers,
        format: Serialization.Format = .form,
        decoding: ResponseDecoding = ResponseDecoding(),
        authorization: HeaderInjection.Authorization? = nil
    ) throws -> SessionManager {
        let pipeline = try Pipeline(transport: servers.trustingTransport()) {
            try URLResolution(baseURL: servers.httpbin)
            HeaderInjection(headers: ["X-Suite": "stages"], authorization: authorization, environment: ["LANG": "de_AT.UTF-8"])
            Serialization(format: format)
            decoding
        }
        return SessionManager(pipeline: pipeline)
    }

    private func decodedJSON(_ response: Response) throws -> JSONValue {
        try #require(response.decoded?.value)
    }

    @Test("/get: query from parameters, injected headers, JSON decoded")
    func get() async throws {
        let servers = try TestServers.load()
        let response = try await manager(servers).send(Request("get?fixed=1", parameters: ["q": "swift linux", "page": 2, "tags": ["a", "b"]]))
        let body = try decodedJSON(response)
        #expect(body["args"] == ["fixed": "1", "q": "swift linux", "page": "2", "tags[]": ["a", "b"]])
        let headers = try #require(body["headers"])
        #expect(headers["X-Suite"] == "stages")
        #expect(headers["User-Agent"]?.stringValue == HeaderInjection.defaultUserAgent)
        #expect(headers["Accept-Language"] == "de-AT;q=1.0")
        #expect(response.url?.absoluteString.hasSuffix("/get?fixed=1&page=2&q=swift%20linux&tags%5B%5D=a&tags%5B%5D=b") == true)
    }

    @Test("/post: form, JSON, property list and multipart bodies arrive as sent")
    func post() async throws {
        let servers = try TestServers.load()
        let parameters: JSONValue = ["name": "Zoë & co", "n": 3, "on": true, "list": [1, 2], "nested": ["k": "v"]]

        let form = try decodedJSON(try await manager(servers).send(Request(method: .post, "post", parameters: parameters)))
        #expect(form["form"] == ["name": "Zoë & co", "n": "3", "on": "1", "list[]": ["1", "2"], "nested[k]": "v"])
        #expect(form["headers"]?["Content-Type"] == "application/x-www-form-urlencoded")

        let json = try decodedJSON(try await manager(servers, format: .json).send(Request(method: .post, "post", parameters: parameters)))
        #expect(json["json"] == parameters)
        #expect(json["headers"]?["Content-Type"] == "application/json")

        let plist = try decodedJSON(try await manager(servers, format: .plist).send(Request(method: .put, "put", parameters: parameters)))
        let sentPlist = try #require(plist["data"]?.stringValue)
        #expect(try PropertyListReader().value(from: Data(sentPlist.utf8)) == parameters)
        #expect(plist["headers"]?["Content-Type"] == "application/x-plist")

        let directory = try TemporaryDirectory()
        let file = directory.file("report.csv")
        try Data("a,b\n1,2\n".utf8).write(to: file)
        let multipart = try decodedJSON(try await manager(servers, format: .multipart).send(
            Request(method: .post, "post", parameters: ["title": "Q3", "tags": ["x", "y"]], parts: [.file("report", file), .field("note", "hi")])
        ))
        #expect(multipart["files"] == ["report": "a,b\n1,2\n"])
        #expect(multipart["form"] == ["title": "Q3", "tags[]": ["x", "y"], "note": "hi"])
        #expect(multipart["headers"]?["Content-Type"]?.stringValue?.hasPrefix("multipart/form-data; boundary=sluice-") == true)
    }

    @Test("/anything/{id}: path templates filled and encoded")
    func anything() async throws {
        let servers = try TestServers.load()
        let response = try await manager(servers).send(
            Request(method: .delete, "anything/{kind}/{id}", pathParameters: ["kind": "users", "id": "a b/c"], parameters: ["soft": true])
        )
        let body = try decodedJSON(response)
        #expect(body["method"] == "DELETE")
        #expect(response.url?.absoluteString.hasSuffix("/anything/users/a%20b%2Fc?soft=1") == true)
        #expect(body["args"] == ["soft": "1"])
    }

    @Test("Authorization: basic and bearer pass httpbin's checks")
    func authorization() async throws {
        let servers = try TestServers.load()
        let basic = try await manager(servers, authorization: .basic(username: "user", password: "pässwörd"))
            .send(Request("basic-auth/user/pässwörd"))
        #expect(try decodedJSON(basic)["authenticated"] == true)
        let bearer = try await manager(servers, authorization: .bearer("token-123")).send(Request("bearer"))
        #expect(try decodedJSON(bearer)["token"] == "token-123")
        let refused = await #expect(throws: SluiceError.self) { try await manager(servers).send(Request("bearer")) }
        #expect(refused?.kind == .unacceptableStatus)
        #expect(refused?.response?.status == 401)
    }

    @Test("/status/...: an error status is a typed error with the response; 204 decodes to no value")
    func statuses() async throws {
        let servers = try TestServers.load()
        let anyType = try manager(servers, decoding: ResponseDecoding(format: .string, acceptableContentTypes: .any))
        let failure = await #expect(throws: SluiceError.self) { try await anyType.send(Request("status/418")) }
        #expect(failure?.kind == .unacceptableStatus)
        #expect(failure?.stage == "response-decoding")
        #expect(failure?.response?.status == 418)
        #expect(failure?.response?.headers["x-more-info"] == "http://tools.ietf.org/html/rfc2324")
        guard case .string(let teapot) = failure?.response?.decoded else {
            Issue.record("the teapot's body was not decoded: \(String(describing: failure))")
            return
        }
        #expect(teapot.contains("teapot"), "a status failure still decodes the body")
        let json = await #expect(throws: SluiceError.self) { try await manager(servers).send(Request("status/500")) }
        #expect(json?.kind == .unacceptableStatus, "an empty body skips the content-type check")
        let empty = try await manager(servers).send(Request("status/204"))
        #expect(empty.status == 204)
        #expect(empty.decoded == nil)
        let accepting = try manager(servers, decoding: ResponseDecoding(format: .string, acceptableStatus: [200...299, 418...418]))
        #expect(try await accepting.send(Request("status/418")).status == 418)
    }

    @Test("/html, /json, /xml, /bytes: content types checked and bodies decoded by format")
    func formats() async throws {
        let servers = try TestServers.load()
        let html = await #expect(throws: SluiceError.self) { try await manager(servers).send(Request("html")) }
        #expect(html?.kind == .unacceptableContentType)
        #expect(html?.response?.decoded == nil)
        #expect(html?.message.contains("text/html") == true)

        let json = try await manager(servers).send(Request("json"))
        #expect(json.decoded?.value?["slideshow"]?["author"] == "Yours Truly")

        let auto = try manager(servers, decoding: ResponseDecoding(format: .auto))
        let xml = try await auto.send(Request("xml"))
        guard case .string(let text) = xml.decoded else {
            Issue.record("xml decoded as \(String(describing: xml.decoded))")
            return
        }
        #expect(text.contains("<slideshow"))
        guard case .string(let page) = try await auto.send(Request("html")).decoded else {
            Issue.record("html did not decode as a string")
            return
        }
        #expect(page.contains("Herman Melville"))
        let bytes = try await auto.send(Request("bytes/1000"))
        #expect(bytes.decoded == .data(bytes.body))
        #expect(bytes.body.count == 1000)
    }
}
