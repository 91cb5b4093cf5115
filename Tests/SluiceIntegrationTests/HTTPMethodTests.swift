import Foundation
import Testing
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

@Suite("HTTP methods against httpbin")
struct HTTPMethodTests {
    @Test("GET returns httpbin's echo, with status, ordered headers and the final URL")
    func get() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let url = servers.httpbin("get?q=swift&page=2")
        let response = try await manager.send(Request(url: url, headers: ["X-Custom": "yes"]))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.url == url)
        #expect(response.httpVersion == .http1_1)
        let json = try response.jsonObject()
        #expect(json["args"] as? [String: String] == ["q": "swift", "page": "2"])
        #expect((json["headers"] as? [String: String])?["X-Custom"] == "yes")
    }

    @Test("POST, PUT and DELETE send their method and body; no body type is invented", arguments: [HTTPMethod.post, .put, .delete])
    func methodsWithBody(method: HTTPMethod) async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let body = Data("name=sluice&kind=engine".utf8)
        let response = try await manager.send(Request(
            method: method,
            url: servers.httpbin("anything/\(method.rawValue.lowercased())"),
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: .data(body)
        ))
        #expect(response.status == 200)
        let json = try response.jsonObject()
        #expect(json["method"] as? String == method.rawValue)
        #expect(json["form"] as? [String: String] == ["name": "sluice", "kind": "engine"])

        let raw = try await manager.send(Request(method: method, url: servers.httpbin("anything"), body: .data(Data("raw".utf8))))
        let headers = try #require(try raw.jsonObject()["headers"] as? [String: String])
        #expect(headers["Content-Type"] == nil)
        #expect(headers["Expect"] == nil)
        #expect(try raw.jsonObject()["data"] as? String == "raw")
    }

    @Test("POST and PUT without a body send Content-Length: 0; DELETE and HEAD send none")
    func emptyBodies() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        for method in [HTTPMethod.post, .put] {
            let json = try await manager.send(Request(method: method, url: servers.httpbin("anything"))).jsonObject()
            #expect((json["headers"] as? [String: String])?["Content-Length"] == "0", "\(method)")
        }
        let delete = try await manager.send(Request(method: .delete, url: servers.httpbin("anything"))).jsonObject()
        #expect((delete["headers"] as? [String: String])?["Content-Length"] == nil)

        let head = try await manager.send(Request(method: .head, url: servers.httpbin("get")))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] != nil)
    }

    @Test("repeated response headers are all kept, in order")
    func repeatedResponseHeaders() async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager().send(Request(url: servers.httpbin("response-headers?X-Multi=one&X-Multi=two")))
        #expect(response.headers.values(for: "x-multi") == ["one", "two"])
    }

    @Test("a non-2xx status is a response, not an error: the transport does not judge statuses")
    func statusIsNotAnError() async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager().send(Request(url: servers.httpbin("status/418")))
        #expect(response.status == 418)
    }

    @Test("redirects are not followed by the transport itself, only by the redirect stage")
    func redirectsNotFollowed() async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager(redirects: nil).send(Request(url: servers.httpbin("redirect-to?url=/get&status_code=302")))
        #expect(response.status == 302)
        #expect(response.headers["Location"] == "/get")
    }
}
