import SluiceHurlFiles
import Testing

/// Request and response bodies.
struct HurlBodyTests {
    private func requestBody(_ text: String) throws -> HurlBody {
        let entry = try HurlTestSupport.entry("POST http://localhost\n\(text)\n")
        return try #require(entry.request.body)
    }

    @Test func jsonObjectWithTemplates() throws {
        let body = try requestBody("{\n  \"name\": \"{{user}}\",\n  \"age\": {{age}},\n  \"tags\": [1, -2.5e3, true, null, \"\\u00e9\"],\n  \"empty\": {}\n}")
        #expect(body.position == .at(2, 1))
        guard case .json(let json) = body.kind, case .object(let members) = json.kind else {
            Issue.record("expected a JSON object")
            return
        }
        #expect(members.map { $0.key.literalValue } == ["name", "age", "tags", "empty"])
        #expect(members[0].position == .at(3, 3))
        guard case .string(let name) = members[0].value.kind else {
            Issue.record("expected a string")
            return
        }
        #expect(name.parts == [.expression(HurlTemplateExpression(position: .at(3, 12), source: .variable(name: "user"), filters: []))])
        #expect(members[1].value.kind == .expression(HurlTemplateExpression(position: .at(4, 10), source: .variable(name: "age"), filters: [])))
        guard case .array(let tags) = members[2].value.kind else {
            Issue.record("expected an array")
            return
        }
        #expect(tags.map(\.kind).dropLast() == [.number("1"), .number("-2.5e3"), .boolean(true), .null])
        guard case .string(let accented) = tags[4].kind, case .literal(let literal) = accented.parts.first else {
            Issue.record("expected a string")
            return
        }
        #expect(literal.value == "é")
        #expect(literal.source == "\\u00e9")
        #expect(members[3].value.kind == .object([]))
    }

    @Test func jsonScalarsAndArrays() throws {
        #expect(try requestBody("[]").kind == .json(HurlJSONValue(position: .at(2, 1), kind: .array([]))))
        #expect(try requestBody("\"text\"").kind == .json(HurlJSONValue(position: .at(2, 1), kind: .string(HurlTestSupport.quoted("text", line: 2, column: 1)))))
        #expect(try requestBody("42").kind == .json(HurlJSONValue(position: .at(2, 1), kind: .number("42"))))
        #expect(try requestBody("true").kind == .json(HurlJSONValue(position: .at(2, 1), kind: .boolean(true))))
        guard case .json(let surrogates) = try requestBody("\"\\ud83d\\ude00\"").kind, case .string(let text) = surrogates.kind else {
            Issue.record("expected a JSON string")
            return
        }
        #expect(text.literalValue == "😀")
    }

    @Test func xmlBody() throws {
        let xml = "<?xml version=\"1.0\"?>\n<!-- comment -->\n<a x=\"1>2\">\n  <b/>\n  <![CDATA[<c>]]>\n  <c>text</c>\n</a>"
        let entry = try HurlTestSupport.entry("POST http://localhost\n\(xml)\nHTTP 200\n")
        #expect(entry.request.body?.kind == .xml(xml))
        #expect(entry.response != nil)
        #expect(try requestBody("<empty/>").kind == .xml("<empty/>"))
    }

    @Test func multilineStrings() throws {
        guard case .multilineString(let plain) = try requestBody("```\nline1\n{{var}}\n\\n\n```").kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(plain.language == nil)
        #expect(plain.attributes.isEmpty)
        #expect(!plain.isOneline)
        #expect(plain.content.parts.count == 3)
        guard case .literal(let tail) = plain.content.parts.last else {
            Issue.record("expected literal text")
            return
        }
        #expect(tail.value == "\n\\n\n")

        guard case .multilineString(let json) = try requestBody("```json,escape\n{\"a\": \"\\u{41}\"}\n```").kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(json.language == .json)
        #expect(json.attributes == [.escape])
        #expect(json.content.literalValue == "{\"a\": \"A\"}\n")

        guard case .multilineString(let raw) = try requestBody("```raw\n{{var}}\n```").kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(raw.language == .raw)
        #expect(raw.content.literalValue == "{{var}}\n")

        guard case .multilineString(let noVariable) = try requestBody("```graphql,novariable\n{{a}}\n```").kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(noVariable.content.literalValue == "{{a}}\n")

        guard case .multilineString(let empty) = try requestBody("``````").kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(empty.isOneline)
        #expect(empty.content.parts.isEmpty)
    }

    @Test func otherBodies() throws {
        #expect(try requestBody("`Hello world!`").kind == .onelineString(HurlTestSupport.quoted("Hello world!", line: 2, column: 1)))
        #expect(try requestBody("base64,SGVs\nbG8=;").kind == .base64("SGVs\nbG8="))
        #expect(try requestBody("hex,01 02 ff;").kind == .hex("01 02 ff"))
        #expect(try requestBody("file,data\\ 1.bin;").kind == .file(HurlTemplate(position: .at(2, 6), parts: [.literal(HurlTemplateLiteral(position: .at(2, 6), value: "data 1.bin", source: "data\\ 1.bin"))])))
    }

    @Test func graphqlVariables() throws {
        let body = try requestBody("```graphql\nquery Person($id: ID!) {\n  person(id: $id) { name }\n}\n\nvariables {\n  \"id\": \"{{id}}\",\n  \"n\": 1\n}\n```")
        guard case .multilineString(let graphql) = body.kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(graphql.language == .graphql)
        #expect(graphql.content.literalValue == "query Person($id: ID!) {\n  person(id: $id) { name }\n}\n\n", "the query alone")
        let variables = try #require(graphql.graphqlVariables)
        #expect(variables.position == .at(7, 11))
        guard case .object(let members) = variables.kind else {
            Issue.record("expected a JSON object")
            return
        }
        #expect(members.map { $0.key.literalValue } == ["id", "n"])
        #expect(members.map(\.value.kind).last == .number("1"))

        guard case .multilineString(let plain) = try requestBody("```graphql\n{ a }\n```").kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(plain.content.literalValue == "{ a }\n" && plain.graphqlVariables == nil)
        guard case .multilineString(let firstLine) = try requestBody("```graphql\nvariables {\"a\": 1}\n```").kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(firstLine.graphqlVariables == nil, "the first line is the query's, as in Hurl")
        guard case .multilineString(let json) = try requestBody("```json\n{}\nvariables {\"a\": 1}\n```").kind else {
            Issue.record("expected a multiline string")
            return
        }
        #expect(json.content.literalValue == "{}\nvariables {\"a\": 1}\n" && json.graphqlVariables == nil, "only a graphql string has variables")
    }

    @Test func graphqlVariablesErrors() {
        HurlTestSupport.expectError(
            "POST http://h\n```graphql\n{ a }\nvariables [1]\n```\n",
            line: 4,
            column: 11,
            message: "expected a JSON object after `variables` in the GraphQL string started at 2:1, found `[1]`"
        )
        HurlTestSupport.expectError(
            "POST http://h\n```graphql\n{ a }\nvariables {\"a\": 1}\n{ b }\n```\n",
            line: 5,
            column: 1,
            message: "expected ``` to close the GraphQL string started at 2:1 after its variables, found `{`"
        )
    }

    @Test func bodyErrors() {
        HurlTestSupport.expectError(
            "POST http://localhost\n{\"a\": 1,}\n",
            line: 2,
            column: 9,
            message: "expected a JSON key in double quotes, found `}`"
        )
        HurlTestSupport.expectError(
            "POST http://localhost\n{\"a\" 1}\n",
            line: 2,
            column: 6,
            message: "expected `:` after the JSON key, found `1}`"
        )
        HurlTestSupport.expectError(
            "POST http://localhost\n[1 2]\n",
            line: 2,
            column: 4,
            message: "expected `,` or `]` in the JSON array, found `2]`"
        )
        HurlTestSupport.expectError(
            "POST http://localhost\n{\"a\": \"\\x\"}\n",
            line: 2,
            column: 8,
            message: "expected a JSON escape sequence (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX), found `\\x`"
        )
        HurlTestSupport.expectError(
            "POST http://localhost\n```\nabc\n",
            line: 4,
            column: 1,
            message: "expected ``` to close the string started at 2:1, found the end of the file"
        )
        HurlTestSupport.expectError(
            "POST http://localhost\n```yaml\na: 1\n```\n",
            line: 2,
            column: 4,
            message: "expected a language (base64, hex, json, xml, graphql, raw) or the end of the line after ```, found `yaml`"
        )
        HurlTestSupport.expectError(
            "POST http://localhost\n<a><b></a>\n",
            line: 3,
            column: 1,
            message: "expected the end of the XML document started at 2:1, found the end of the file"
        )
        HurlTestSupport.expectError(
            "POST http://localhost\n{\"a\": 1} {\"b\": 2}\n",
            line: 2,
            column: 10,
            message: "expected the end of the line after the body, found `{\"b\":`"
        )
        HurlTestSupport.expectError(
            "POST http://localhost\n" + String(repeating: "[", count: 10_000) + "\n",
            line: 2,
            column: 257,
            message: "expected JSON nested at most 256 levels deep, found deeper nesting"
        )
    }
}
