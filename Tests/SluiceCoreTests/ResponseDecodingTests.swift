import Foundation
import Testing
@testable import SluiceCore

@Suite("response-decoding")
struct ResponseDecodingTests {
    let request = Request(url: exampleURL)

    private func response(_ status: Int = 200, _ contentType: String? = "application/json", _ body: String) -> Response {
        var headers: HTTPHeaders = [:]
        if let contentType { headers["Content-Type"] = contentType }
        return Response(status: status, headers: headers, body: Data(body.utf8), url: exampleURL)
    }

    @Test("JSON decodes into a JSONValue, and into any Decodable")
    func json() throws {
        let decoded = try ResponseDecoding().decode(response(200, "application/json; charset=utf-8", #"{"id": 7, "tags": ["a"]}"#), for: request)
        #expect(decoded.decoded == .json(["id": 7, "tags": ["a"]]))
        struct Item: Decodable, Equatable { let id: Int; let tags: [String] }
        #expect(try decoded.decode(Item.self) == Item(id: 7, tags: ["a"]))
        #expect(throws: SluiceError.self) { try decoded.decode([Int].self) }
    }

    static let contentTypes: [(String?, Bool)] = [
        ("application/json", true), ("APPLICATION/JSON; charset=utf-8", true), ("text/json", true), ("text/javascript", true),
        ("text/html", false), ("application/problem+json", false), (nil, false), ("garbage", false),
    ]

    @Test("JSON's acceptable content types, matched on the media type alone", arguments: contentTypes)
    func contentTypeCheck(contentType: String?, accepted: Bool) {
        let result = Result { try ResponseDecoding().decode(response(200, contentType, "{}"), for: request) }
        switch result {
        case .success(let decoded): #expect(accepted && decoded.decoded == .json([:]))
        case .failure(let error as SluiceError):
            #expect(!accepted)
            #expect(error.kind == .unacceptableContentType)
            #expect(error.response?.decoded == nil, "a content-type failure does not decode")
            #expect(error.response?.body == Data("{}".utf8))
        case .failure(let error): Issue.record("\(error)")
        }
    }

    @Test("acceptable-content-types can be one's own list, with wildcards, or any")
    func ownContentTypes() throws {
        let problem = ResponseDecoding(acceptableContentTypes: .only([MediaType(parsing: "application/*")!]))
        #expect(try problem.decode(response(200, "application/problem+json", "{}"), for: request).decoded == .json([:]))
        #expect(throws: SluiceError.self) { try problem.decode(response(200, "text/json", "{}"), for: request) }
        let any = ResponseDecoding(acceptableContentTypes: .any)
        #expect(try any.decode(response(200, nil, "[1]"), for: request).decoded == .json([1]))
    }

    @Test("a status failure still decodes the body; the error carries status, headers and body")
    func statusFailure() {
        #expect {
            try ResponseDecoding().decode(response(404, "application/json", #"{"error": "no such user"}"#), for: request)
        } throws: { error in
            guard let error = error as? SluiceError, let response = error.response else { return false }
            return error.kind == .unacceptableStatus && error.stage == "response-decoding" && response.status == 404
                && response.decoded == .json(["error": "no such user"]) && response.headers["Content-Type"] == "application/json"
                && error.message.contains("404") && error.message.contains("200-299")
        }
        #expect(throws: SluiceError.self, "an undecodable body does not hide the status failure") {
            try ResponseDecoding().decode(response(500, "application/json", "<html>"), for: request)
        }
    }

    @Test("acceptable-status takes codes and ranges")
    func acceptableStatus() throws {
        let stage = ResponseDecoding(acceptableStatus: [200...299, 404...404, 500...503])
        for status in [200, 299, 404, 500, 503] {
            #expect(throws: Never.self) { try stage.decode(response(status, "application/json", "1"), for: request) }
        }
        for status in [199, 300, 403, 405, 504] {
            #expect(throws: SluiceError.self) { try stage.decode(response(status, "application/json", "1"), for: request) }
        }
    }

    @Test("as JSON, an empty body, one space, HEAD, and an empty 204 or 205 decode to no value without error")
    func noValue() throws {
        let stage = ResponseDecoding()
        #expect(try stage.decode(response(200, nil, ""), for: request).decoded == nil)
        #expect(try stage.decode(response(200, "text/html", " "), for: request).decoded == nil)
        #expect(try stage.decode(response(204, nil, ""), for: request).decoded == nil)
        #expect(try stage.decode(response(205, "text/html", ""), for: request).decoded == nil)
        #expect(try stage.decode(response(200, "application/json", "{}"), for: Request(method: .head, url: exampleURL)).decoded == nil)
        #expect(try ResponseDecoding(format: .plist).decode(response(200, nil, " "), for: request).decoded == nil)
    }

    @Test("as text or bytes, an empty body and one space are what they are; HEAD still has no value")
    func textIsWhatItIs() throws {
        let text = ResponseDecoding(format: .string)
        #expect(try text.decode(response(200, "text/plain", ""), for: request).decoded == .string(""))
        #expect(try text.decode(response(200, "text/plain", " "), for: request).decoded == .string(" "))
        #expect(try text.decode(response(204, nil, ""), for: request).decoded == .string(""))
        #expect(try ResponseDecoding(format: .auto).decode(response(200, "text/plain", ""), for: request).decoded == .string(""))
        #expect(try ResponseDecoding(format: .data).decode(response(200, nil, ""), for: request).decoded == .data(Data()))
        #expect(try text.decode(response(200, "text/plain", "x"), for: Request(method: .head, url: exampleURL)).decoded == nil)
    }

    // The next two tests port AFNetworking's AFHTTPResponseSerializationTests (commit 637ce84c,
    // MIT): testThatAFHTTPResponseSerialization{SucceedsWith205WithNoResponseContentTypeAndNoResponseData,
    // FailsWith205WithNoResponseContentTypeAndResponseData, HandlesAll2XXCodes, FailsAll4XX5XXStatusCodes}.

    @Test("a 204 or 205 that carries a body is validated and decoded like any other body")
    func bodyOnNoContentStatus() throws {
        let htmlOnly = ResponseDecoding(format: .string, acceptableContentTypes: .only([MediaType(parsing: "text/html")!]))
        for status in [204, 205] {
            #expect(try htmlOnly.decode(response(status, nil, ""), for: request).decoded == .string(""), "no type and no body passes")
            #expect {
                try htmlOnly.decode(response(status, nil, "test"), for: request)
            } throws: { error in
                (error as? SluiceError)?.kind == .unacceptableContentType && (error as? SluiceError)?.response?.status == status
            }
            #expect(try ResponseDecoding().decode(response(status, "application/json", #"{"a": 1}"#), for: request).decoded == .json(["a": 1]))
        }
    }

    @Test("every 2xx status is acceptable by default, and every 4xx and 5xx refused")
    func statusClasses() throws {
        let anyType = ResponseDecoding(format: .string, acceptableContentTypes: .any)
        for status in 200...299 {
            #expect(throws: Never.self) { try anyType.decode(response(status, "text/html", "text"), for: request) }
        }
        for status in 400...599 {
            #expect(throws: SluiceError.self) { try anyType.decode(response(status, "text/html", "text"), for: request) }
        }
    }

    @Test("status and content type both wrong: the status failure is the error, the content type its underlying cause")
    func statusAndContentType() {
        #expect {
            try ResponseDecoding().decode(response(404, "text/html", "<h1>Not Found</h1>"), for: request)
        } throws: { error in
            guard let error = error as? SluiceError, let underlying = error.underlying as? SluiceError else { return false }
            return error.kind == .unacceptableStatus && underlying.kind == .unacceptableContentType
                && error.message == "status 404 is not acceptable (200-299), and content type text/html is not acceptable (application/json, text/json, text/javascript); the server said: <h1>Not Found</h1>"
                && error.response?.status == 404 && error.response?.decoded == nil
        }
    }

    @Test("a status failure says what the server said: the body's text on one line, cut at 200 characters; nothing for no body or a binary one")
    func statusFailureShowsTheBody() {
        #expect(ResponseDecoding.excerpt(of: Data("{\n  \"error\": \"busy\",\n\t\"retry\": 3\n}\n".utf8)) == #"{ "error": "busy", "retry": 3 }"#)
        #expect(ResponseDecoding.excerpt(of: Data()) == nil)
        #expect(ResponseDecoding.excerpt(of: Data(" \r\n".utf8)) == nil)
        #expect(ResponseDecoding.excerpt(of: Data([0xFF, 0xFE, 0x00, 0x81])) == nil)
        let long = String(repeating: "é", count: 1_000)
        #expect(ResponseDecoding.excerpt(of: Data(long.utf8)) == String(repeating: "é", count: 200) + "…")
        #expect(ResponseDecoding.excerpt(of: Data(String(repeating: "a", count: 200).utf8)) == String(repeating: "a", count: 200))
        #expect {
            try ResponseDecoding(format: .json).decode(response(503, "application/json", #"{"error": "busy"}"#), for: request)
        } throws: { error in
            (error as? SluiceError)?.message == #"status 503 is not acceptable (200-299); the server said: {"error": "busy"}"#
        }
    }

    @Test("invalid JSON is a decoding error with its position and the response")
    func invalidJSON() {
        #expect {
            try ResponseDecoding().decode(response(200, "application/json", "{\"a\":\n tru}"), for: request)
        } throws: { error in
            let error = error as? SluiceError
            return error?.kind == .decoding && error?.message.contains("line 2, column 2") == true && error?.response?.status == 200
        }
    }

    @Test("removes-keys-with-null-values drops null members and elements at every depth")
    func removesNulls() throws {
        let body = #"{"a": null, "b": [1, null, {"c": null, "d": 2}]}"#
        #expect(try ResponseDecoding(removesKeysWithNullValues: true).decode(response(200, "application/json", body), for: request).decoded
            == .json(["b": [1, ["d": 2]]]))
        #expect(try ResponseDecoding().decode(response(200, "application/json", body), for: request).decoded?.value?["a"] == .null)
    }

    @Test("string decodes with the Content-Type charset, UTF-8 by default")
    func strings() throws {
        let stage = ResponseDecoding(format: .string)
        #expect(try stage.decode(response(200, "text/plain", "héllo"), for: request).decoded == .string("héllo"))
        let latin1 = Response(status: 200, headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: Data([0x68, 0xE9]))
        #expect(try stage.decode(latin1, for: request).decoded == .string("hé"))
        let utf16 = Response(status: 200, headers: ["Content-Type": "text/plain; charset=\"utf-16le\""], body: Data([0x68, 0, 0xE9, 0]))
        #expect(try stage.decode(utf16, for: request).decoded == .string("hé"))
        let invalid = Response(status: 200, headers: ["Content-Type": "text/plain"], body: Data([0xC3, 0x28]))
        #expect(throws: SluiceError.self) { try stage.decode(invalid, for: request) }
        let unknown = Response(status: 200, headers: ["Content-Type": "text/plain; charset=x-klingon"], body: Data("a".utf8))
        #expect(throws: SluiceError.self) { try stage.decode(unknown, for: request) }
    }

    @Test("plist decodes XML property lists; Decodable reads them with full fidelity")
    func plist() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>n</key><integer>3</integer><key>r</key><real>1.5</real><key>ok</key><true/>\
            <key>when</key><date>2024-01-02T03:04:05Z</date><key>raw</key><data>aGk=</data></dict></plist>
            """
        let decoded = try ResponseDecoding(format: .plist).decode(response(200, "application/x-plist", xml), for: request)
        #expect(decoded.decoded == .propertyList(["n": 3, "r": 1.5, "ok": true, "when": "2024-01-02T03:04:05Z", "raw": "aGk="]))
        struct Values: Decodable { let when: Date; let raw: Data }
        let values = try decoded.decode(Values.self)
        #expect(values.raw == Data("hi".utf8))
        #expect(values.when == Date(timeIntervalSince1970: 1_704_164_645))
        #expect(throws: SluiceError.self) { try ResponseDecoding(format: .plist).decode(response(200, "application/json", "{}"), for: request) }
        #expect(throws: SluiceError.self) { try ResponseDecoding(format: .plist).decode(response(200, "application/x-plist", "<nope"), for: request) }
    }

    static let autoCases: [(String?, String, DecodedBody)] = [
        ("application/json", "[1]", .json([1])), ("application/vnd.api+json", "{}", .json([:])),
        ("text/html; charset=utf-8", "<p>", .string("<p>")), ("application/xml", "<a/>", .string("<a/>")),
        ("image/png", "PNG", .data(Data("PNG".utf8))), (nil, "x", .data(Data("x".utf8))),
    ]

    @Test("auto chooses the format by Content-Type; data keeps the bytes", arguments: autoCases)
    func auto(contentType: String?, body: String, expected: DecodedBody) throws {
        #expect(try ResponseDecoding(format: .auto).decode(response(200, contentType, body), for: request).decoded == expected)
    }

    @Test("status sets and media types parse what pipelines write")
    func parsing() {
        #expect(StatusCodeSet(parsing: "2xx") == [200...299])
        #expect(StatusCodeSet(parsing: "404") == [404...404])
        #expect(StatusCodeSet(parsing: "500-503") == [500...503])
        #expect(StatusCodeSet(parsing: "6xx") == nil)
        #expect(StatusCodeSet(parsing: "503-500") == nil)
        // Three digits only: what a status line can carry (999 included, as some servers send it).
        #expect(StatusCodeSet(parsing: "99") == nil && StatusCodeSet(parsing: "1000") == nil && StatusCodeSet(parsing: "0-99") == nil)
        #expect(StatusCodeSet(parsing: "999") == [999...999])
        #expect(StatusCodeSet([200...299, 304...304]).description == "200-299, 304")
        let type = MediaType(parsing: #"Text/HTML; Charset="utf-8"; q=0.5"#)
        #expect(type?.essence == "text/html")
        #expect(type?.charset == "utf-8")
        #expect(MediaType(parsing: "text") == nil)
        #expect(MediaType(parsing: "text/ html") == nil)
        #expect(MediaType(parsing: "text/html/x") == nil)
        #expect(MediaType(parsing: "/html") == nil)
        #expect(MediaType(parsing: "text/\u{00A0}html") == nil, "Unicode spaces are refused too")
        let spaced = MediaType(parsing: " \tapplication/vnd.api+json ;\tcharset = UTF-8 ; title=\"a; \\\"b\\\"\" ")
        #expect(spaced?.essence == "application/vnd.api+json")
        #expect(spaced?.isJSON == true)
        #expect(spaced?.charset == "UTF-8")
        #expect(spaced?.parameter("title") == #"a; "b""#)
        #expect(MediaType(parsing: "text/javascript")?.isJSON == true)
        #expect(MediaType(parsing: "application/x-plist")?.isPropertyList == true)
        #expect(MediaType(parsing: "application/x-www-form-urlencoded")?.isText == true)
    }
}
