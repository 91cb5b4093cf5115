import SluiceHurlFiles
import Testing

/// Queries of asserts and captures.
struct HurlQueryTests {
    private func query(_ text: String) throws -> HurlQuery {
        try HurlTestSupport.assertLine("\(text) exists").query
    }

    @Test(arguments: [
        ("status", HurlQuery.Kind.status), ("version", .version), ("url", .url), ("ip", .ip),
        ("redirects", .redirects), ("body", .body), ("duration", .duration), ("bytes", .bytes),
        ("rawbytes", .rawBytes), ("sha256", .sha256), ("md5", .md5),
    ])
    func queriesWithoutArgument(text: String, kind: HurlQuery.Kind) throws {
        let parsed = try query(text)
        #expect(parsed.kind == kind)
        #expect(parsed.position == .at(4, 1))
    }

    @Test func queriesWithQuotedArgument() throws {
        #expect(try query("header \"Content-Type\"").kind == .header(name: HurlTestSupport.quoted("Content-Type", line: 4, column: 8)))
        #expect(try query("cookie \"LSID[Expires]\"").kind == .cookie(path: HurlTestSupport.quoted("LSID[Expires]", line: 4, column: 8)))
        #expect(try query("xpath \"//h1\"").kind == .xpath(HurlTestSupport.quoted("//h1", line: 4, column: 7)))
        #expect(try query("jsonpath \"$.books[0]\"").kind == .jsonpath(HurlTestSupport.quoted("$.books[0]", line: 4, column: 10)))
        #expect(try query("variable   \"name\"").kind == .variable(name: HurlTestSupport.quoted("name", line: 4, column: 12)))
    }

    @Test func regexQuery() throws {
        guard case .regex(.quoted(let pattern)) = try query("regex \"^(\\\\d+)$\"").kind,
            case .literal(let literal) = pattern.parts.first
        else {
            Issue.record("expected a quoted regex")
            return
        }
        #expect(literal.value == "^(\\d+)$")
        #expect(literal.source == "^(\\\\d+)$")
        let regexLiteral = try query("regex /^(\\d+)\\/x$/")
        #expect(
            regexLiteral.kind
                == .regex(.regex(HurlRegex(position: .at(4, 7), source: "^(\\d+)\\/x$", pattern: "^(\\d+)/x$")))
        )
    }

    @Test(arguments: HurlCertificateAttribute.allCases)
    func certificateQuery(attribute: HurlCertificateAttribute) throws {
        #expect(try query("certificate \"\(attribute.rawValue)\"").kind == .certificate(attribute))
    }

    @Test func queryWithTemplateArgument() throws {
        let parsed = try query("jsonpath \"$.items[{{index}}]\"")
        guard case .jsonpath(let path) = parsed.kind else {
            Issue.record("expected jsonpath")
            return
        }
        #expect(path.parts.count == 3)
    }

    @Test func queryErrors() {
        let prefix = "GET http://localhost\nHTTP 200\n[Asserts]\n"
        HurlTestSupport.expectError(
            prefix + "statuscode == 200\n",
            line: 4,
            column: 1,
            message:
                "expected a query (status, header, cookie, body, jsonpath, xpath, regex, variable, duration, bytes, ...) at the start of an assert, found `statuscode`"
        )
        HurlTestSupport.expectError(
            prefix + "header Location == \"/\"\n",
            line: 4,
            column: 8,
            message: "expected a quoted string (\"...\") after `header`, found `Location`"
        )
        HurlTestSupport.expectError(
            prefix + "header\n",
            line: 4,
            column: 7,
            message: "expected a space and a quoted string (\"...\") after `header`, found the end of the line"
        )
        HurlTestSupport.expectError(
            prefix + "certificate \"Owner\" exists\n",
            line: 4,
            column: 13,
            message:
                "expected a certificate attribute (\"Subject\", \"Issuer\", \"Start-Date\", \"Expire-Date\", \"Serial-Number\"), found `\"Owner\"`"
        )
        HurlTestSupport.expectError(
            prefix + "jsonpath \"$.a == 1\n",
            line: 4,
            column: 19,
            message: "expected `\"` to close the string started at 4:10, found the end of the line"
        )
        HurlTestSupport.expectError(
            prefix + "regex /abc == 1\n",
            line: 4,
            column: 16,
            message: "expected `/` to close the regex started at 4:7, found the end of the line"
        )
    }
}
