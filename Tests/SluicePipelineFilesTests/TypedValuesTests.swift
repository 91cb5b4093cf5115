import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles

/// A captured value keeps its JSON type from where it is read to where it is compared or sent: a
/// scalar that is exactly `${NAME}` stands for the value itself, a longer string for its text.
@Suite("Values keep their types")
struct TypedValuesTests {
    private func node(_ yaml: String) throws -> YAMLNode {
        try #require(try YAMLReader().singleDocument(from: yaml, path: "t.yaml", secondDocument: "a second document"))
    }

    private var scope: VariableScope {
        var scope = VariableScope(values: ["plain": "7"])
        scope.assign("n", 2)
        scope.assign("ok", true)
        scope.assign("none", .null)
        scope.assign("list", [1, "a"])
        scope.assign("object", ["a": 1])
        scope.assign("s", "2")
        return scope
    }

    @Test("exactly ${NAME}, quoted or not, is the typed value, or an untyped value's text read by YAML's core schema; inside a longer string it is text")
    func scalars() throws {
        let cases: [(String, JSONValue)] = [
            ("${n}", 2), ("\"${n}\"", 2), ("'${n}'", 2),
            ("${ok}", true), ("${none}", .null), ("${list}", [1, "a"]), ("${object}", ["a": 1]),
            ("${s}", "2"), ("\"${s}\"", "2"),
            ("id-${n}", "id-2"), ("\"${n}${n}\"", "22"), ("\"${list}\"", [1, "a"]), ("\"list=${list}\"", "list=[1,\"a\"]"),
            ("${plain}", 7), ("\"${plain}\"", 7), ("\"${text(plain)}\"", "7"), ("\"${plain}.0\"", "7.0"),
            ("\"${text(n)}\"", "2"),
        ]
        for (yaml, expected) in cases {
            #expect(try scope.jsonValue(of: node(yaml)) == expected, "\(yaml)")
        }
    }

    @Test("typed values inside mappings and sequences, as parameters and expected bodies are written")
    func nested() throws {
        let value = try scope.jsonValue(of: node("{count: \"${n}\", flags: [\"${ok}\", \"${none}\"], label: \"n=${n}\"}"))
        #expect(value == ["count": 2, "flags": [true, .null], "label": "n=2"])
    }

    @Test("a raw JSON body: a whole value keeps its type (Hurl's rule), one inside a JSON string is escaped text")
    func jsonBody() throws {
        var scope = scope
        scope.values["quote"] = #"say "hi" \ bye"#
        scope.environment = ["N": "5"]
        let body = #"{"n": ${n}, "s": ${s}, "plain": ${plain}, "list": ${list}, "none": ${none}, "label": "n=${n} ${quote}", "env": ${env.N}, "q": ${quote}, "esc": "a\"${n}"}"#
        let rendered = try scope.renderJSONBody(body)
        #expect(rendered == #"{"n": 2, "s": "2", "plain": 7, "list": [1,"a"], "none": null, "label": "n=2 say \"hi\" \\ bye", "env": 5, "q": "say \"hi\" \\ bye", "esc": "a\"2"}"#)
        let parsed = try JSONReader().value(from: rendered)
        #expect(parsed["label"] == #"n=2 say "hi" \ bye"#)
        #expect(parsed["esc"] == #"a"2"#)
        #expect(throws: TemplateString.UndefinedVariable.self) { try scope.renderJSONBody("{\"a\": ${missing}}") }
    }

    @Test("a text value replaces a typed one of the same name; a for-each row's value is text")
    func replaced() throws {
        var scope = scope
        scope.assign("n", "two")
        #expect(try scope.jsonValue(of: node("${n}")) == "two")
        #expect(scope.typedValues["n"] == "two")
        let row = ForEachRow(values: [("ok", "yes")])
        #expect(try self.scope.adding(row).jsonValue(of: node("${ok}")) == "yes")
        #expect(self.scope.adding(row).typedValues["ok"] == nil, "removed, not set to .null: JSONValue takes nil as a literal")
        #expect(self.scope.values["list"] == #"[1,"a"]"#, "the text ${NAME} renders inside a string")
    }
}
