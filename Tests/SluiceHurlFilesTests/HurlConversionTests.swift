import Foundation
import SluiceHurlFiles
import SluicePipelineFiles
import SluiceStageRegistry
import Testing

/// A Hurl file made a pipeline document: the YAML `sluice convert` prints, the same checks
/// whether the document is loaded as a tree or read back from that text, and every construct
/// with no pipeline spelling refused at its line and column.
@Suite("Hurl files converted to pipeline files")
struct HurlConversionTests {
    static let sample = """
        # A sample of most of Hurl's constructs
        GET http://localhost:8000/hello?lang=en
        User-Agent: sluice
        [Query]
        q: a b&c
        [Options]
        location: true
        variable: limit=3
        retry: 2
        delay: 5ms
        HTTP 200
        Content-Type: text/html; charset=utf-8
        [Captures]
        greeting: body regex "(Hello)"
        size: bytes count
        [Asserts]
        header "X-Missing" not exists
        body not contains "error"
        status != 500
        variable "size" > {{limit}}
        body matches /^Hello/
        jsonpath "$.items[*].id" count >= 0
        bytes count isInteger

        POST http://localhost:8000/data
        {"id": {{limit}}, "name": "n-{{greeting}}", "big": 18446744073709551617}
        HTTP *
        [Asserts]
        duration < 1000
        ```
        Hello World!
        ```
        """

    static let converted = #"""
        # Converted from sample.hurl by sluice convert.
        fail-fast: true
        stages:
          - redirects:
              follow: false
        requests:
          - name: entry 1
            method: GET
            path: http://localhost:8000/hello?lang=en&q=a%20b%26c
            variables:
              limit: 3
            headers:
              User-Agent: sluice
            remove-headers:
              - Accept-Encoding
            delay: 5ms
            redirects:
              follow: true
            retry:
              attempts: 3
            expect:
              status: 200
              headers:
                Content-Type: text/html; charset=utf-8
              checks:
                - header: X-Missing
                  not:
                    exists: true
                - body:
                  not:
                    contains: error
                - status:
                  not:
                    equals: 500
                - variable: size
                  gt: ${limit}
                - body:
                  matches: ^Hello
                - jsonpath: $.items[*].id
                  filters:
                    - count
                  ge: 0
                - bytes:
                  filters:
                    - count
                  is: integer
            capture:
              greeting:
                body:
                filters:
                  - regex: (Hello)
              size:
                bytes:
                filters:
                  - count
          - name: entry 2
            method: POST
            path: http://localhost:8000/data
            headers:
              Content-Type: application/json
            remove-headers:
              - Accept-Encoding
            body: "{\"id\": ${limit}, \"name\": \"n-${greeting}\", \"big\": 18446744073709551617}"
            expect:
              checks:
                - duration:
                  lt: 1000
                - body:
                  equals: "Hello World!\n"
        """#

    private func document(_ text: String) throws -> YAMLNode {
        try HurlConversion.pipelineDocument(of: try HurlFile.parse(text))
    }

    @Test("the YAML of a file of most constructs: sections, options, templates, captures, asserts, bodies")
    func yamlText() throws {
        let text = YAMLWriter().text(of: try document(Self.sample))
        #expect(text == Self.converted.replacingOccurrences(of: "# Converted from sample.hurl by sluice convert.\n", with: "") + "\n", "\(text)")
    }

    @Test("the tree and its YAML text load to the same requests and checks, marked where the Hurl file wrote them")
    func sameChecks() throws {
        let tree = try PipelineFile.load(root: try document(Self.sample), path: "sample.hurl", environment: [:])
        let text = try PipelineFile.load(text: Self.converted, path: "sample.yaml", environment: [:])
        #expect(tree.spec.requests.map(\.name) == ["entry 1", "entry 2"])
        #expect(tree.spec.requests.map { $0.expectations.map(\.label) } == text.spec.requests.map { $0.expectations.map(\.label) })
        #expect(tree.spec.requests.map { $0.captures.map(\.name) } == [["greeting", "size"], []])
        let notExists = try #require(tree.spec.requests[0].expectations.first { $0.label == "header X-Missing not exists" })
        #expect(notExists.mark == YAMLNode.Mark(line: 17, column: 1), "the assert's own line in the .hurl file")
    }

    @Test("what has no pipeline spelling is refused, each at its line and column, nothing dropped")
    func refusals() throws {
        let text = """
            GET http://localhost:8000/x
            [Options]
            netrc: true
            HTTP 200
            [Asserts]
            body == {{name toInt}}
            body == {{name toInt}}
            """
        do {
            _ = try document(text)
            Issue.record("converted")
        } catch let error as HurlConversionError {
            #expect(error.problems.map { "\($0.position)" } == ["3:1", "6:9", "7:9"], "\(error)")
            #expect(error.problems[0].message == "the option netrc has no pipeline spelling yet")
        }
    }

    @Test("the loader's problems and warnings in a Hurl file's words: {{NAME}}, --variable and [Options] variable:, not ${NAME} and variables:")
    func problemsInHurlWords() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hurl-words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("words.hurl").path
        try Data("""
            GET http://localhost:8000/{{nope}}
            [Options]
            variable: limit=3
            HTTP 200

            GET http://localhost:8000/{{limits}}

            """.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try HurlPipelineFile.load(path: path, environment: [:])
            Issue.record("loaded")
        } catch {
            #expect(error.diagnostics.map(\.message) == [
                "undefined variable {{nope}} (pass --variable nope=VALUE, or set it in the entry's [Options]: variable: nope=VALUE)",
                "undefined variable {{limits}}; did you mean {{limit}}?",
            ], "\(error)")
        }
        try Data("GET http://localhost:8000/{{limit}}\n".utf8).write(to: URL(fileURLWithPath: path))
        let file = try HurlPipelineFile.load(path: path, variables: ["limit": "3", "limt": "4"], environment: [:])
        #expect(PipelineFile.unreadVariableWarnings(["limt"], files: [file]) == ["warning: --variable limt: nothing in \(path) reads {{limt}}; did you mean limit?"])
    }

    @Test("the experimental @cookie_storage directives above an entry: clear as cookie-jar: clear, each set as a store-cookies line; a bad line, a set before a clear, and a clear with --no-cookie-store are refused")
    func cookieStorageDirectives() throws {
        let text = """
            # @cookie_storage_set: localhost FALSE / FALSE 0 first A
            GET http://localhost:8000/a
            HTTP 200
            # a plain comment
            # @cookie_storage_clear
            # @cookie_storage_set: localhost\tFALSE\t/\tFALSE\t0\tsecond\tB
            GET http://localhost:8000/b
            # @cookie_storage_clear (inside the entry: not a directive of the next)
            HTTP 200
            """
        let yaml = YAMLWriter().text(of: try document(text))
        #expect(yaml.contains("    store-cookies:\n      - localhost FALSE / FALSE 0 first A\n"), "\(yaml)")
        #expect(yaml.contains("    cookie-jar: clear\n    store-cookies:\n      - \"localhost\\tFALSE\\t/\\tFALSE\\t0\\tsecond\\tB\"\n"), "\(yaml)")
        #expect(yaml.components(separatedBy: "cookie-jar: clear").count == 2, "\(yaml)")
        for (written, problem) in [
            ("# @cookie_storage_set: localhost FALSE / 0 x y\nGET http://h/\n", "1:1 @cookie_storage_set: expected 7 fields"),
            ("# @cookie_storage_set: h FALSE / FALSE 0 x y\n# @cookie_storage_clear\nGET http://h/\n", "2:1 @cookie_storage_clear after @cookie_storage_set"),
        ] {
            do {
                _ = try document(written)
                Issue.record("converted: \(written)")
            } catch let error as HurlConversionError {
                #expect(error.problems.map { "\($0.position) \($0.message)" }.first?.hasPrefix(problem) == true, "\(error)")
            }
        }
        var defaults = HurlDefaults()
        defaults.usesCookieStore = false
        #expect(throws: HurlConversionError.self) {
            try HurlConversion.pipelineDocument(of: try HurlFile.parse("# @cookie_storage_clear\nGET http://h/\n"), defaults: defaults)
        }
    }

    @Test("repeat: N runs the entry N times (a for-each of N empty rows), 0 skips it, -1 is refused")
    func repeatOption() throws {
        let yaml = YAMLWriter().text(of: try document("GET http://h/a\n[Options]\nrepeat: 3\n\nGET http://h/b\n[Options]\nrepeat: 0\n"))
        #expect(yaml.contains("    for-each:\n      - {}\n      - {}\n      - {}\n"), "\(yaml)")
        #expect(yaml.contains("    skip: true\n"), "\(yaml)")
        let file = try PipelineFile.load(text: yaml, path: "repeat.yaml", environment: [:])
        #expect(file.spec.requests.map(\.displayName) == ["entry 1", "entry 1", "entry 1", "entry 2"])
        #expect(throws: HurlConversionError.self) { try document("GET http://h/a\n[Options]\nrepeat: -1\n") }
    }

    @Test("the TLS options: the entry's own trust-evaluation stage, over what the command line gives every entry; the last insecure wins; files from the working folder; max-time a timeout")
    func trustOptions() throws {
        let working = FileManager.default.currentDirectoryPath
        let text = """
            GET https://h/a
            [Options]
            insecure: false
            insecure: true

            GET https://h/b
            [Options]
            cacert: certs/ca.pem
            cert: /c/client.pem:pa55
            key: /c/client.key
            pinnedpubkey: sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;keys/server.pub.pem
            max-time: 1500

            GET https://h/c
            [Options]
            insecure: false

            GET https://h/d

            """
        let plain = YAMLWriter().text(of: try document(text))
        #expect(plain.contains("  - name: entry 1\n    method: GET\n    path: https://h/a\n    remove-headers:\n      - Accept-Encoding\n    stages:\n      - trust-evaluation:\n          allow-invalid-certificates: true\n          validates-domain-name: false\n"), "\(plain)")
        #expect(plain.contains("""
                timeout: 1500ms
                stages:
                  - trust-evaluation:
                      ca-bundle: \(working)/certs/ca.pem
                      client-certificate: /c/client.pem
                      client-key-password: pa55
                      client-key: /c/client.key
                      pinning: public-key
                      pins:
                        - sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
                        - \(working)/keys/server.pub.pem

            """), "\(plain)")
        #expect(plain.components(separatedBy: "trust-evaluation").count == 3, "entries 3 and 4 check as the pipeline does: \(plain)")
        // -k and -m for every entry: entry 3's insecure: false still checks, entry 2's max-time wins.
        var defaults = HurlDefaults()
        defaults.insecure = true
        defaults.maxTime = "5s"
        let insecure = YAMLWriter().text(of: try HurlConversion.pipelineDocument(of: try HurlFile.parse(text), defaults: defaults))
        let entries = insecure.components(separatedBy: "  - name: entry ").dropFirst().map { String($0) }
        #expect(entries.map { $0.contains("allow-invalid-certificates: true") } == [true, true, false, true], "\(insecure)")
        #expect(entries.map { $0.contains("timeout: 5s") } == [true, false, true, true], "\(insecure)")
    }

    @Test("aws-sigv4 with user: the entry's own aws-sigv4 stage, user's KEY:SECRET its keys (not a credential); another provider, a missing region or user are refused")
    func awsSigV4Option() throws {
        let yaml = YAMLWriter().text(of: try document("GET http://h/a\n[Options]\naws-sigv4: aws:amz:eu-central-1:s3\nuser: {{key}}:secret\n"))
        #expect(yaml.contains("    stages:\n      - aws-sigv4:\n          access-key-id: ${key}\n          secret-access-key: secret\n          region: eu-central-1\n          service: s3\n"), "\(yaml)")
        #expect(!yaml.contains("credential") && !yaml.contains("Authorization"), "\(yaml)")
        for (written, problem) in [
            ("aws-sigv4: osc:osc:eu-west-2:api\nuser: k:s", "aws-sigv4 takes aws:amz:REGION:SERVICE"),
            ("aws-sigv4: aws:amz\nuser: k:s", "aws-sigv4 takes aws:amz:REGION:SERVICE"),
            ("aws-sigv4: aws:amz:eu-central-1:s3", "aws-sigv4 needs the user option"),
        ] {
            do {
                _ = try document("GET http://h/a\n[Options]\n\(written)\n")
                Issue.record("converted: \(written)")
            } catch let error as HurlConversionError {
                #expect(error.problems.first?.message.hasPrefix(problem) == true, "\(error)")
            }
        }
    }

    @Test("Hurl's random functions as the pipeline's calls; in a query field each encoded (a name holds a space), getEnv too")
    func randomFunctions() throws {
        let yaml = YAMLWriter().text(of: try document("GET http://h/a\nX-Dice: {{randomInt 1 6}}\nX-Id: {{randomString 8}}-{{randomWord}}\n[Query]\nwho: {{randomFullName}}\nkey: {{getEnv \"KEY\"}}\n"))
        #expect(yaml.contains("path: http://h/a?who=${urlencode(random-full-name())}&key=${urlencode(env.KEY)}"), "\(yaml)")
        #expect(yaml.contains("X-Dice: ${random-int(1, 6)}") && yaml.contains("X-Id: ${random-string(8)}-${random-word()}"), "\(yaml)")
        #expect(throws: HurlConversionError.self) { try document("GET http://h/a\nX-Dice: {{randomInt 1}}\n") }
    }

    @Test("a header written twice is sent twice, a list of values; the header option is a line sent after them")
    func repeatedHeaders() throws {
        let text = "GET http://localhost:8000/x\nFruit: Apple\nfruit: Banana\n[Options]\nheader: Fruit: Cherry\nno-header: Accept\noutput: -\n"
        let yaml = YAMLWriter().text(of: try document(text))
        #expect(yaml.contains("    headers:\n      Fruit:\n        - Apple\n        - Banana\n    header-lines:\n      - \"Fruit: Cherry\"\n    remove-headers:\n      - Accept\n"), "\(yaml)")
        #expect(yaml.contains("    output: /dev/stdout\n"), "Hurl's `output: -` is standard output: \(yaml)")
        let file = try PipelineFile.load(text: yaml, path: "x.yaml", environment: [:])
        #expect(file.spec.requests[0].headers.compactMap(\.value.scalar) == ["Apple", "Banana"])
        #expect(file.spec.requests[0].headerLines.compactMap(\.scalar) == ["Fruit: Cherry"])
        #expect(file.spec.requests[0].removedHeaders.compactMap(\.scalar) == ["Accept", "Accept-Encoding"], "Hurl asks for no compression unless told")
    }

    @Test("Hurl's JSONPath dialect is written as RFC 9535: .[ is [, a dotted name the shorthand does not take is ['name']; the rest as written", arguments: [
        ("$.profile-id", "$['profile-id']"),
        ("$.[0].name", "$[0].name"),
        ("$.[?(@.id == 1)].name", "$[?(@.id == 1)].name"),
        ("$.fruit.[?(@.US == 100)]", "$.fruit[?(@.US == 100)]"),
        ("$..profile-id", "$..['profile-id']"),
        ("$..[0]", "$..[0]"),
        ("$..name", "$..name"),
        ("$.store.book[*].author", "$.store.book[*].author"),
        ("$['a.b-c'].d", "$['a.b-c'].d"),
        ("$.it's", "$['it\\'s']"),
        ("$.*", "$.*"),
        ("$.a1._b.é", "$.a1._b.é"),
        ("$.1a", "$['1a']"),
        ("$[?(@.price < 10.5)].title", "$[?(@.price < 10.5)].title"),
    ])
    func jsonPathDialect(hurl: String, rfc: String) throws {
        #expect(HurlConversion.rfc9535(hurl) == rfc)
        // Loaded, so checked by the pipeline format's RFC 9535 parser.
        _ = try PipelineFile.load(text: "requests:\n  - path: http://h/\n    expect: {checks: [{jsonpath: \"\(rfc.replacingOccurrences(of: "\\", with: "\\\\"))\", exists: true}]}\n", path: "j.yaml", environment: [:])
    }

    @Test("[BasicAuth] and user: with {{...}} are the request's credential:, Basic at once; literal ones an Authorization header")
    func templatedCredentials() throws {
        let yaml = YAMLWriter().text(of: try document("GET http://h/a\n[BasicAuth]\n{{u}}: s3cret\n\nGET http://h/b\n[Options]\nuser: bob:{{p}}\n\nGET http://h/c\n[BasicAuth]\nbob: pw\n"))
        #expect(yaml.contains("    credential:\n      username: ${u}\n      password: s3cret\n      schemes: basic\n"), "\(yaml)")
        #expect(yaml.contains("    credential:\n      username: bob\n      password: ${p}\n      schemes: basic\n"), "\(yaml)")
        #expect(yaml.contains("      Authorization: Basic Ym9iOnB3\n"), "\(yaml)")
        _ = try PipelineFile.load(text: yaml, path: "c.yaml", variables: ["u": "x", "p": "y"], environment: [:])
        #expect(throws: HurlConversionError.self, "two credentials for one entry") {
            try document("GET http://h/a\n[Options]\nuser: {{u}}:x\n[BasicAuth]\n{{u}}: pw\n")
        }
    }

    @Test("a variable set twice, or again by a variables file, is one key holding the last value; the file's quoted values stay strings")
    func variablesSetAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-hurl-vars-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let env = folder.appendingPathComponent("v.env")
        try "country=Spain\ncount=2\nid=\"007\"\n".write(to: env, atomically: true, encoding: .utf8)
        let text = "GET http://localhost:8000/x\n[Options]\nvariable: country=France\nvariables-file: \(env.path)\nvariable: country=Italy\n"
        let yaml = YAMLWriter().text(of: try document(text))
        #expect(yaml.contains("    variables:\n      count: 2\n      id: \"007\"\n      country: Italy\n"), "\(yaml)")
        let file = try PipelineFile.load(text: yaml, path: "x.yaml", environment: [:])
        #expect(file.spec.requests[0].variables.compactMap(\.key.scalar) == ["count", "id", "country"])
        let missing = "GET http://localhost:8000/x\n[Options]\nvariables-file: \(folder.path)/none.env\n"
        #expect(throws: HurlConversionError.self) { try document(missing) }
    }

    @Test("a file to compare with is read from the Hurl file's folder only: ../, an absolute path and a link out are refused")
    func fileRoot() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-hurl-root-\(getpid())")
        let folder = base.appendingPathComponent("cases")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        try Data("secret".utf8).write(to: base.appendingPathComponent("outside.txt"))
        try Data("Hello".utf8).write(to: folder.appendingPathComponent("inside.txt"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.txt"), withDestinationURL: base.appendingPathComponent("outside.txt"))
        let inside = try HurlConversion.pipelineDocument(of: try HurlFile.parse("GET http://h/\nHTTP 200\nfile,inside.txt;\n"), directory: folder)
        #expect(YAMLWriter().text(of: inside).contains("base64: SGVsbG8="))
        for name in ["../outside.txt", base.appendingPathComponent("outside.txt").path, "link.txt"] {
            do {
                _ = try HurlConversion.pipelineDocument(of: try HurlFile.parse("GET http://h/\nHTTP 200\nfile,\(name);\n"), directory: folder)
                Issue.record("\(name) was read")
            } catch let error as HurlConversionError {
                #expect(error.problems.first?.message.contains("is outside the Hurl file's folder") == true, "\(error)")
            }
        }
    }

    @Test("Hurl's defaults are written out: redirects not followed, entries named by their place")
    func defaults() throws {
        let text = YAMLWriter().text(of: try document("GET http://localhost:8000/a\n\nGET http://localhost:8000/a\n"))
        #expect(text.hasPrefix("fail-fast: true\nstages:\n  - redirects:\n      follow: false\n"), "Hurl stops a file at its first failing entry: \(text)")
        #expect(text.contains("  - name: entry 1\n") && text.contains("  - name: entry 2\n"), "the same URL twice is two requests")
    }
}
