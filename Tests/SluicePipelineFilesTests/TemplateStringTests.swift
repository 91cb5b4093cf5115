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

@Suite("A value a server sent never chooses a file's folder")
struct ReceivedPathTests {
    private let source = PipelineSource(path: "p.yaml", directory: nil)

    private func scope(_ received: [String: String], own: [String: String] = [:]) -> VariableScope {
        var scope = VariableScope(values: own)
        for (name, value) in received { scope.assign(name, .string(value), received: true) }
        return scope
    }

    @Test("a received value with '/' or NUL, or making '.' or '..' alone or with another, or a function of one that does (base64 of ??? is Pz8/), is refused; one inside a longer segment is not")
    func refused() {
        let scope = scope(["up": "../x", "slash": "a/b", "nul": "a\u{0}b", "dot": ".", "dots": "..", "name": "report.json", "empty": "", "question": "???"])
        // A '/' a combining mark follows is one Character with it, and a '/' all the same to
        // the file system: "${dots}/\u{301}x" climbs out of the folder.
        for path in ["out/${up}", "${slash}", "out/${nul}", "out/${dot}/f", "${dots}", "out/${dot}${dot}/f", "${base64(text(question))}", "${dots}/\u{301}x"] {
            #expect(scope.receivedPathProblem(in: path, source: source) != nil, "\(path)")
        }
        for path in ["out/${name}", "out/${dot}x", "${dots}.txt", "../own/${name}", "out/${urlencode(up)}", "plain/../path", "out/${empty}"] {
            #expect(scope.receivedPathProblem(in: path, source: source) == nil, "\(path)")
        }
    }

    @Test("the user's own values may hold folders; a for-each row or a plain assignment over a received name makes it the user's again")
    func ownValues() {
        var scope = scope(["file": "../x"], own: ["folder": "../reports"])
        #expect(scope.receivedPathProblem(in: "${folder}/a.json", source: source) == nil)
        #expect(scope.receivedPathProblem(in: "${file}", source: source) != nil)
        #expect(scope.adding(ForEachRow(values: [("file", "../row")])).receivedPathProblem(in: "${file}", source: source) == nil)
        scope.assign("file", .string("../own"))
        #expect(scope.receivedPathProblem(in: "${file}", source: source) == nil)
    }

    @Test("a variable computed from a received value is received; the message names it as the file spells it")
    func computed() throws {
        let scope = scope(["id": "a/b"])
        let yaml = try #require(try YAMLReader().singleDocument(from: "x: \"${id}-copy\"\ny: own\n", path: "t.yaml", secondDocument: "a second document"))
        let pairs = try #require(yaml.pairs)
        #expect(scope.readsReceivedValue(pairs[0].value))
        #expect(!scope.readsReceivedValue(pairs[1].value))
        #expect(scope.receivedPathProblem(in: "out/${id}", source: source)?.hasPrefix("a value the server sent (${id}) holds '/' ('a/b')") == true)
        let hurl = PipelineSource(path: "t.hurl", directory: nil)
        #expect(scope.receivedPathProblem(in: "out/${id}", source: hurl)?.hasPrefix("a value the server sent ({{id}})") == true)
    }
}
