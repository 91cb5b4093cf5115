import Foundation
import SluiceHurlFiles
import SluicePipelineFiles
import SluiceStageRegistry
import Testing

/// Request bodies and the `Content-Type` Hurl gives them: GraphQL strings converted to the JSON
/// Hurl sends, `{"query":"...","variables":{...}}`, which the runner renders by its rule for a JSON
/// body; XML sent as `application/xml`.
extension HurlConversionTests {
    /// The converted document of a Hurl file, as YAML text.
    private func bodyYAML(_ text: String) throws -> String {
        YAMLWriter().text(of: try HurlConversion.pipelineDocument(of: try HurlFile.parse(text)))
    }

    /// The first request's body, as the converted pipeline file holds it, loaded with `variables`.
    private func convertedBody(_ text: String, variables: [String: String] = [:]) throws -> String {
        let document = try HurlConversion.pipelineDocument(of: try HurlFile.parse(text))
        let file = try PipelineFile.load(root: document, path: "graphql.hurl", variables: variables, environment: [:])
        return try #require(file.spec.requests.first?.body?.scalar)
    }

    /// A JSON body as the runner sends it: the pipeline's `${...}` rendered with `values`, then
    /// parsed, which fails unless it is valid JSON.
    private func sent(_ body: String, _ values: [String: String] = [:]) throws -> [String: Any] {
        let rendered = try VariableScope(values: values).renderJSONBody(body)
        return try #require(try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String: Any], "\(rendered)")
    }

    @Test("a GraphQL query is sent as {\"query\": ...}, trimmed, with Content-Type: application/json")
    func graphqlQuery() throws {
        let text = "POST http://localhost:8000/graphql\n```graphql\n{\n  hero(episode: \"JEDI\") {\n    name\n  }\n}\n```\nHTTP 200\n"
        let yaml = try bodyYAML(text)
        #expect(yaml.contains("    headers:\n      Content-Type: application/json\n"), "\(yaml)")
        let body = try convertedBody(text)
        #expect(body == #"{"query":"{\n  hero(episode: \"JEDI\") {\n    name\n  }\n}"}"#, "Hurl's bytes: \(body)")
        #expect(try sent(body)["query"] as? String == "{\n  hero(episode: \"JEDI\") {\n    name\n  }\n}")
    }

    @Test("a variables block is sent compact as \"variables\", each {{...}} where it stands")
    func graphqlVariables() throws {
        let text = """
            POST http://localhost:8000/graphql
            ```graphql
            query Person($id: ID!) {
              person(id: $id) { name }
            }

            variables {
              "id": "{{id}}",
              "label": "a\\tb",
              "limit": {{limit}},
              "tags": ["x", 1.50],
              "on": true,
              "none": null
            }
            ```
            HTTP 200
            """
        let body = try convertedBody(text, variables: ["id": "", "limit": ""])
        #expect(body == #"{"query":"query Person($id: ID!) {\n  person(id: $id) { name }\n}","variables":{"id":"${id}","label":"a\tb","limit":${limit},"tags":["x",1.50],"on":true,"none":null}}"#, "\(body)")
        let json = try sent(body, ["id": #"cGVv"x"#, "limit": "3"])
        let variables = try #require(json["variables"] as? [String: Any])
        #expect(variables["id"] as? String == #"cGVv"x"#, "inside a string: the text, escaped")
        #expect((variables["limit"] as? NSNumber)?.intValue == 3, "a whole value keeps its type")
        #expect(variables["label"] as? String == "a\tb")
    }

    @Test("a {{var}} in the query holding a quote and a line break is JSON-escaped: the body is valid JSON with the exact text")
    func graphqlTemplateInQuery() throws {
        let text = "POST http://localhost:8000/graphql\n```graphql\n{ greet(text: \"{{text}}\") }\n```\n"
        let body = try convertedBody(text, variables: ["text": ""])
        #expect(body == #"{"query":"{ greet(text: \"${text}\") }"}"#, "\(body)")
        let value = "say \"hi\"\nbye \\ ${not}"
        #expect(try sent(body, ["text": value])["query"] as? String == "{ greet(text: \"\(value)\") }")
    }

    @Test("an entry's own Content-Type is kept; one that is not JSON is refused when the query holds {{...}}")
    func graphqlOwnContentType() throws {
        let own = try bodyYAML("POST http://h/graphql\ncontent-type: application/vnd.api+json\n```graphql\n{ a(b: \"{{b}}\") }\n```\n")
        #expect(own.contains("    headers:\n      content-type: application/vnd.api+json\n    remove-headers:\n      - Accept-Encoding\n    body:"), "no second Content-Type: \(own)")
        let plain = try bodyYAML("POST http://h/graphql\nContent-Type: text/plain\n```graphql\n{ a }\n```\n")
        #expect(plain.contains("      Content-Type: text/plain\n    remove-headers:\n      - Accept-Encoding\n    body: \"{\\\"query\\\":\\\"{ a }\\\"}\"\n"), "without {{...}} the text is the same under any type: \(plain)")
        for header in ["Content-Type: text/plain", "Content-Type: {{type}}"] {
            do {
                _ = try bodyYAML("POST http://h/graphql\n\(header)\n```graphql\n{ a(b: \"{{b}}\") }\n```\n")
                Issue.record("converted under \(header)")
            } catch let error as HurlConversionError {
                #expect(error.problems.map { "\($0.position)" } == ["3:1"], "\(error)")
                #expect(error.problems.first?.message.contains("only with a JSON Content-Type") == true, "\(error)")
            }
        }
    }

    @Test("a GraphQL string to compare a response with is the JSON Hurl sends; with {{...}} it is refused")
    func graphqlComparand() throws {
        let yaml = try bodyYAML("POST http://h/echo\n`x`\nHTTP 200\n[Asserts]\nbody == ```graphql\n{ a }\n```\n```graphql\n{ b }\n```\n")
        #expect(yaml.contains("        - body:\n          equals: \"{\\\"query\\\":\\\"{ a }\\\"}\"\n"), "\(yaml)")
        #expect(yaml.contains("        - body:\n          equals: \"{\\\"query\\\":\\\"{ b }\\\"}\"\n"), "the implicit body check: \(yaml)")
        do {
            _ = try bodyYAML("POST http://h/echo\n`x`\nHTTP 200\n[Asserts]\nbody == ```graphql\n{ a(b: {{b}}) }\n```\n")
            Issue.record("converted")
        } catch let error as HurlConversionError {
            #expect(error.problems.map { "\($0.position)" } == ["5:9"], "\(error)")
        }
    }

    @Test("an XML body is sent with Content-Type: application/xml unless the entry sets one, as Hurl sends it")
    func xmlContentType() throws {
        for body in ["<a>1</a>", "```xml\n<a>1</a>\n```"] {
            let yaml = try bodyYAML("POST http://h/x\n\(body)\n")
            #expect(yaml.contains("    headers:\n      Content-Type: application/xml\n"), "\(yaml)")
            let own = try bodyYAML("POST http://h/x\ncontent-type: text/xml\n\(body)\n")
            #expect(own.contains("    headers:\n      content-type: text/xml\n    remove-headers:\n      - Accept-Encoding\n    body:"), "\(own)")
        }
        let plain = try bodyYAML("POST http://h/x\n```\n<a>1</a>\n```\n")
        #expect(!plain.contains("Content-Type"), "a string without language has no type: \(plain)")
    }
}
