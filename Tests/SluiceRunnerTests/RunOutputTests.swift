import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("What the runner writes: schema, curl commands, redaction, JUnit")
struct RunOutputTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the schema lists every registered stage and its options, plugins included")
    func schemaFollowsRegistry() throws {
        var registry = StageRegistry.builtIn
        try registry.register(StageDescriptor(name: "stamp", summary: "Stamps.", options: [OptionDescriptor("value", .string, required: true, summary: "The stamp.")]) { _ in
            Redirection()
        })
        let schema = PipelineSchema.schema(for: registry)
        let entries = try #require(schema["definitions"]?["stage"]?["anyOf"])
        // The built-in stages, then the registered one.
        let builtIn = StageRegistry.builtIn.descriptors.count
        #expect(entries[0]?["enum"]?[builtIn] == "stamp")
        #expect(entries[builtIn + 1]?["properties"]?["stamp"]?["anyOf"]?[1]?["required"] == ["value"])
        let duplicate = #expect(throws: SluiceError.self) { try registry.register(BuiltInStages.redirects) }
        #expect(duplicate?.kind == .configuration)
    }

    @Test("a curl command carries method, URL, headers, body and transport flags, shell-quoted")
    func curlCommand() throws {
        var request = Request(method: .post, url: URL(string: "https://api.test/items?q=a b")!, headers: ["Authorization": "Bearer tok", "X-Note": "it's"], body: .data(Data(#"{"k":"tok"}"#.utf8)))
        request.timeouts = Timeouts(connect: .seconds(10), total: .milliseconds(1500))
        request.trustPolicy = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="), caBundle: nil)
        let command = CurlExport.command(for: request, redirects: Redirection(maximumHops: 5), redactor: Redactor(secrets: ["tok"]))
        #expect(command == """
            # not exported: public-key pinning to sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= (Sluice checks every certificate of the verified chain; curl's --pinnedpubkey checks only the leaf's key, so a CA pin would fail there; add --pinnedpubkey for a leaf pin)
            curl 'https://api.test/items?q=a%20b' -H 'Authorization: Bearer ***' -H 'X-Note: it'\\''s' -H User-Agent: --compressed --data-binary '{"k":"***"}' --location --max-redirs 5 --max-time 1.5 --connect-timeout 10
            """)
        let shown = CurlExport.command(for: request, redirects: nil, redactor: .none)
        #expect(shown.contains("'Authorization: Bearer tok'") && shown.contains(#"'{"k":"tok"}'"#))
        let head = CurlExport.command(for: Request(method: .head, url: URL(string: "http://h/")!, body: .data(Data([0, 1]))), redirects: nil, redactor: .none)
        #expect(head == "echo AAE= | base64 -d | curl --head http://h/ -H User-Agent: --compressed --data-binary @-")
        // A POST with no body, and any other method, keep -X: curl would send a GET without it.
        // A limit under a millisecond is a millisecond, never 0, which curl reads as none.
        var empty = Request(method: .post, url: URL(string: "http://h/")!)
        empty.timeouts = Timeouts(connect: .nanoseconds(1), total: .microseconds(999))
        #expect(CurlExport.command(for: empty, redirects: nil, redactor: .none) == "curl -X POST http://h/ -H User-Agent: --compressed --max-time 0.001 --connect-timeout 0.001")
        let put = Request(method: .put, url: URL(string: "http://h/")!, body: .data(Data("x".utf8)))
        #expect(CurlExport.command(for: put, redirects: nil, redactor: .none) == "curl -X PUT http://h/ -H User-Agent: --compressed --data-binary x")
    }

    @Test("multipart bodies become -F parts so curl streams the same files")
    func curlMultipart() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-curl-\(UUID().uuidString).jpg")
        try Data("jpeg".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let request = Request(method: .post, url: URL(string: "http://h/up")!, parts: [.field("caption", "sea"), .file("photo", file, filename: "a.jpg", contentType: "image/jpeg")])
        let received = Locked<Request?>(nil)
        let transport = InMemoryTransport { sent in
            received.withLock { $0 = sent }
            return Response(status: 200, url: sent.url)
        }
        _ = try await SessionManager(pipeline: try Pipeline(stages: [Serialization(format: .multipart)], transport: transport)).send(request)
        let sent = try #require(received.withLock { $0 })
        let command = CurlExport.command(for: sent, parts: request.parts, redirects: nil, redactor: .none)
        #expect(command == "curl http://h/up -H User-Agent: --compressed --form-string caption=sea -F 'photo=@\(file.path);type=image/jpeg;filename=a.jpg' --connect-timeout 10")
        // Names that end a word in -F's syntax go in double quotes, `"` and `\` escaped, as
        // curl's manual writes them (curl 7.88 reads `-F 'f=@"a;b,c.txt";filename="x;\"y"'`
        // as that file and that name); a part name with `=` cannot be written, and is said.
        let odd = [
            MultipartPart.file("f", URL(fileURLWithPath: "/tmp/a;b,c.txt"), filename: #"we ird;"name.txt"#, contentType: nil),
            MultipartPart.file("g", URL(fileURLWithPath: #"/tmp/q"uo\te.txt"#), filename: nil, contentType: nil),
            MultipartPart.field("we=ird", "x"),
        ]
        let quoted = CurlExport.command(for: sent, parts: odd, redirects: nil, redactor: .none)
        #expect(quoted == #"""
            # part we=ird is left out: curl's -F cannot write a name that holds '='
            curl http://h/up -H User-Agent: --compressed -F 'f=@"/tmp/a;b,c.txt";filename="we ird;\"name.txt"' -F 'g=@"/tmp/q\"uo\\te.txt"' --connect-timeout 10
            """#, "\(quoted)")
    }

    @Test("the redactor hides secrets longest first and credential headers whole")
    func redactor() {
        let redactor = Redactor(secrets: ["abc", "abcdef", ""])
        #expect(redactor.redact("x abcdef y abc") == "x *** y ***")
        #expect(redactor.redact(header: "authorization", value: "Basic QWxhZGRpbjpvcGVu") == "Basic ***")
        #expect(redactor.redact(header: "Proxy-Authorization", value: "token") == "***")
        #expect(redactor.redact(header: "X-Key", value: "k=abc") == "k=***")
        #expect(Redactor.none.redact(header: "Authorization", value: "Bearer t") == "Bearer t")
    }

    @Test("the redactor hides a secret in every form it is written in: encoded in a URL or a form, escaped in JSON, before a combining mark")
    func redactorForms() {
        let redactor = Redactor(secrets: ["k3y w/sl\"sh é"])
        for shown in [
            "k3y w/sl\"sh é",                       // as it is
            "k3y%20w/sl%22sh%20%C3%A9",               // as a URL writes it (reserved characters kept)
            "k3y%20w%2Fsl%22sh%20%C3%A9",             // as a parameter
            "k3y%20w%2fsl%22sh%20%c3%a9",             // lower-case hex, as some servers echo
            "k3y+w%2Fsl%22sh+%C3%A9",                 // as a form value
            "k3y w/sl\\\"sh é",                   // inside a JSON string
            "k3y w/sl\\\"sh \\u00e9",              // as Python's json.dumps writes it: every non-ASCII character escaped
            "k3y w\\/sl\\u0022sh \\u00E9",           // `/` escaped (PHP), a quote as \u0022, upper-case hex
            "k3y%20w/sl\"sh%20%C3%A9",               // another set encoded, as a server echoes a query
            "%6B3y%20w%2Fsl%22sh%20%c3%A9",           // every byte a server chose, hex of either case
        ] {
            #expect(redactor.redact("<" + shown + ">") == "<***>", "\(shown)")
            #expect(redactor.reveals(shown))
        }
        // A combining mark after the secret makes one character of its last letter and the mark:
        // `String.contains` finds nothing there, the bytes do.
        let plain = Redactor(secrets: ["tok3n"])
        #expect(!"x tok3n\u{301} y".contains("tok3n"))
        #expect(plain.redact("x tok3n\u{301} y").hasSameCodePoints(as: "x ***\u{301} y"))
        // A canonically equivalent spelling is other bytes: the value as sent is what is hidden.
        #expect(Redactor(secrets: ["caf\u{E9}"]).redact("cafe\u{301}").hasSameCodePoints(as: "cafe\u{301}"))
        #expect(!plain.reveals("tok3"))
        // What httpbin echoes of a query it was sent (`/` decoded, the rest kept encoded), and a
        // '%' that is the secret's own.
        #expect(Redactor(secrets: ["s3cr3t+/=&x y"]).redact("k=s3cr3t%2B/%3D%26x%20y&z=1") == "k=***&z=1")
        #expect(Redactor(secrets: ["50%off"]).redact("a 50%off b 50%25off") == "a *** b ***")
        #expect(Redactor(secrets: ["tok3n"]).redact("tok3%") == "tok3%")
        #expect(plain.adding(["other"]).redact("tok3n other") == "*** ***")
        // A character past U+FFFF escaped as a surrogate pair (json.dumps("p🔑ss")); a lone
        // surrogate or a wrong escape is not the secret.
        let key = Redactor(secrets: ["p🔑ss"])
        #expect(key.redact(#"{"k": "p\ud83d\udd11ss"}"#) == #"{"k": "***"}"#)
        #expect(key.redact(#"p\ud83dss p\u1234ss"#) == #"p\ud83dss p\u1234ss"#)
    }

    @Test("a secret under 4 bytes is hidden where it stands alone, never inside a word, a number or a host name, where the *** would give it away")
    func shortSecrets() {
        let short = Redactor(secrets: ["p", "1", "ab"])
        #expect(short.redact("GET http://127.0.0.1:80/anything/canada/2021 Accept: application/json") == "GET http://127.0.0.1:80/anything/canada/2021 Accept: application/json")
        #expect(short.redact("/basic-auth/ab/p?x=1&y=ab") == "/basic-auth/***/***?x=***&y=***")
        #expect(short.redact(#"{"password": "p", "n": 1, "list": [1, 12]}"#) == #"{"password": "***", "n": ***, "list": [***, 12]}"#)
        #expect(short.redact("p p,p") == "*** ***,***")
        // The 4-byte secret is hidden inside anything, as before.
        #expect(Redactor(secrets: ["s3ck"]).redact("xs3ckx") == "x***x")
    }

    @Test("JSON output hides secrets in object keys as well as values")
    func redactedKeys() {
        let value: JSONValue = ["s3cret": ["nested": "has s3cret inside"]]
        #expect(RunReport.redacted(value, Redactor(secrets: ["s3cret"])) == ["***": ["nested": "has *** inside"]])
    }

    @Test("JUnit XML is well formed: a testsuite per file, a testcase per request, failures, errors and skips")
    func junit() throws {
        func result(_ name: String, error: RequestResult.Failure? = nil, failures: [ExpectationFailure] = []) -> RequestResult {
            RequestResult(name: name, mark: YAMLNode.Mark(line: 3, column: 5), method: .get, url: "http://h/?k=s3cret", duration: .milliseconds(12), error: error, failures: failures, captured: [:])
        }
        let xml = RunReport.junit([RunReport.Suite(
            file: "p.yaml", pipeline: "demo <&>",
            results: [
                result("ok"),
                result("failed", failures: [ExpectationFailure(label: "status", mark: YAMLNode.Mark(line: 7, column: 15), expected: "200", actual: "500 \"s3cret\"")]),
                result("broken", error: RequestResult.Failure(stage: "transport", kind: "connection failed", message: "refused\u{1}")),
                { var skipped = result("skipped"); skipped.skipReason = "${id} has no value"; return skipped }(),
            ]
        )], redactor: Redactor(secrets: ["s3cret"]))
        #expect(!xml.contains("s3cret"))
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = ElementCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(xml)")
        #expect(collector.elements == ["testsuites", "testsuite", "testcase", "testcase", "failure", "testcase", "error", "testcase", "skipped"])
        #expect(collector.attributes[1]["tests"] == "4" && collector.attributes[1]["failures"] == "1" && collector.attributes[1]["errors"] == "1" && collector.attributes[1]["skipped"] == "1")
        #expect(collector.attributes[1]["name"] == "demo <&>")
        #expect(collector.attributes[4]["message"] == "status: expected 200, actual 500 \"***\"")
    }

    final class ElementCollector: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var attributes: [[String: String]] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            elements.append(elementName)
            self.attributes.append(attributes)
        }
    }
}
