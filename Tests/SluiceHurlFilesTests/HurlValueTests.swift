import SluiceHurlFiles
import Testing

/// Predicate operands: numbers, strings and escapes, keywords, bytes, expressions.
struct HurlValueTests {
    private func operand(_ text: String) throws -> HurlValue {
        let assert = try HurlTestSupport.assertLine("body == \(text)")
        guard case .equal(let operand) = assert.predicate.function.kind else {
            Issue.record("expected ==")
            throw HurlTestFailure()
        }
        #expect(operand.position == .at(4, 9))
        return operand
    }

    @Test func numbersKeepTheirText() throws {
        #expect(try operand("0").kind == .integer("0"))
        #expect(try operand("-42").kind == .integer("-42"))
        #expect(try operand("123456789012345678901234567890").kind == .integer("123456789012345678901234567890"))
        #expect(try operand("3.14").kind == .float("3.14"))
        #expect(try operand("-0.000").kind == .float("-0.000"))
        #expect(try operand("1e10").kind == .float("1e10"))
        #expect(try operand("6.02E-23").kind == .float("6.02E-23"))
        #expect(try operand("3.141592653589793238462643383279").kind == .float("3.141592653589793238462643383279"))
    }

    @Test func keywords() throws {
        #expect(try operand("true").kind == .boolean(true))
        #expect(try operand("false").kind == .boolean(false))
        #expect(try operand("null").kind == .null)
    }

    @Test func quotedStringEscapes() throws {
        let value = try operand("\"a\\\"b\\\\c\\bd\\fe\\nf\\rg\\th\\u{1F600}\"")
        guard case .string(let template) = value.kind, case .literal(let literal) = template.parts.first else {
            Issue.record("expected a string")
            return
        }
        #expect(literal.value == "a\"b\\c\u{8}d\u{C}e\nf\rg\th😀")
        #expect(literal.source == "a\\\"b\\\\c\\bd\\fe\\nf\\rg\\th\\u{1F600}")
        #expect(literal.position == .at(4, 10))
        #expect(try operand("\"\"").kind == .string(HurlTemplate(position: .at(4, 9), parts: [])))
    }

    @Test func quotedStringWithExpressions() throws {
        let value = try operand("\"Hello {{name}}!\"")
        guard case .string(let template) = value.kind else {
            Issue.record("expected a string")
            return
        }
        #expect(
            template.parts == [
                .literal(HurlTemplateLiteral(position: .at(4, 10), value: "Hello ", source: "Hello ")),
                .expression(HurlTemplateExpression(position: .at(4, 16), source: .variable(name: "name"), filters: [])),
                .literal(HurlTemplateLiteral(position: .at(4, 24), value: "!", source: "!")),
            ]
        )
    }

    @Test func bareExpression() throws {
        #expect(
            try operand("{{count}}").kind
                == .expression(HurlTemplateExpression(position: .at(4, 9), source: .variable(name: "count"), filters: []))
        )
    }

    @Test func bytesOperands() throws {
        #expect(try operand("hex,48656c6c6f;").kind == .hex("48656c6c6f"))
        #expect(try operand("hex,;").kind == .hex(""))
        #expect(try operand("base64,SGVsbG8=;").kind == .base64("SGVsbG8="))
        #expect(try operand("file,data.bin;").kind == .file(HurlTestSupport.literal("data.bin", at: .at(4, 14))))
    }

    @Test func backtickStrings() throws {
        let oneline = try operand("`Hello \\`world\\``")
        guard case .onelineString(let template) = oneline.kind else {
            Issue.record("expected a backtick string")
            return
        }
        #expect(template.literalValue == "Hello `world`")
        let triple = try operand("```Hello```")
        guard case .multilineString(let multiline) = triple.kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(multiline.isOneline)
        #expect(multiline.content.literalValue == "Hello")
    }

    @Test func multilineOperand() throws {
        let entry = try HurlTestSupport.entry("GET http://localhost\nHTTP 200\n[Asserts]\nbody == ```\nline1\nline2\n```\n")
        guard case .asserts(let asserts) = entry.response?.sections.first?.content,
            case .equal(let operand) = asserts.first?.predicate.function.kind,
            case .multilineString(let multiline) = operand.kind
        else {
            Issue.record("expected a multiline operand")
            return
        }
        #expect(multiline.content.literalValue == "line1\nline2\n")
        #expect(multiline.content.position == .at(5, 1))
    }

    @Test func stringErrors() {
        let prefix = "GET http://localhost\nHTTP 200\n[Asserts]\n"
        HurlTestSupport.expectError(
            prefix + "body == \"a\\qb\"\n",
            line: 4,
            column: 11,
            message: "expected an escape sequence of a quoted string (\\\" \\\\ \\b \\f \\n \\r \\t \\u{...}), found `\\q`"
        )
        HurlTestSupport.expectError(
            prefix + "body == \"\\u{D800}\"\n",
            line: 4,
            column: 10,
            message: "expected a Unicode scalar value in `\\u{...}`, found `\\u{D800}`"
        )
        HurlTestSupport.expectError(
            prefix + "body == \"\\u00e9\"\n",
            line: 4,
            column: 12,
            message: "expected `{` and hexadecimal digits after `\\u`, as in `\\u{00e9}`, found `00e9\"`"
        )
        HurlTestSupport.expectError(
            prefix + "body == hex,zz;\n",
            line: 4,
            column: 13,
            message: "expected hexadecimal digits ended by `;`, found `zz;`"
        )
        HurlTestSupport.expectError(
            prefix + "body == `abc\n",
            line: 4,
            column: 13,
            message: "expected `` ` `` to close the string started at 4:9, found the end of the line"
        )
    }
}
