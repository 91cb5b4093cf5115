import SluiceHurlFiles
import Testing

/// Inputs transcribed from the unit tests of Hurl's own parser (Orange-OpenSource/hurl, Apache-2.0):
///
/// - `packages/hurl_core/src/parser/parsers.rs` at commit 2b890cf5e0ef0a37b091ea76f92b3ceb4322561a
/// - `packages/hurl_core/src/parser/sections.rs` at commit de79388be50acc9d59fefe31faa218d30b4178f4
/// - `packages/hurl_core/src/parser/query.rs` at commit 9866cab7d4f9fa42b638aa2866b4a72a6c3bdd43
/// - `packages/hurl_core/src/parser/filter.rs` at commit fc09bfcc2c57d77ecec2e2676304bea511b89b21
/// - `packages/hurl_core/src/parser/predicate.rs` at commit b83bbf67eda7d355bf15cf56d2ea374f24f9fa37
/// - `packages/hurl_core/src/parser/option.rs` at commit 62059ae29e892f19af3110f4877c72a797f27464
/// - `packages/hurl_core/src/parser/multiline.rs` at commit 0ab9fedafac43104ec2a64587ce5040cc316cbd8
///
/// Old syntax in those tests (`equals`, `HTTP/*`) is written in today's form (`==`, `HTTP`).
/// Hurl's positions of quoted strings start after the quote; here they start at the quote.
struct HurlCoreParserCaseTests {
    @Test func entries() throws {
        #expect(try HurlFile.parse("GET http://google.fr").entries.count == 1)
        let two = try HurlFile.parse("GET http://google.fr\nGET http://google.fr")
        #expect(two.entries.map(\.position) == [.at(1, 1), .at(2, 1)])
        let commented = try HurlFile.parse("GET http://google.fr # comment1\nGET http://google.fr # comment2")
        #expect(commented.entries.count == 2)
        #expect(commented.comments.map(\.text) == [" comment1", " comment2"])
        let withResponse = try HurlTestSupport.entry("GET http://google.fr\nHTTP/1.1 200")
        #expect(withResponse.response?.status.kind == .code(200))
    }

    @Test func requestLine() throws {
        let entry = try HurlTestSupport.entry("GET  http://google.fr # comment")
        #expect(entry.request.url == HurlTestSupport.literal("http://google.fr", at: .at(1, 6)))
        HurlTestSupport.expectError(
            "xxx",
            line: 1,
            column: 1,
            message: "expected a request: an HTTP method in uppercase letters (GET, POST, ...) followed by a URL, found `xxx`"
        )
    }

    @Test func requestBodies() throws {
        let multiline = try HurlTestSupport.entry("GET http://google.fr\n```\nHello World!\n```")
        guard case .multilineString(let helloWorld) = multiline.request.body?.kind else {
            Issue.record("expected a multiline body")
            return
        }
        #expect(helloWorld.content == HurlTestSupport.literal("Hello World!\n", at: .at(3, 1)))

        let array = try HurlTestSupport.entry("POST http://localhost:8000/post-json-array\n[1,2,3]")
        guard case .json(let json) = array.request.body?.kind, case .array(let elements) = json.kind else {
            Issue.record("expected a JSON array")
            return
        }
        #expect(elements.map(\.kind) == [.number("1"), .number("2"), .number("3")])

        let string = try HurlTestSupport.entry("POST http://localhost:8000/post-json-string\n\"Hello\"")
        #expect(
            string.request.body?.kind
                == .json(HurlJSONValue(position: .at(2, 1), kind: .string(HurlTestSupport.quoted("Hello", line: 2, column: 1))))
        )
        let number = try HurlTestSupport.entry("POST http://localhost:8000/post-json-number\n100")
        #expect(number.request.body?.kind == .json(HurlJSONValue(position: .at(2, 1), kind: .number("100"))))
    }

    @Test func multilineStrings() throws {
        for text in ["```\nline1\nline2\nline3\n```", "```         \nline1\nline2\nline3\n```"] {
            let entry = try HurlTestSupport.entry("POST http://a\n\(text)")
            guard case .multilineString(let string) = entry.request.body?.kind else {
                Issue.record("expected a multiline body")
                continue
            }
            #expect(string.content == HurlTestSupport.literal("line1\nline2\nline3\n", at: .at(3, 1)))
        }
        guard case .multilineString(let json) = try HurlTestSupport.entry("POST http://a\n```json\nline1\n```").request.body?.kind
        else {
            Issue.record("expected a multiline body")
            return
        }
        #expect(json.language == .json)
        for text in ["```hexaaa\nline1\n```", "```aaa\nline1\n```"] {
            #expect(HurlTestSupport.syntaxError("POST http://a\n\(text)") != nil)
        }
        guard case .multilineString(let empty) = try HurlTestSupport.entry("POST http://a\n```\n```").request.body?.kind else {
            Issue.record("expected a multiline body")
            return
        }
        #expect(empty.content.parts.isEmpty)
        #expect(!empty.isOneline)
        guard case .multilineString(let crlf) = try HurlTestSupport.entry("POST http://a\r\n```\r\n```").request.body?.kind else {
            Issue.record("expected a multiline body")
            return
        }
        #expect(crlf.content.parts.isEmpty)
    }

    @Test func assertsSection() throws {
        let assert = try HurlTestSupport.assertLine("header \"Location\" == \"https://google.fr\"")
        #expect(assert.query == HurlQuery(position: .at(4, 1), kind: .header(name: HurlTestSupport.quoted("Location", line: 4, column: 8))))
        #expect(assert.predicate.position == .at(4, 19))
        #expect(
            assert.predicate.function.kind
                == .equal(HurlValue(position: .at(4, 22), kind: .string(HurlTestSupport.quoted("https://google.fr", line: 4, column: 22))))
        )
        HurlTestSupport.expectError(
            "GET http://a\nHTTP 200\n[Assertsx]\nheader \"Location\" == \"https://google.fr\"\n",
            line: 3,
            column: 1,
            message: "expected a response section ([Captures] or [Asserts]), found `[Assertsx]`"
        )
    }

    @Test func cookiesSection() throws {
        let entry = try HurlTestSupport.entry("GET http://a\n[Cookies]\nFoo: Bar\n")
        guard case .cookies(let cookies) = entry.request.sections.first?.content else {
            Issue.record("expected cookies")
            return
        }
        #expect(cookies.first?.value == HurlTestSupport.literal("Bar", at: .at(3, 6)))
        HurlTestSupport.expectError(
            "GET http://a\n[Cookies]\nFoo: {{Bar",
            line: 3,
            column: 11,
            message: "expected a filter or `}}` to close the expression started at 3:6, found the end of the file"
        )
    }

    @Test func multipartFileValues() throws {
        let text = "POST http://a\n[Multipart]\na: file,hello.txt;\nb: file,hello.txt; text/html\nc: file,hello.txt; text/plain; charset=us-ascii\nd: file,hello.txt; text/html # comment\n"
        guard case .multipart(let parameters) = try HurlTestSupport.entry(text).request.sections.first?.content else {
            Issue.record("expected multipart")
            return
        }
        let contentTypes: [String?] = parameters.map {
            guard case .file(_, let contentType) = $0.value else { return "not a file" }
            return contentType
        }
        #expect(contentTypes == [nil, "text/html", "text/plain; charset=us-ascii", "text/html"])
        #expect(parameters[0].value == .file(filename: HurlTestSupport.literal("hello.txt", at: .at(3, 9)), contentType: nil))
    }

    @Test func captures() throws {
        let url = try HurlTestSupport.captureLine("url: header \"Location\"")
        #expect(url.name == HurlTestSupport.literal("url", at: .at(4, 1)))
        #expect(url.query == HurlQuery(position: .at(4, 6), kind: .header(name: HurlTestSupport.quoted("Location", line: 4, column: 13))))

        let token = try HurlTestSupport.captureLine("token: header \"Location\" regex \"token=(.*)\"")
        #expect(token.query.position == .at(4, 8))
        #expect(token.filters == [HurlFilter(position: .at(4, 26), kind: .regex(.quoted(HurlTestSupport.quoted("token=(.*)", line: 4, column: 32))))])

        HurlTestSupport.expectError(
            "GET http://a\nHTTP 200\n[Captures]\ntoken: header \"Location\" regex ",
            line: 4,
            column: 32,
            message: "expected a space and a quoted string (\"...\") or a /regex/ after `regex`, found the end of the file"
        )
        HurlTestSupport.expectError(
            "GET http://a\nHTTP 200\n[Captures]\ntoken: header \"Location\" xxx",
            line: 4,
            column: 26,
            message: "expected a filter (count, nth, regex, ...), `redact` or the end of the line in the capture, found `xxx`"
        )
    }

    @Test func queries() throws {
        #expect(try HurlTestSupport.assertLine("status == 200").query == HurlQuery(position: .at(4, 1), kind: .status))
        #expect(
            try HurlTestSupport.assertLine("cookie \"Foo[Domain]\" exists").query.kind
                == .cookie(path: HurlTestSupport.quoted("Foo[Domain]", line: 4, column: 8))
        )
        let xpath = "normalize-space(//div[contains(concat(' ',normalize-space(@class),' '),' monthly-price ')])"
        #expect(
            try HurlTestSupport.assertLine("xpath \"\(xpath)\" exists").query.kind
                == .xpath(HurlTestSupport.quoted(xpath, line: 4, column: 7))
        )
        #expect(
            try HurlTestSupport.assertLine("jsonpath \"$['statusCode']\" == 200").query.kind
                == .jsonpath(HurlTestSupport.quoted("$['statusCode']", line: 4, column: 10))
        )
        let withFilter = try HurlTestSupport.assertLine("body urlDecode  == \"a\"")
        #expect(withFilter.filters == [HurlFilter(position: .at(4, 6), kind: .urlDecode)])
    }

    @Test func filters() throws {
        #expect(try HurlTestSupport.assertLine("body count == 1").filters == [HurlFilter(position: .at(4, 6), kind: .count)])
        HurlTestSupport.expectError(
            "GET http://a\nHTTP 200\n[Asserts]\nbody xcount == 1\n",
            line: 4,
            column: 6,
            message: "expected a predicate (==, contains, exists, ...) after the query, found `xcount`"
        )
        HurlTestSupport.expectError(
            "GET http://a\nHTTP 200\n[Asserts]\nbody regex 1 == 1\n",
            line: 4,
            column: 12,
            message: "expected a quoted string (\"...\") or a /regex/ after `regex`, found `1`"
        )
    }

    @Test func predicates() throws {
        let notTrue = try HurlTestSupport.assertLine("body not == true").predicate
        #expect(notTrue.isNegated)
        #expect(notTrue.function == HurlPredicateFunction(position: .at(4, 10), kind: .equal(HurlValue(position: .at(4, 13), kind: .boolean(true)))))
        HurlTestSupport.expectError(
            "GET http://a\nHTTP 200\n[Asserts]\nbody notXX\n",
            line: 4,
            column: 6,
            message: "expected a predicate (==, contains, exists, ...) after the query, found `notXX`"
        )
        HurlTestSupport.expectError(
            "GET http://a\nHTTP 200\n[Asserts]\nbody tata == 1\n",
            line: 4,
            column: 6,
            message: "expected a predicate (==, contains, exists, ...) after the query, found `tata`"
        )
        #expect(
            try HurlTestSupport.assertLine("body ==  1.1").predicate.function.kind
                == .equal(HurlValue(position: .at(4, 10), kind: .float("1.1")))
        )
        #expect(
            try HurlTestSupport.assertLine("body == \"Bob\"").predicate.function.kind
                == .equal(HurlValue(position: .at(4, 9), kind: .string(HurlTestSupport.quoted("Bob", line: 4, column: 9))))
        )
    }

    /// From `packages/hurl_core/src/parser/key_string.rs` at commit 3f3f9e9c0f924d2172faa0d3ed36df9257bfa841.
    @Test(arguments: [
        ("aaa\\:: b", "aaa:"), ("$top: b", "$top"), ("key\\u{20}\\u{3a} : b", "key :"),
        ("values\\u{5b}0\\u{5d} : b", "values[0]"), ("values[0] : b", "values[0]"), ("\\u{5b}0\\u{5d}: b", "[0]"),
        ("a\\/b: b", "a/b"),
    ])
    func keyStrings(line: String, key: String) throws {
        let entry = try HurlTestSupport.entry("GET http://a\n[Query]\n\(line)\n")
        guard case .query(let parameters) = entry.request.sections.first?.content else {
            Issue.record("expected a query section")
            return
        }
        #expect(parameters.first?.key.literalValue == key)
        #expect(parameters.first?.value.literalValue == "b")
    }

    @Test func keyStringErrors() {
        HurlTestSupport.expectError(
            "GET http://a\n[Query]\na\\l: b\n",
            line: 3,
            column: 2,
            message: "expected an escape sequence of a key (\\# \\/ \\: \\\\ \\b \\f \\n \\r \\t \\u{...}), found `\\l`"
        )
        HurlTestSupport.expectError(
            "GET http://a\n[Query]\nkey: {{key\n",
            line: 3,
            column: 11,
            message: "expected a filter or `}}` to close the expression started at 3:6, found the end of the line"
        )
    }

    @Test func insecureOption() throws {
        let option = try HurlTestSupport.optionLine("insecure: true")
        #expect(option == HurlOption(position: .at(3, 1), name: .insecure, value: .boolean(true)))
    }
}
