import Foundation
import HTTPTypes
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluiceHTTPTypes
import Testing

@Suite("Conversions between Sluice's types and swift-http-types'")
struct HTTPTypesConversionTests {
    @Test("headers keep their order, repeats and written names both ways")
    func headersRoundTrip() throws {
        let headers: HTTPHeaders = HTTPHeaders([
            HTTPHeaders.Field(name: "Accept", value: "application/json"),
            HTTPHeaders.Field(name: "X-Trace", value: "a"),
            HTTPHeaders.Field(name: "x-trace", value: "b"),
            HTTPHeaders.Field(name: "Empty", value: ""),
        ])
        let fields = try HTTPFields(headers)
        #expect(fields.count == 4)
        #expect(fields[values: .init("X-Trace")!] == ["a", "b"])
        #expect(Array(HTTPHeaders(fields).fields.map(\.name)) == ["Accept", "X-Trace", "x-trace", "Empty"])
        #expect(HTTPHeaders(fields).values(for: "x-trace") == ["a", "b"])
    }

    @Test("attack: a value with CR LF, NUL or a bad name is refused, never legalized into something else", arguments: [
        ("X-Injected", "a\r\nSet-Cookie: evil=1"), ("X-Nul", "a\u{0}b"), ("Bad Name", "v"), ("", "v"), ("X-Padded", " v "),
    ])
    func hostileFields(name: String, value: String) {
        let error = #expect(throws: SluiceError.self) {
            _ = try HTTPFields(HTTPHeaders([HTTPHeaders.Field(name: name, value: value)]))
        }
        #expect(error?.kind == .invalidRequest)
    }

    @Test("values are compared byte for byte: composed and decomposed é stay what they were")
    func byteExactValues() throws {
        let decomposed = "cafe\u{301}"
        let fields = try HTTPFields(HTTPHeaders([HTTPHeaders.Field(name: "X-Name", value: decomposed)]))
        #expect(Array(fields[.init("X-Name")!]!.utf8) == Array(decomposed.utf8))
    }

    @Test("a request converts to HTTPRequest and back: method, scheme, authority, path with query, fields")
    func requestRoundTrip() throws {
        let url = URL(string: "https://api.example.com:8443/v1/items?q=a%20b&n=1")!
        let request = Request(method: .patch, url: url, headers: ["Authorization": "Bearer t", "Accept": "*/*"])
        let converted = try HTTPRequest(request)
        #expect(converted.method == .patch)
        #expect(converted.scheme == "https")
        #expect(converted.authority == "api.example.com:8443")
        #expect(converted.path == "/v1/items?q=a%20b&n=1")
        #expect(converted.headerFields[.authorization] == "Bearer t")
        let back = try Request(converted, body: .data(Data("x".utf8)))
        #expect(back.url == url)
        #expect(back.method == .patch)
        #expect(back.headers["Authorization"] == "Bearer t")
        #expect(back.body == .data(Data("x".utf8)))
        let custom = try HTTPRequest(Request(method: HTTPMethod("PURGE"), url: url))
        #expect(custom.method.rawValue == "PURGE")
    }

    @Test("a relative URL or a method that is not a token is refused")
    func requestRefusals() {
        #expect(throws: SluiceError.self) { _ = try HTTPRequest(Request(url: URL(string: "users/1")!)) }
        #expect(throws: SluiceError.self) { _ = try HTTPRequest(Request(method: HTTPMethod("GET /"), url: URL(string: "http://a/")!)) }
    }

    @Test("a response converts both ways, its status and reason class kept")
    func responseRoundTrip() throws {
        let response = Response(status: 418, headers: ["Content-Type": "text/plain"], body: Data("teapot".utf8))
        let converted = try HTTPResponse(response)
        #expect(converted.status.code == 418)
        #expect(converted.status.kind == .clientError)
        #expect(converted.headerFields[.contentType] == "text/plain")
        let back = Response(converted, body: Data("teapot".utf8))
        #expect(back.status == 418)
        #expect(back.headers["Content-Type"] == "text/plain")
        #expect(throws: SluiceError.self) { _ = try HTTPResponse(Response(status: 42)) }
    }
}
