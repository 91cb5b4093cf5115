import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles

@Suite("${NAME} variables in pipeline strings")
struct TemplateStringTests {
    @Test("variables, environment variables and the $${ escape")
    func parts() throws {
        let template = try TemplateString(parsing: "${base}/users/${id}?token=${env.API_TOKEN}&literal=$${x}")
        #expect(template.variables == ["base", "id"])
        #expect(template.environmentVariables == ["API_TOKEN"])
        let rendered = try template.render(variables: ["base": "http://h", "id": "7"], environment: ["API_TOKEN": "s3cr3t"])
        #expect(rendered == "http://h/users/7?token=s3cr3t&literal=${x}")
        #expect(try TemplateString(parsing: "plain $ text {x}").isLiteral)
        #expect(try TemplateString(parsing: "$${a}").render(variables: [:], environment: [:]) == "${a}")
    }

    @Test("a reference nothing supplies is an error naming it")
    func undefined() throws {
        let template = try TemplateString(parsing: "${a}${env.B}")
        #expect(throws: TemplateString.UndefinedVariable(name: "a")) { try template.render(variables: [:], environment: ["B": "1"]) }
        #expect(throws: TemplateString.UndefinedVariable(name: "env.B")) { try template.render(variables: ["a": "1"], environment: [:]) }
    }

    @Test("a string without a reference is one literal part, kept byte for byte; an empty one has none")
    func literalOnly() throws {
        let decomposed = "caf\u{65}\u{301} {x} (y)"
        let template = try TemplateString(parsing: decomposed)
        #expect(template.parts.count == 1)
        #expect(try template.render(variables: [:], environment: [:]).utf8.elementsEqual(decomposed.utf8))
        #expect(try TemplateString(parsing: "").parts.isEmpty)
    }

    static let malformed: [(String, Int)] = [
        ("x ${open", 2), ("${}", 0), ("${1abc}", 0), ("a${b c}", 1), ("${env.}", 0),
        // Names are ASCII, judged by code point: no accented letter, precomposed or not.
        ("${caf\u{E9}}", 0), ("${cafe\u{301}}", 0), ("${\u{E9}t\u{E9}}", 0), ("${env.\u{301}x}", 0),
    ]

    @Test("a malformed ${ is an error with its offset", arguments: malformed)
    func syntax(text: String, offset: Int) {
        #expect {
            try TemplateString(parsing: text)
        } throws: { error in
            (error as? TemplateString.SyntaxError)?.offset == offset
        }
    }
}
