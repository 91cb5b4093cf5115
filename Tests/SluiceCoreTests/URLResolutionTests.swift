import Foundation
import Testing
@testable import SluiceCore

@Suite("url-resolution")
struct URLResolutionTests {
    @Test(
        "a base with a path gets a trailing slash, as in AFNetworking",
        arguments: [
            ("https://h/v1", "foo", "https://h/v1/foo"), ("https://h/v1/", "foo", "https://h/v1/foo"),
            ("https://h", "foo", "https://h/foo"), ("https://h/", "foo", "https://h/foo"),
            ("https://h/v1", "/foo", "https://h/foo"), ("https://h/v1", "foo?bar=baz", "https://h/v1/foo?bar=baz"),
            ("https://h/v1", "../x", "https://h/x"), ("https://h/v1", "http://other/y", "http://other/y"),
            ("http://127.0.0.1:8080/a/b", "c/./d/../e", "http://127.0.0.1:8080/a/b/c/e"),
        ]
    )
    func baseRule(base: String, path: String, expected: String) throws {
        let stage = try URLResolution(baseURL: base)
        #expect(try stage.resolve(#require(URL(string: path))).absoluteString == expected)
    }

    @Test(
        "templates are filled with values encoded as one path segment",
        arguments: [
            ("42", "https://h/v1/users/42/posts"), ("a/b", "https://h/v1/users/a%2Fb/posts"),
            ("a b?c#d%", "https://h/v1/users/a%20b%3Fc%23d%25/posts"), ("é", "https://h/v1/users/%C3%A9/posts"),
            ("..", "https://h/v1/users/%2E%2E/posts"), (".", "https://h/v1/users/%2E/posts"),
            ("a;b=c:d@e", "https://h/v1/users/a;b=c:d@e/posts"),
        ]
    )
    func templates(value: String, expected: String) throws {
        let stage = try URLResolution(baseURL: "https://h/v1")
        let url = try stage.resolve(#require(URL(string: "users/{id}/posts")), pathParameters: ["id": value])
        #expect(url.absoluteString == expected)
    }

    @Test("remembered resolutions give what resolving anew gives, past the memory's bound and for references a template or a path parameter changes")
    func rememberedResolutions() throws {
        let stage = try URLResolution(baseURL: "https://h/v1")
        let references = (0..<(URLResolution.rememberedReferences * 2 + 7)).map { "items/\($0)/../x\($0 % 5)?q=\($0)" }
        for round in 0..<3 {
            for reference in references {
                let url = try stage.resolve(#require(URL(string: reference)))
                let fresh = try URLResolution(baseURL: "https://h/v1").resolve(#require(URL(string: reference)))
                #expect(url == fresh, "round \(round): \(reference)")
            }
        }
        // The same text with path parameters is filled each time, never answered from memory.
        let template = try #require(URL(string: "users/{id}"))
        #expect(try stage.resolve(template, pathParameters: ["id": "1"]).absoluteString == "https://h/v1/users/1")
        #expect(try stage.resolve(template, pathParameters: ["id": "2"]).absoluteString == "https://h/v1/users/2")
        #expect(throws: SluiceError.self) { try stage.resolve(template) }
        #expect(throws: SluiceError.self) { try stage.resolve(template) }
    }

    @Test("several templates, one inside a segment, the query left alone")
    func severalTemplates() async throws {
        let stage = try URLResolution(baseURL: "http://h/api")
        let request = Request("{kind}/{id}.json?x={kept}", pathParameters: ["kind": "users", "id": "7"])
        let (sent, _) = try await send(request, through: [stage])
        #expect(sent.url.absoluteString == "http://h/api/users/7.json?x=%7Bkept%7D")
        #expect(sent.pathParameters.isEmpty)
    }

    @Test("in a URL made elsewhere, which holds { as %7B, templates percent-encoded in either case are filled; a lone '%7B' or '{' is left as it is")
    func encodedTemplates() throws {
        let stage = try URLResolution(baseURL: "https://h/v1")
        let upper = try stage.resolve(#require(URL(string: "users/%7Bid%7D/%7bpart%7d")), pathParameters: ["id": "7", "part": "x"])
        #expect(upper.absoluteString == "https://h/v1/users/7/x")
        let lone = try stage.resolve(#require(URL(string: "a%7B/%7Bb/%25/c")), pathParameters: [:])
        #expect(lone.absoluteString == "https://h/v1/a%7B/%7Bb/%25/c")
    }

    @Test("a base that is not an absolute http(s) URL with a host is a typed error", arguments: ["ftp://h/x", "/relative", "h/x", "http://", "mailto:a@b"])
    func badBase(base: String) {
        #expect {
            try URLResolution(baseURL: base)
        } throws: { error in
            let error = error as? SluiceError
            return error?.kind == .invalidRequest && error?.stage == "url-resolution" && error?.message.contains(base) == true
        }
    }

    @Test("a template without a value, or a value without a template, is a typed error")
    func missingValues() async throws {
        let stage = try URLResolution(baseURL: "http://h/")
        let missing = await #expect(throws: SluiceError.self) { try await send(Request("users/{id}"), through: [stage]) }
        #expect(missing?.kind == .invalidRequest)
        #expect(missing?.stage == "url-resolution")
        #expect(missing?.message.contains("{id}") == true)
        let unused = await #expect(throws: SluiceError.self) { try await send(Request("users", pathParameters: ["id": "1"]), through: [stage]) }
        #expect(unused?.kind == .invalidRequest)
        #expect(unused?.message.contains("{id}") == true)
        let twoUnused = await #expect(throws: SluiceError.self) {
            try await send(Request("users/{id}", pathParameters: ["zz": "1", "id": "2", "b": "3"]), through: [stage])
        }
        #expect(twoUnused?.message == "path-parameters has b, but the path has no {b} template", "the first unused name, sorted")
        let twice = try stage.resolve(#require(URL(string: "{id}/x/{id}")), pathParameters: ["id": "7"])
        #expect(twice.absoluteString.hasSuffix("/7/x/7"), "a name used twice is used")
    }

    @Test("a string that is not a URL reference makes a request all the same; its task fails with .invalidRequest naming it, before any stage runs")
    func unparsableString() async throws {
        let stage = try URLResolution(baseURL: "http://h/")
        let request = Request("http://exa mple.com/")
        #expect(request.url.absoluteString == "about:blank")
        let log = Log()
        let error = await #expect(throws: SluiceError.self) { try await send(request, through: [stage, Tracer(name: "seen", log: log)]) }
        #expect(error?.kind == .invalidRequest && error?.stage == "request")
        #expect(error?.message == "'http://exa mple.com/' is not a URL reference (RFC 3986)")
        #expect(log.all.isEmpty, "no stage ran")
        var fixed = request
        fixed.url = URL(string: "users/a%20b")!
        #expect(try await send(fixed, through: [stage]).sent.url.absoluteString == "http://h/users/a%20b", "setting the URL clears the refusal")
    }
}
