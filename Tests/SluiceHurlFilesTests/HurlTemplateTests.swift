import SluiceHurlFiles
import Testing

/// `{{...}}` expressions: variables, functions, filters and errors.
struct HurlTemplateTests {
    private func expression(_ text: String) throws -> HurlTemplateExpression {
        let entry = try HurlTestSupport.entry("GET http://localhost/\(text)")
        guard case .expression(let expression) = entry.request.url.parts.last else {
            Issue.record("expected an expression")
            throw HurlTestFailure()
        }
        #expect(expression.position == .at(1, 22))
        return expression
    }

    @Test func variables() throws {
        #expect(try expression("{{name}}").source == .variable(name: "name"))
        #expect(try expression("{{ my-id }}").source == .variable(name: "my-id"))
        #expect(try expression("{{_private_1}}").source == .variable(name: "_private_1"))
    }

    @Test func functions() throws {
        #expect(try expression("{{newUuid}}").source == .function(.newUuid, arguments: []))
        #expect(try expression("{{ newDate }}").source == .function(.newDate, arguments: []))
        #expect(
            try expression("{{randomInt 10 99}}").source
                == .function(
                    .randomInt,
                    arguments: [
                        HurlValue(position: .at(1, 34), kind: .integer("10")),
                        HurlValue(position: .at(1, 37), kind: .integer("99")),
                    ]
                )
        )
        #expect(
            try expression("{{getEnv \"HOME\"}}").source
                == .function(.getEnv, arguments: [HurlValue(position: .at(1, 31), kind: .string(HurlTestSupport.quoted("HOME", line: 1, column: 31)))])
        )
    }

    @Test func filtersInExpressions() throws {
        let parsed = try expression("{{newDate dateFormat \"%Y\" }}")
        #expect(parsed.filters == [HurlFilter(position: .at(1, 32), kind: .dateFormat(HurlTestSupport.quoted("%Y", line: 1, column: 43)))])
        let chained = try expression("{{token base64Decode toHex}}")
        #expect(chained.filters.map(\.kind) == [.base64Decode, .toHex])
    }

    @Test func templatesInsideStringsKeys() throws {
        let entry = try HurlTestSupport.entry("GET http://localhost\n{{header_name}}: {{header_value}}x\n")
        let header = try #require(entry.request.headers.first)
        #expect(header.key.parts == [.expression(HurlTemplateExpression(position: .at(2, 1), source: .variable(name: "header_name"), filters: []))])
        #expect(header.value.parts.count == 2)
    }

    @Test func singleBracesAreLiteral() throws {
        let entry = try HurlTestSupport.entry("GET http://localhost/{a}/}}\n")
        #expect(entry.request.url.literalValue == "http://localhost/{a}/}}")
    }

    @Test func literalValueIsNilWithExpressions() throws {
        let entry = try HurlTestSupport.entry("GET http://{{host}}\n")
        #expect(entry.request.url.literalValue == nil)
    }

    @Test func templateErrors() {
        HurlTestSupport.expectError(
            "GET http://localhost/{{}}\n",
            line: 1,
            column: 24,
            message: "expected a variable name or a function (newDate, newUuid, ...) after `{{`, found `}}`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost/{{name\n",
            line: 1,
            column: 28,
            message: "expected a filter or `}}` to close the expression started at 1:22, found the end of the line"
        )
        HurlTestSupport.expectError(
            "GET http://localhost/{{name!}}\n",
            line: 1,
            column: 28,
            message: "expected a filter or `}}` to close the expression started at 1:22, found `!}}`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost/{{name unknown}}\n",
            line: 1,
            column: 29,
            message: "expected a filter or `}}` to close the expression started at 1:22, found `unknown}}`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost/{{1}}\n",
            line: 1,
            column: 24,
            message: "expected a variable name or a function (newDate, newUuid, ...) after `{{`, found `1}}`"
        )
    }
}
