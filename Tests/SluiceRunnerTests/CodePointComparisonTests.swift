import Foundation
import Testing
@testable import SluiceCore
import SluiceJSONPath
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner

/// Text from the wire or a pipeline is compared by code points wherever a standard says so
/// (RFC 8259 section 8.3 for JSON names, RFC 9535 section 2.3.1.2 for JSONPath names, YAML 1.2 for
/// mapping keys), never by Swift's canonical equivalence: `"e\u{301}"` (e + combining acute) and
/// `"\u{E9}"` (é) are different names.
@Suite("Text compared by code points, not canonical equivalence")
struct CodePointComparisonTests {
    private static let decomposed = "e\u{301}"
    private static let composed = "\u{E9}"

    /// The expectations of the first request of `yaml` that `response` does not meet.
    private func unmet(_ yaml: String, by response: Response) throws -> [ExpectationFailure] {
        let file = try PipelineFile.load(text: yaml, path: "p.yaml", environment: [:])
        return file.spec.requests[0].expectations.compactMap {
            $0.evaluate(response: response, body: response.jsonBody, duration: .zero, scope: file.scope)
        }
    }

    @Test("Swift's String == would call the two spellings equal; hasSameCodePoints does not")
    func premise() {
        #expect(Self.decomposed == Self.composed)
        #expect(!Self.decomposed.hasSameCodePoints(as: Self.composed))
        #expect(CodePointKey(Self.decomposed) != CodePointKey(Self.composed))
        #expect(Set([CodePointKey(Self.decomposed), CodePointKey(Self.composed)]).count == 2)
        // KELVIN SIGN decomposes canonically to ASCII K: a key 'K' must not match it.
        #expect("\u{212A}" == "K")
        #expect(!"\u{212A}".hasSameCodePoints(as: "K"))
    }

    @Test("containsCodePoints finds a run of the same code points, never a canonical equivalent")
    func containsCodePoints() {
        #expect("a${b}".containsCodePoints("${"))
        #expect(!"$\u{301}{b}".containsCodePoints("${"), "a combining mark between $ and { is no ${")
        #expect("x\(Self.decomposed)y".containsCodePoints(Self.decomposed))
        #expect(!"x\(Self.decomposed)y".containsCodePoints(Self.composed))
        #expect(!"x\(Self.composed)y".containsCodePoints(Self.decomposed))
        #expect("aab".containsCodePoints("ab"), "a partial match is left for the next")
        #expect(!"ab".containsCodePoints("abc"))
        #expect("abc".containsCodePoints(""))
        #expect("abc"[...].dropFirst().containsCodePoints("bc"))
    }

    @Test("a JSON object with both spellings has two members, each found by its own name")
    func jsonMembers() throws {
        let value = try JSONReader().value(from: Data(#"{"e\u0301": 1, "\u00e9": 2}"#.utf8))
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.count == 2)
        #expect(object[Self.decomposed] == 1)
        #expect(object[Self.composed] == 2)
        #expect(JSONValue.string(Self.decomposed) != .string(Self.composed))
        let written = try JSONWriter().string(from: value)
        #expect(try JSONReader().value(from: Data(written.utf8)) == value)
    }

    @Test("JSONPath names select by code points, in brackets and dotted")
    func jsonPathNames() throws {
        let document: JSONValue = .object(JSONObject([(Self.decomposed, JSONValue.int(1)), (Self.composed, JSONValue.int(2))]))
        #expect(try JSONPath(#"$['e\u0301']"#).select(in: document) == [1])
        #expect(try JSONPath("$['\(Self.composed)']").select(in: document) == [2])
        #expect(try JSONPath("$.\(Self.decomposed)").select(in: document) == [1])
        #expect(try JSONPath("$.\(Self.composed)").select(in: document) == [2])
    }

    @Test("a combining mark right after a quote or a dot is a name character, not an error")
    func combiningMarkAfterDelimiter() throws {
        let document: JSONValue = .object(JSONObject([("\u{301}a", JSONValue.int(7))]))
        #expect(try JSONPath("$['\u{301}a']").select(in: document) == [7])
        #expect(try JSONPath("$.\u{301}a").select(in: document) == [7])
        // Offsets count code points: the error after a combining mark names the next one.
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath("$['\u{301}a'] x") }
        do {
            _ = try JSONPath("$.e\u{301}!")
        } catch {
            #expect(error.offset == 4)
        }
    }

    @Test("a pipeline may expect both spellings in one body mapping; a real duplicate is still refused")
    func yamlKeys() throws {
        let yaml = """
            requests:
              - path: http://h/
                expect:
                  body:
                    "$['e\\u0301']": 1
                    "$['\\u00e9']": 2

            """
        #expect(try PipelineFile.load(text: yaml, path: "p.yaml", environment: [:]).spec.requests[0].expectations.count == 2)
        let response = Response(status: 200, headers: ["Content-Type": "application/json"], decoded: .json(.object(JSONObject([(Self.decomposed, JSONValue.int(1)), (Self.composed, JSONValue.int(2))]))))
        let failures = try unmet(yaml, by: response)
        #expect(failures.isEmpty, "\(failures)")

        let duplicate = yaml.replacingOccurrences(of: #"\u00e9"#, with: #"e\u0301"#)
        #expect(throws: PipelineFileError.self) { try PipelineFile.load(text: duplicate, path: "p.yaml", environment: [:]) }
    }

    @Test("request names differ by code points: two spellings are two requests, --only picks one")
    func requestNames() async throws {
        let yaml = "requests:\n  - name: caf\(Self.decomposed)\n    path: http://h/a\n  - name: caf\(Self.composed)\n    path: http://h/b\n"
        let file = try PipelineFile.load(text: yaml, path: "p.yaml", environment: [:])
        let runner = try PipelineRunner(file: file, transport: InMemoryTransport { _ in Response(status: 200) })
        #expect(try runner.requests(selection: RequestSelection(only: ["caf\(Self.composed)"])).map(\.path.scalar) == ["http://h/b"])
    }

    @Test("expectations: header values, contains and count compare code points")
    func expectations() throws {
        let yaml = """
            requests:
              - path: http://h/
                expect:
                  headers: { X-Name: "caf\\u00e9" }
                  body:
                    $.name: { contains: "\\u00e9" }
                    $.short: { count: 2 }

            """
        let response = Response(
            status: 200, headers: ["Content-Type": "application/json", "X-Name": "caf\(Self.decomposed)"],
            decoded: .json(["name": .string("caf\(Self.decomposed)"), "short": .string(Self.decomposed)])
        )
        let failures = try unmet(yaml, by: response)
        #expect(failures.map(\.label).sorted() == ["body $.name contains", "headers.X-Name"], "\(failures)")
        // The two spellings read alike, so the failure writes their code points.
        let header = failures.first { $0.label == "headers.X-Name" }
        #expect(header?.expected == "caf\\u{E9}" && header?.actual == "cafe\\u{301}", "\(String(describing: header))")
    }

    @Test("a failure whose expected and actual texts read alike (composed and decomposed, a zero-width space) writes their code points; texts that read apart are shown as they are")
    func lookAlikesDistinguished() {
        #expect(LookAlikeText.distinguished("caf\(Self.composed)", "caf\(Self.decomposed)") == ("caf\\u{E9}", "cafe\\u{301}"))
        #expect(LookAlikeText.distinguished("ab", "a\u{200B}b") == ("ab", "a\\u{200B}b"))
        #expect(LookAlikeText.distinguished("caf\(Self.composed)", "cafe") == ("caf\(Self.composed)", "cafe"))
        #expect(LookAlikeText.distinguished("same", "same") == ("same", "same"))
        #expect(LookAlikeText.escaped("tab\there") == "tab\\u{9}here")
    }

    @Test("regular expressions match code points: /^café$/ spelled composed is not a decomposed café, . is one code point, \\r\\n two; \\u00E9, \\u{E9} and \\x{E9} name a code point; $ is the end of the text, as Rust's")
    func regularExpressions() throws {
        func matches(_ pattern: String, _ text: String) throws -> Bool { try TextPattern(pattern).firstMatch(in: text) != nil }
        #expect(try !matches("^caf\(Self.composed)$", "caf\(Self.decomposed)"))
        #expect(try !matches("^caf\\u00E9$", "caf\(Self.decomposed)") && matches("^caf\\u00E9$", "caf\(Self.composed)"))
        #expect(try matches("^caf\\u{e9}$", "caf\(Self.composed)") && matches("^caf\\x{E9}$", "caf\(Self.composed)"))
        #expect(try matches("^cafe.$", "caf\(Self.decomposed)") && !matches("^caf.$", "caf\(Self.decomposed)"))
        #expect(try matches("^\u{212A}$", "\u{212A}") && !matches("^K$", "\u{212A}"))
        #expect(try matches("l1\\r\\nl2", "l1\r\nl2") && matches("^l1.$", "l1\r") && !matches("^l1.$", "l1\r\n"))
        #expect(try !matches("a$", "a\n") && matches("(?m)a$", "a\nb"))
        #expect(try TextPattern("(\\d+)-(x)?").firstMatch(in: "id 42-")?.groups == ["42-", "42", nil])
        // Every match, an empty one moving on a whole code point.
        #expect(try TextPattern("x*").allMatches(in: "\(Self.composed)x").map(\.groups[0]) == ["", "x", ""])
        let failure = #expect(throws: TextPattern.SyntaxError.self) { try TextPattern("caf\(Self.composed)(") }
        #expect(failure?.offset == 5 && failure?.description.hasSuffix("at character 6") == true, "\(failure.map(String.init(describing:)) ?? "")")

        let yaml = """
            requests:
              - path: http://h/
                expect:
                  headers: { X-Name: "/^caf\\\\u00e9$/" }
                  body:
                    $.name: { matches: "^caf\\\\u00e9$" }
                    $.lines: { matches: "^l1\\\\r$" }
                  checks:
                    - { jsonpath: $.crlf, filters: [{ split: "\\n" }, count], equals: 3 }
                    - { jsonpath: $.name, filters: [{ replace: ["\\u00e9", "X"] }], equals: "caf\(Self.decomposed)" }
                    - { jsonpath: $.name, filters: [{ replace: ["/e\\\\u0301/", "X"] }], equals: "cafX" }
                    - { jsonpath: $.name, filters: [{ regex: "(caf\\\\u00e9)" }], exists: false }

            """
        let response = Response(
            status: 200, headers: ["Content-Type": "application/json", "X-Name": "caf\(Self.decomposed)"],
            decoded: .json(["name": .string("caf\(Self.decomposed)"), "lines": .string("l1\r\nl2"), "crlf": .string("a\r\nb\r\nc")])
        )
        let failures = try unmet(yaml, by: response)
        #expect(failures.map(\.label).sorted() == ["body $.lines matches", "body $.name matches", "headers.X-Name"], "\(failures)")
    }

    @Test("a match that backtracks without end ((a+)+ on text that almost matches) is stopped after TextPattern.maximumSteps and fails its check, negated or not, saying why")
    func boundedRegularExpressions() throws {
        let text = String(repeating: "a", count: 40) + "!"
        #expect(throws: TextPattern.LimitExceeded.self) { try TextPattern("^(a+)+$").firstMatch(in: text) }
        let yaml = """
            requests:
              - path: http://h/
                expect:
                  body:
                    $.s: { matches: "^(a+)+$" }
                  checks:
                    - { jsonpath: $.s, not: { matches: "^(a+)+$" } }
                    - { jsonpath: $.s, filters: [{ regex: "^((a+)+)$" }], exists: false }

            """
        let response = Response(status: 200, headers: ["Content-Type": "application/json"], decoded: .json(["s": .string(text)]))
        let failures = try unmet(yaml, by: response)
        #expect(failures.count == 3, "\(failures)")
        #expect(failures.allSatisfy { $0.actual.contains("took more than 1000000 steps on this text without an answer") }, "\(failures)")
    }

    @Test("replacingCodePoints finds a quote or a CR followed by a combining mark, which Foundation's replacingOccurrences passes over")
    func replacingCodePoints() {
        let mark = "\u{301}"
        let text = "a'" + mark + "b\"" + mark + "c\r" + mark + "d"
        let foundation = text.replacingOccurrences(of: "'", with: "X")
        let replaced = text.replacingCodePoints(of: "'", with: "X")
        let escaped = MultipartFormData.escape(text)
        #expect(foundation.unicodeScalars.contains("'"))
        #expect(replaced.hasSameCodePoints(as: "aX" + mark + "b\"" + mark + "c\r" + mark + "d"))
        #expect(escaped.hasSameCodePoints(as: "a'" + mark + "b%22" + mark + "c%0D" + mark + "d"))
        let decomposed = Self.decomposed.replacingCodePoints(of: Self.composed, with: "X")
        #expect(decomposed.hasSameCodePoints(as: Self.decomposed))
    }

    @Test("a template's '}' followed by a combining mark still closes the reference")
    func templates() throws {
        let template = try TemplateString(parsing: "${a}\u{301}")
        #expect(template.variables == ["a"])
        #expect(try template.render(variables: ["a": "x"], environment: [:]).hasSameCodePoints(as: "x\u{301}"))
    }
}
