import SluiceHurlFiles
import Testing

/// Filters, with their arguments.
struct HurlFilterTests {
    private func filters(_ text: String) throws -> [HurlFilter.Kind] {
        try HurlTestSupport.assertLine("body \(text) exists").filters.map(\.kind)
    }

    private func quoted(_ text: String, column: Int) -> HurlTemplate {
        HurlTestSupport.quoted(text, line: 4, column: column)
    }

    @Test(arguments: [
        ("base64Decode", HurlFilter.Kind.base64Decode), ("base64Encode", .base64Encode),
        ("base64UrlSafeDecode", .base64UrlSafeDecode), ("base64UrlSafeEncode", .base64UrlSafeEncode),
        ("count", .count), ("daysAfterNow", .daysAfterNow), ("daysBeforeNow", .daysBeforeNow), ("first", .first),
        ("htmlEscape", .htmlEscape), ("htmlUnescape", .htmlUnescape), ("last", .last), ("location", .location),
        ("toFloat", .toFloat), ("toHex", .toHex), ("toInt", .toInt), ("toString", .toString),
        ("urlDecode", .urlDecode), ("urlEncode", .urlEncode), ("utf8Decode", .utf8Decode), ("utf8Encode", .utf8Encode),
    ])
    func filtersWithoutArgument(text: String, kind: HurlFilter.Kind) throws {
        let assert = try HurlTestSupport.assertLine("body \(text) exists")
        #expect(assert.filters == [HurlFilter(position: .at(4, 6), kind: kind)])
    }

    @Test func filtersWithQuotedArgument() throws {
        #expect(try filters("decode \"gb2312\"") == [.decode(charset: quoted("gb2312", column: 13))])
        #expect(try filters("charsetDecode \"gb2312\"") == [.charsetDecode(charset: quoted("gb2312", column: 20))])
        #expect(try filters("format \"%Y\"") == [.format(quoted("%Y", column: 13))])
        #expect(try filters("dateFormat \"%A\"") == [.dateFormat(quoted("%A", column: 17))])
        #expect(try filters("jsonpath \"$.a\"") == [.jsonpath(quoted("$.a", column: 15))])
        #expect(try filters("xpath \"//a\"") == [.xpath(quoted("//a", column: 12))])
        #expect(try filters("split \", \"") == [.split(separator: quoted(", ", column: 12))])
        #expect(try filters("toDate \"%+\"") == [.toDate(format: quoted("%+", column: 13))])
        #expect(try filters("urlQueryParam \"x\"") == [.urlQueryParam(name: quoted("x", column: 20))])
    }

    @Test func nthFilter() throws {
        #expect(try filters("nth 2") == [.nth(index: HurlValue(position: .at(4, 10), kind: .integer("2")))])
        #expect(try filters("nth -1") == [.nth(index: HurlValue(position: .at(4, 10), kind: .integer("-1")))])
        let templated = try filters("nth {{i}}")
        #expect(
            templated
                == [
                    .nth(
                        index: HurlValue(
                            position: .at(4, 10),
                            kind: .expression(HurlTemplateExpression(position: .at(4, 10), source: .variable(name: "i"), filters: []))
                        )
                    )
                ]
        )
    }

    @Test func regexAndReplaceFilters() throws {
        guard case .regex(.quoted(let pattern)) = try filters("regex \"(\\\\d+)\"").first else {
            Issue.record("expected a quoted regex")
            return
        }
        #expect(pattern.literalValue == "(\\d+)")
        #expect(
            try filters("regex /(\\d+)/")
                == [.regex(.regex(HurlRegex(position: .at(4, 12), source: "(\\d+)", pattern: "(\\d+)")))]
        )
        #expect(
            try filters("replace \"http://\" \"https://\"")
                == [.replace(old: .quoted(quoted("http://", column: 14)), new: quoted("https://", column: 24))]
        )
        #expect(
            try filters("replaceRegex /\\d/ \"x\"")
                == [
                    .replaceRegex(
                        pattern: .regex(HurlRegex(position: .at(4, 19), source: "\\d", pattern: "\\d")),
                        replacement: quoted("x", column: 24)
                    )
                ]
        )
    }

    @Test func chainedFilters() throws {
        let assert = try HurlTestSupport.assertLine("header \"x-servers\" split \",\" nth 0 toInt count == 2")
        #expect(assert.filters.map(\.position) == [.at(4, 20), .at(4, 30), .at(4, 36), .at(4, 42)])
        guard case .equal(let operand) = assert.predicate.function.kind else {
            Issue.record("expected ==")
            return
        }
        #expect(operand.kind == .integer("2"))
    }

    @Test func filterErrors() {
        let prefix = "GET http://localhost\nHTTP 200\n[Asserts]\n"
        HurlTestSupport.expectError(
            prefix + "body nth x == 1\n",
            line: 4,
            column: 10,
            message: "expected an index (an integer or a {{...}} expression) after `nth`, found `x`"
        )
        HurlTestSupport.expectError(
            prefix + "body regex 1 == 1\n",
            line: 4,
            column: 12,
            message: "expected a quoted string (\"...\") or a /regex/ after `regex`, found `1`"
        )
        HurlTestSupport.expectError(
            prefix + "body replace \"a\" == \"b\"\n",
            line: 4,
            column: 18,
            message: "expected a quoted string (\"...\") as the replacement of `replace`, found `==`"
        )
        HurlTestSupport.expectError(
            prefix + "body split\n",
            line: 4,
            column: 11,
            message: "expected a space and a quoted string (\"...\") after `split`, found the end of the line"
        )
    }
}
