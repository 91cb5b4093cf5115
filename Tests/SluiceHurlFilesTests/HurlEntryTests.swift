import SluiceHurlFiles
import Testing

/// Request lines, headers, response lines and how entries follow each other.
struct HurlEntryTests {
    @Test func minimalRequest() throws {
        let entry = try HurlTestSupport.entry("GET https://example.org")
        #expect(entry.position == .at(1, 1))
        #expect(entry.request.method == "GET")
        #expect(entry.request.url == HurlTestSupport.literal("https://example.org", at: .at(1, 5)))
        #expect(entry.request.headers.isEmpty)
        #expect(entry.request.sections.isEmpty)
        #expect(entry.request.body == nil)
        #expect(entry.response == nil)
    }

    @Test func anyUppercaseMethodIsAccepted() throws {
        let file = try HurlFile.parse("PURGE http://a\nMKCOL http://b\nQUERY http://c\n")
        #expect(file.entries.map(\.request.method) == ["PURGE", "MKCOL", "QUERY"])
    }

    @Test func urlStopsAtCommentAndTrailingSpaces() throws {
        let file = try HurlFile.parse("GET http://a/b?c=d   # the home page\n")
        let entry = try #require(file.entries.first)
        #expect(entry.request.url.literalValue == "http://a/b?c=d")
        #expect(file.comments == [HurlComment(position: .at(1, 22), text: " the home page")])
    }

    @Test func urlWithTemplate() throws {
        let entry = try HurlTestSupport.entry("GET {{host}}/api/{{ id }}")
        let parts = entry.request.url.parts
        #expect(parts.count == 3)
        guard case .expression(let host) = parts[0], case .literal(let path) = parts[1],
            case .expression(let id) = parts[2]
        else {
            Issue.record("unexpected parts \(parts)")
            return
        }
        #expect(host == HurlTemplateExpression(position: .at(1, 5), source: .variable(name: "host"), filters: []))
        #expect(path.value == "/api/")
        #expect(path.position == .at(1, 13))
        #expect(id.source == .variable(name: "id"))
        #expect(id.position == .at(1, 18))
    }

    @Test func headers() throws {
        let entry = try HurlTestSupport.entry(
            "GET http://localhost\nUser-Agent: Mozilla/5.0 \nAccept:*/*\n  X-Token: {{token}} # secret\nx-empty:\n"
        )
        let headers = entry.request.headers
        #expect(headers.count == 4)
        #expect(headers[0].key == HurlTestSupport.literal("User-Agent", at: .at(2, 1)))
        #expect(headers[0].value == HurlTestSupport.literal("Mozilla/5.0", at: .at(2, 13)))
        #expect(headers[1].value.literalValue == "*/*")
        #expect(headers[2].position == .at(4, 3))
        #expect(headers[2].value.literalValue == nil)
        #expect(headers[3].value.parts.isEmpty)
        #expect(headers.allSatisfy { $0.separator == .colon })
    }

    @Test func headerWithEmptyValueWrittenWithSemicolon() throws {
        let entry = try HurlTestSupport.entry("GET http://localhost\nX-Custom;\nHTTP 200\n")
        #expect(entry.request.headers.count == 1)
        #expect(entry.request.headers[0].separator == .semicolon)
        #expect(entry.request.headers[0].key.literalValue == "X-Custom")
        #expect(entry.request.headers[0].value.parts.isEmpty)
    }

    @Test func headerEscapes() throws {
        let entry = try HurlTestSupport.entry("GET http://localhost\nx\\:y: a\\#b \\u{E9}\\\\\n")
        let header = try #require(entry.request.headers.first)
        #expect(header.key.literalValue == "x:y")
        #expect(header.value.literalValue == "a#b é\\")
        guard case .literal(let literal) = header.value.parts.first else {
            Issue.record("expected literal text")
            return
        }
        #expect(literal.source == "a\\#b \\u{E9}\\\\")
    }

    @Test(arguments: [
        ("HTTP 200", HurlHTTPVersion.any), ("HTTP/1.0 200", .http1_0), ("HTTP/1.1 200", .http1_1),
        ("HTTP/2 200", .http2), ("HTTP/3 200", .http3),
    ])
    func responseVersions(line: String, version: HurlHTTPVersion) throws {
        let entry = try HurlTestSupport.entry("GET http://localhost\n\(line)\n")
        #expect(entry.response?.version == version)
        #expect(entry.response?.status == HurlStatus(position: .at(2, line.count - 2), kind: .code(200)))
    }

    @Test func anyStatus() throws {
        let entry = try HurlTestSupport.entry("GET http://localhost\nHTTP *\n")
        #expect(entry.response?.status.kind == .any)
        #expect(entry.response?.position == .at(2, 1))
    }

    @Test func responseHeadersAreImplicitAsserts() throws {
        let entry = try HurlTestSupport.entry(
            "GET http://localhost\nHTTP/1.1 302\nLocation: http://localhost/b\nSet-Cookie: a=b; Path=/\n"
        )
        #expect(entry.response?.headers.map { $0.key.literalValue } == ["Location", "Set-Cookie"])
        #expect(entry.response?.headers.last?.value.literalValue == "a=b; Path=/")
    }

    @Test func severalEntriesWithBlankLinesAndComments() throws {
        let text = """
            # First
            GET http://localhost/a

            HTTP 200

            # Second
            POST http://localhost/b
            HTTP 201
            GET http://localhost/c
            """
        let file = try HurlFile.parse(text)
        #expect(file.entries.map(\.request.method) == ["GET", "POST", "GET"])
        #expect(file.entries.map(\.position) == [.at(2, 1), .at(7, 1), .at(9, 1)])
        #expect(file.entries[0].response?.position == .at(4, 1))
        #expect(file.entries[2].response == nil)
        #expect(file.comments.map(\.text) == [" First", " Second"])
    }

    @Test func emptyFileAndCommentsOnly() throws {
        #expect(try HurlFile.parse("").entries.isEmpty)
        #expect(try HurlFile.parse("\n\n# nothing\n   \n").entries.isEmpty)
    }

    @Test func crlfAndByteOrderMark() throws {
        let file = try HurlFile.parse("\u{FEFF}GET http://localhost\r\nAccept: */*\r\nHTTP 200\r\n[Asserts]\r\nstatus == 200\r\n")
        let entry = try #require(file.entries.first)
        #expect(entry.position == .at(1, 1))
        #expect(entry.request.url.literalValue == "http://localhost")
        #expect(entry.request.headers.first?.value.literalValue == "*/*")
        #expect(entry.response?.position == .at(3, 1))
    }

    @Test func columnsCountUnicodeScalars() throws {
        let entry = try HurlTestSupport.entry("GET http://localhost\nX-Name: é👍🏽x\nX-Next: {{v}}\n")
        guard case .literal(let literal) = entry.request.headers[0].value.parts.first else {
            Issue.record("expected literal text")
            return
        }
        #expect(literal.value == "é👍🏽x")
        let error = HurlTestSupport.syntaxError("GET http://localhost\nHTTP 200\n[Asserts]\nheader \"é👍🏽\" foo\n")
        #expect(error?.line == 4)
        #expect(error?.column == 14)
    }

    @Test func errorAndPositionDescriptions() {
        let error = HurlSyntaxError(line: 3, column: 7, message: "expected x, found `y`")
        #expect(error.description == "3:7: expected x, found `y`")
        #expect(error.position == .at(3, 7))
        #expect(HurlSourcePosition.at(1, 9) < .at(2, 1))
        #expect(HurlSourcePosition.at(2, 1) < .at(2, 2))
    }

    @Test func requestErrors() {
        HurlTestSupport.expectError(
            "get http://localhost",
            line: 1,
            column: 1,
            message:
                "expected a request: an HTTP method in uppercase letters (GET, POST, ...) followed by a URL, found `get`"
        )
        HurlTestSupport.expectError(
            "GET\n",
            line: 1,
            column: 4,
            message: "expected a URL after the method `GET`, found the end of the line"
        )
        HurlTestSupport.expectError(
            "GET   # no url\n",
            line: 1,
            column: 7,
            message: "expected a URL after the method `GET`, found `#`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\nContent-Type application/json\n",
            line: 2,
            column: 1,
            message:
                "expected a request: an HTTP method in uppercase letters (GET, POST, ...) followed by a URL, found `Content-Type`"
        )
    }

    @Test func responseErrors() {
        HurlTestSupport.expectError(
            "GET http://localhost\nHTTP/1.2 200\n",
            line: 2,
            column: 1,
            message: "expected an HTTP version (HTTP, HTTP/1.0, HTTP/1.1, HTTP/2 or HTTP/3), found `HTTP/1.2`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\nHTTP\n",
            line: 2,
            column: 5,
            message: "expected a status code (such as 200) or `*` after `HTTP`, found the end of the line"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\nHTTP OK\n",
            line: 2,
            column: 6,
            message: "expected a status code (such as 200) or `*`, found `OK`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\nHTTP 200 OK\n",
            line: 2,
            column: 10,
            message: "expected the end of the line after the status code, found `OK`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\nHTTP 20000\n",
            line: 2,
            column: 6,
            message: "expected a status code of at most 3 digits, found `20000`"
        )
    }
}
