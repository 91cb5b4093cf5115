import SluiceHurlFiles
import Testing

/// Request and response sections and their lines.
struct HurlSectionTests {
    @Test func requestSectionsInAnyOrderWithBothNames() throws {
        let text = """
            POST http://localhost/login
            [Form]
            user: toto
            [QueryStringParams]
            search: {{term}}
            order: desc
            [Cookies]
            theme: light
            [BasicAuth]
            bob: secret
            [Options]
            insecure: true
            [Multipart]
            a: b
            """
        let entry = try HurlTestSupport.entry(text)
        let sections = entry.request.sections
        #expect(sections.map(\.name) == ["Form", "QueryStringParams", "Cookies", "BasicAuth", "Options", "Multipart"])
        #expect(sections.map(\.position) == [.at(2, 1), .at(4, 1), .at(7, 1), .at(9, 1), .at(11, 1), .at(13, 1)])
        guard case .query(let query) = sections[1].content, case .basicAuth(let auth) = sections[3].content else {
            Issue.record("unexpected sections \(sections)")
            return
        }
        #expect(query.map { $0.key.literalValue } == ["search", "order"])
        #expect(query[1].value == HurlTestSupport.literal("desc", at: .at(6, 8)))
        #expect(auth.first?.value.literalValue == "secret")
    }

    @Test func sectionNamesAreAliases() throws {
        let entry = try HurlTestSupport.entry("GET http://a\n[FormParams]\na: 1\n[MultipartFormData]\nb: 2\n")
        #expect(entry.request.sections.map(\.name) == ["FormParams", "MultipartFormData"])
        guard case .form = entry.request.sections[0].content, case .multipart = entry.request.sections[1].content else {
            Issue.record("unexpected sections")
            return
        }
    }

    @Test func duplicateSections() {
        HurlTestSupport.expectError(
            "GET http://a\n[Query]\na: 1\n[QueryStringParams]\nb: 2\n",
            line: 4,
            column: 1,
            message: "expected each kind of section at most once per request or response, found a second `[QueryStringParams]`"
        )
        HurlTestSupport.expectError(
            "GET http://a\nHTTP 200\n[Asserts]\n[Captures]\n[Asserts]\n",
            line: 5,
            column: 1,
            message: "expected each kind of section at most once per request or response, found a second `[Asserts]`"
        )
    }

    @Test func emptySectionsAndSectionComments() throws {
        let entry = try HurlTestSupport.entry("GET http://localhost\n[Query]   # none\n[Cookies]\nHTTP 200\n[Captures]\n[Asserts]\n")
        #expect(entry.request.sections.count == 2)
        #expect(entry.response?.sections.count == 2)
    }

    @Test func multipart() throws {
        let text = """
            POST http://localhost/upload
            [Multipart]
            field1: value1
            file1: file,data.txt;
            file2: file,my\\ data.bin; application/octet-stream
            file3: file,{{name}}.json;   # comment
            """
        let entry = try HurlTestSupport.entry(text)
        guard case .multipart(let parameters) = entry.request.sections.first?.content else {
            Issue.record("expected a multipart section")
            return
        }
        #expect(parameters.count == 4)
        #expect(parameters[0].value == .text(HurlTestSupport.literal("value1", at: .at(3, 9))))
        #expect(parameters[1].value == .file(filename: HurlTestSupport.literal("data.txt", at: .at(4, 13)), contentType: nil))
        guard case .file(let filename, let contentType) = parameters[2].value else {
            Issue.record("expected a file")
            return
        }
        #expect(filename.literalValue == "my data.bin")
        #expect(contentType == "application/octet-stream")
        guard case .file(let templated, nil) = parameters[3].value else {
            Issue.record("expected a file without content type")
            return
        }
        #expect(templated.literalValue == nil)
    }

    @Test func captures() throws {
        let capture = try HurlTestSupport.captureLine("csrf_token: xpath \"string(//input/@value)\" regex /(\\w+)/ redact")
        #expect(capture.name.literalValue == "csrf_token")
        #expect(capture.query.kind == .xpath(HurlTestSupport.quoted("string(//input/@value)", line: 4, column: 19)))
        #expect(capture.filters.count == 1)
        #expect(capture.isRedacted)
        let plain = try HurlTestSupport.captureLine("id: jsonpath \"$.id\"   # the id")
        #expect(plain.filters.isEmpty)
        #expect(!plain.isRedacted)
        #expect(plain.query.position == .at(4, 5))
    }

    @Test func assertsThenBody() throws {
        let text = """
            GET http://localhost
            HTTP 200
            [Asserts]
            status == 200

            # the body
            {"ok": true}
            """
        let entry = try HurlTestSupport.entry(text)
        guard case .asserts(let asserts) = entry.response?.sections.first?.content else {
            Issue.record("expected asserts")
            return
        }
        #expect(asserts.count == 1)
        #expect(entry.response?.body?.position == .at(7, 1))
    }

    @Test func sectionErrors() {
        HurlTestSupport.expectError(
            "GET http://localhost\n[Asserts]\nstatus == 200\n",
            line: 2,
            column: 1,
            message:
                "expected a request section ([Query], [Form], [Multipart], [Cookies], [BasicAuth] or [Options]); [Asserts] belongs to a response, after `HTTP <status>`, found `[Asserts]`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Headers]\n",
            line: 2,
            column: 1,
            message:
                "expected a request section ([Query], [Form], [Multipart], [Cookies], [BasicAuth] or [Options]), found `[Headers]`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\nHTTP 200\n[Query]\n",
            line: 3,
            column: 1,
            message: "expected a response section ([Captures] or [Asserts]), found `[Query]`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Query] foo\n",
            line: 2,
            column: 9,
            message: "expected the end of the line after the section header `[Query]`, found `foo`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Multipart]\nf: file,a.txt\n",
            line: 3,
            column: 14,
            message: "expected `;` after the file name of a multipart file, found the end of the line"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\nHTTP 200\n[Captures]\nid: foo\n",
            line: 4,
            column: 5,
            message:
                "expected a query (status, header, cookie, body, jsonpath, xpath, regex, variable, duration, bytes, ...) after `id:`, found `foo`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\nHTTP 200\n[Captures]\nid: body toto\n",
            line: 4,
            column: 10,
            message:
                "expected a filter (count, nth, regex, ...), `redact` or the end of the line in the capture, found `toto`"
        )
    }
}
