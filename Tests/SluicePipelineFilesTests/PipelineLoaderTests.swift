import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles

@Suite("Loading pipeline files: stages through the registry, every error at its line and column")
struct PipelineLoaderTests {
    private func load(_ text: String, variables: [String: String] = [:], environment: [String: String] = [:]) throws(PipelineFileError) -> PipelineFile {
        try PipelineFile.load(text: text, path: "p.yaml", variables: variables, environment: environment)
    }

    /// The diagnostics of a file that must not load, as `LINE:COLUMN: MESSAGE`.
    private func errors(_ text: String, variables: [String: String] = [:], environment: [String: String] = [:]) -> [String] {
        do {
            _ = try load(text, variables: variables, environment: environment)
            Issue.record("the pipeline loaded")
            return []
        } catch {
            return error.diagnostics.map { "\($0.mark): \($0.message)" }
        }
    }

    @Test("stages are made in order with their options; redirects is added at the bottom, and the run's cookies below it")
    func makesStages() throws {
        let file = try load("""
            name: shop
            stages:
              - url-resolution:
                  base-url: https://api.example/v1
              - header-injection:
                  headers: { Accept: application/json, X-Count: 2 }
                  user-agent: none
                  accept-language: de
              - serialization:
                  format: json
                  parameters-in-uri: [get]
              - response-decoding:
                  acceptable-status: [200-299, 304]
                  acceptable-content-types: any
            requests:
              - path: items
            """)
        #expect(file.spec.name == "shop")
        #expect(file.stages.map(\.name) == ["url-resolution", "header-injection", "serialization", "response-decoding"])
        let injection = try #require(file.stages[1] as? HeaderInjection)
        #expect(injection.injectedHeaders.fields.map { "\($0.name): \($0.value)" } == ["Accept: application/json", "X-Count: 2", "Accept-Language: de"])
        let serialization = try #require(file.stages[2] as? Serialization)
        #expect(serialization.format == .json)
        #expect(serialization.parametersInURI == [.get])
        let decoding = try #require(file.stages[3] as? ResponseDecoding)
        #expect(decoding.acceptableStatus.contains(304) && !decoding.acceptableStatus.contains(301))
        #expect(try file.makePipeline(transport: CurlTransport.shared).stageNames == ["url-resolution", "header-injection", "serialization", "response-decoding", "redirects", "hsts", "cookies"])
        #expect(file.spec.requests[0].name == "GET items")
    }

    @Test("a bare stage name takes the defaults; redirects can be listed, tuned or turned off")
    func bareStagesAndRedirects() throws {
        let file = try load("""
            stages:
              - serialization
              - redirects: { max-hops: 3, allow-insecure: true }
            requests: []
            """)
        let redirects = try #require(file.stages[1] as? Redirection)
        #expect(redirects.maximumHops == 3 && redirects.allowsInsecureRedirects && redirects.follows)
        #expect(try file.makePipeline(transport: CurlTransport.shared).stageNames == ["header-injection", "serialization", "redirects", "hsts", "cookies"])
        let off = try load("stages: [{redirects: {follow: false}}]")
        #expect((off.stages[0] as? Redirection)?.follows == false)
    }

    @Test("anchors and aliases share values between entries")
    func anchors() throws {
        let file = try load("""
            requests:
              - name: a
                path: http://h/a
                headers: &common { X-Team: core, X-Trace: "1" }
              - name: b
                path: http://h/b
                headers: *common
            """)
        #expect(file.spec.requests[1].headers.map { $0.key.scalar } == ["X-Team", "X-Trace"])
        // An alias is a copy: inside it, marks point at the anchored definition.
        #expect(file.spec.requests[1].headers[0].key.mark.line == 4)
    }

    @Test("the file's name is its stem unless name: says otherwise")
    func defaultName() throws {
        #expect(try load("requests: []").spec.name == "p")
    }

    @Test("each kind of error names its line and column", arguments: [
        ("stages: [\n  - url-resolution: {base-url: 'x'\n", "2:3: did not find expected node content while parsing a flow node"),
        ("stages:\n  - retyr\n", "2:5: unknown stage 'retyr'"),
        ("stages:\n  - url-resolver\n", "2:5: unknown stage 'url-resolver'; did you mean 'url-resolution'?"),
        ("stages:\n  - response-decoding: json\n", "2:24: the options of stage 'response-decoding' must be a mapping, such as '- response-decoding: {OPTION: json}' ('sluice stages' lists each stage's options)"),
        ("stages:\n  - url-resolution:\n      base-ur: http://h\n", "3:7: unknown option 'base-ur' for stage 'url-resolution'; did you mean 'base-url'?"),
        ("stages:\n  - url-resolution:\n      base-ur: http://h\n", "2:5: stage 'url-resolution' needs 'base-url'"),
        ("stages:\n  - serialization:\n      format: xml\n", "3:15: format must be one of form | json | plist | multipart, not 'xml'"),
        ("stages:\n  - redirects:\n      max-hops: [1]\n", "3:17: max-hops must be an integer from 0 up, not a list"),
        ("stages:\n  - response-decoding:\n      removes-keys-with-null-values: yes\n", "3:38: removes-keys-with-null-values must be a boolean, not 'yes'"),
        ("stages:\n  - trust-evaluation:\n      pinning: public-key\n", "2:5: stage 'trust-evaluation': public-key pinning needs at least one pin"),
        (
            "stages:\n  - url-resolution: {base-url: 'http://h'}\n  - trust-evaluation: {pinning: public-key, pins: ['sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=']}\n",
            "3:5: public-key pinning needs https, but the base URL http://h is plain http"
        ),
        ("stages:\n  - cache\n  - serialization\n  - cache\n", "4:5: two 'cache' stages cannot work together (at p.yaml:2:5 and at p.yaml:4:5)"),
        ("requests:\n  - path: http://h/x\n    parameters: {a: 1}\n", "3:17: parameters need a serialization stage"),
        (
            "stages:\n  - serialization: {format: form}\nrequests:\n  - path: http://h/x\n    method: POST\n    parameters: 5\n",
            "6:17: serialization's format form writes parameters as names and values: they must be a mapping of names to values, not '5'"
        ),
        (
            "stages:\n  - serialization: {format: json}\nrequests:\n  - path: http://h/x\n    parameters: [1, 2]\n",
            "5:17: the parameters of a GET request go in its query, form-encoded: they must be a mapping of names to values, not a list"
        ),
        ("requests:\n  - path: relative\n", "2:11: 'relative' is not an absolute http(s) URL"),
        ("requests:\n  - path: http://h/${nope}\n", "2:11: undefined variable ${nope}"),
        ("requests:\n  - path: http://h/${env.SLUICE_UNSET}\n", "2:11: undefined variable ${env.SLUICE_UNSET}: the environment variable SLUICE_UNSET is not set"),
        ("requests:\n  - path: http://h/${bad\n", "2:11: '${' has no closing '}'"),
        ("requests:\n  - path: http://h/\n    headers: {'X-${nope}': v}\n", "3:15: undefined variable ${nope}"),
        ("requests:\n  - path: http://h/\n    headers: {'X(A)': v}\n", "3:15: headers: header field 'X(A)': its name holds '(', and a field name is a token"),
        ("requests:\n  - path: http://h/\n    append-headers: {\"X\\tA\": v}\n", "3:22: append-headers: header field \"X\\tA\": its name holds byte 0x09"),
        ("requests:\n  - path: http://h/\n    headers: {X-A: \"a\\x01b\"}\n", "3:20: headers: header field 'X-A': its value holds byte 0x01, and a field value holds no control character but a tab"),
        ("requests:\n  - path: http://h/\n    redirects: {max-hops: -1}\n", "3:27: max-hops must be an integer from 0 up, not '-1'"),
        ("requests:\n  - path: http://h/\n    redirects: {folow: false}\n", "3:17: unknown option 'folow' for redirects; did you mean 'follow'?"),
        ("requests:\n  - path: http://h/\n    redirects: false\n", "3:16: redirects must be a mapping"),
        ("requests:\n  - path: http://h/\n    expect:\n      body:\n        \"$[?length(@.a)]\": 1\n", "5:9: invalid JSONPath '$[?length(@.a)]': length() gives a value, which must be compared (as in length(...) > 0) (at character 4)"),
        ("requests:\n  - path: http://h/\n    expect:\n      body:\n        $.a: {count: many}\n", "5:22: count takes a whole number, not 'many'"),
        ("requests:\n  - path: http://h/\n    expect:\n      body:\n        $.a: {not-equals: 1}\n", "5:15: 'not-equals' is not an operator (did you mean 'not'?)"),
        ("requests:\n  - path: http://h/\n    expect:\n      body:\n        $.a: {contain: x}\n", "5:15: 'contain' is not an operator (did you mean 'contains'?)"),
        ("requests:\n  - path: http://h/\n    expect:\n      status: 2x\n", "4:15: status is a code (200), a class (2xx), a range (200-299) or a list of them, each code of three digits"),
        ("requests:\n  - path: http://h/\n    expect:\n      status: 99\n", "4:15: status is a code (200), a class (2xx), a range (200-299) or a list of them, each code of three digits"),
        ("requests:\n  - path: http://h/\n    expect:\n      status: [200, 0-99]\n", "4:15: status is a code (200), a class (2xx), a range (200-299) or a list of them, each code of three digits"),
        ("requests:\n  - path: http://h/\n    expect:\n      headers: {X: '/[/'}\n", "4:20: '[' is not a regular expression"),
        ("requests:\n  - path: http://h/\n    timeout: soon\n", "3:14: timeout must be a duration such as 500ms, 30s, 2m or 1h30m"),
        ("requests:\n  - path: http://h/\n    timeout: 2\n", "3:14: timeout must be a duration such as 500ms, 30s, 2m or 1h30m; give 2's unit (2s for seconds)"),
        ("requests:\n  - {method: POST, path: 'http://h/', body-file: ''}\n", "2:50: body-file must be a path"),
        ("stages:\n  - serialization: {format: multipart}\nrequests:\n  - {method: POST, path: 'http://h/', parts: [{name: f, file: ''}]}\n", "4:63: a part's file must be a path"),
        ("requests:\n  - path: http://h/\n    paht: x\n", "3:5: unknown key 'paht' in a request; did you mean 'path'?"),
        ("requests:\n  - {name: a, path: 'http://h/'}\n  - {name: a, path: 'http://h/'}\n", "3:5: a request named 'a' is already defined at p.yaml:2:5"),
        ("requests:\n  - path: http://h/\n  - path: http://h/\n", "3:5: a request named 'GET http://h/' is already defined at p.yaml:2:5; names must be unique (a request with no name: is named METHOD path: give these a name: each)"),
        ("nmae: x\n", "1:1: unknown key 'nmae' in a pipeline; did you mean 'name'?"),
        ("requests:\n  - {method: post, path: 'http://h/'}\n", "2:14: method 'post': methods are case-sensitive (RFC 9110 section 9.1); write POST"),
        ("requests:\n  - {method: 'GE T', path: 'http://h/'}\n", "2:14: 'GE T' is not an HTTP method"),
    ])
    func errorPositions(text: String, expected: String) {
        let found = errors(text)
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test("a method goes out as written: one no RFC defines keeps its case, a standard one must be written as the RFC writes it")
    func methodsAsWritten() throws {
        let file = try load("requests:\n  - {name: a, method: PURGE, path: 'http://h/'}\n  - {name: b, method: m-search, path: 'http://h/'}\n  - {name: c, method: PATCH, path: 'http://h/'}\n")
        #expect(file.spec.requests.map(\.method.rawValue) == ["PURGE", "m-search", "PATCH"])
    }

    @Test("the names a file reads: variables:, stage options, paths, conditions, a request's variables: and own stages; a --var none reads is warned of, with the near name")
    func readVariableNames() throws {
        let file = try load("""
            variables:
              base: http://h
              derived: "${root}/x"
            stages:
              - header-injection: {headers: {X-Key: "${key}"}}
            requests:
              - name: a
                path: ${base}/${id}
                when: mode == 'full'
                variables:
                  page: ${start}
                capture:
                  token: $.token
              - name: b
                path: http://h/${token}
                stages:
                  - header-injection: {headers: {X-Own: "${own}"}}
            """, variables: ["root": "r", "key": "k", "id": "1", "mode": "full", "start": "0", "own": "o"])
        // A capture a later request reads counts too: --var gives it when that request runs alone.
        #expect(file.readVariableNames == ["base", "derived", "root", "key", "id", "mode", "start", "own", "token"])
        #expect(PipelineFile.unreadVariableWarnings(["bsae"], files: [file]) == ["warning: --var bsae: nothing in p.yaml reads ${bsae}; did you mean base?"])
        #expect(PipelineFile.unreadVariableWarnings(["page"], files: [file]).count == 1, "a request's own variables: are set, not read from --var")
        #expect(PipelineFile.unreadVariableWarnings(["mode"], files: [file]).isEmpty)
    }

    @Test("a mapping with no operator, and no near miss of one, is a literal object to compare with")
    func literalObjects() throws {
        let file = try load("requests:\n  - path: http://h/\n    expect:\n      body:\n        $.a: {id: 1, it: 2, q: swift}\n")
        #expect(file.spec.requests[0].expectations.count == 1)
        if case .query(.jsonPath, _, let predicate) = file.spec.requests[0].expectations[0].check {
            #expect(predicate.op == .equals && !predicate.negated)
            #expect(predicate.expected.pairs?.count == 3)
        } else {
            Issue.record("not a body expectation")
        }
    }

    @Test("every error of a file is reported at once, sorted by line")
    func allErrorsAtOnce() {
        let found = errors("""
            stages:
              - url-resolution:
                  base-url: ${bse}
              - header-injection:
                  user-agent: [a]
              - retry
            requests:
              - path: get
                parameters: {q: 1}
                expect:
                  body:
                    "$.a..": 1
            """, variables: ["base": "http://h"])
        #expect(found.map { $0.prefix(while: { $0 != ":" }) } == ["3", "5", "6", "9", "12"], "\(found)")
        #expect(found[0].contains("did you mean ${base}?"))
    }

    @Test("parameters that are not names and values load where nothing form-encodes them: a JSON body, or a template")
    func parametersOfAnyShape() throws {
        let json = try load("stages:\n  - serialization: {format: json}\nrequests:\n  - path: http://h/x\n    method: POST\n    parameters: [1, 2]\n")
        #expect(json.spec.requests[0].parameters?.elements?.count == 2)
        let templated = try load("stages:\n  - serialization\nrequests:\n  - path: http://h/x\n    parameters: ${p}\n", variables: ["p": "x"])
        #expect(templated.spec.requests[0].parameters?.scalar == "${p}")
    }

    @Test("a capture whose query is wrong is reported once: its name still counts as defined for the requests after it")
    func unreadCaptureReportedOnce() {
        for capture in ["{ login: json.login }", "{ login: { jsonpath: 'json.login' } }", "{ login: [1, 2] }"] {
            let found = errors("""
                requests:
                  - name: first
                    path: http://h/login
                    capture: \(capture)
                  - path: http://h/users/${login}
                    headers: { X-Login: "${login}" }
                """)
            #expect(found.count == 1 && found[0].hasPrefix("4:"), "\(capture): \(found)")
            #expect(!found.contains { $0.contains("undefined variable") }, "\(capture): \(found)")
        }
    }

    @Test("a capture validates for the requests after it, not before or in stages")
    func capturesAreKnownStatically() throws {
        let ok = try load("""
            requests:
              - name: login
                path: http://h/login
                capture: { token: $.token }
              - path: http://h/items/${token}
            """)
        #expect(ok.spec.requests[1].variableNames == ["token"])
        let found = errors("""
            stages:
              - header-injection: { authorization: { bearer: "${token}" } }
            requests:
              - path: http://h/items/${token}
              - name: login
                path: http://h/login
                capture: { token: $.token }
            """)
        #expect(found.contains { $0.hasPrefix("2:50: undefined variable ${token}: it is captured by request 'login', but stage options are read before any request runs") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("4:11: undefined variable ${token}: it is captured by request 'login', which does not run before this point") }, "\(found)")
    }

    @Test("a request's own stages read its own variables: when the file knows their values, as Hurl sets an entry's variable options first; one that reads a capture is still refused")
    func ownStagesReadOwnVariables() throws {
        let file = try load("""
            variables:
              base: http://h
            requests:
              - name: signed
                path: ${base}/a
                variables:
                  key: "k-${base}"
                stages:
                  - header-injection: {headers: {X-Key: "${key}"}}
            """)
        #expect(file.spec.requests[0].ownStages.count == 1)
        let found = errors("""
            requests:
              - name: login
                path: http://h/login
                capture: { token: $.token }
              - name: use
                path: http://h/use
                variables:
                  bearer: "${token}"
                stages:
                  - header-injection: {headers: {X-Token: "${bearer}"}}
            """)
        #expect(found.contains { $0.contains("undefined variable ${bearer}: it is captured by request 'use', but stage options are read before any request runs") }, "\(found)")
    }

    @Test("--var wins over variables:, which may read the environment; environment values are secrets")
    func variables() throws {
        let file = try load("""
            variables:
              host: h
              token: t-${env.TOKEN}
              url: http://${host}/
            requests:
              - path: ${url}
            """, variables: ["host": "override"], environment: ["TOKEN": "s3cr3t"])
        #expect(file.scope.values == ["host": "override", "token": "t-s3cr3t", "url": "http://override/"])
        #expect(file.secrets.contains("t-s3cr3t") && file.secrets.contains("s3cr3t"))
        #expect(file.scope.secretNames == ["token"])
        // A secret that reads as a number is hidden as written, never as the number's text.
        let pin = try load("variables:\n  pin: ${env.PIN}\nrequests:\n  - path: http://h/\n", environment: ["PIN": "0007"])
        #expect(pin.scope.values["pin"] == "0007" && pin.scope.typedValues["pin"] == 7)
        #expect(pin.secrets.contains("0007") && !pin.secrets.contains("7"))
    }

    @Test("for-each rows of [1, \"1\"] are named apart: a string that reads as another type is quoted in the result's name")
    func rowNamesApart() throws {
        let file = try PipelineFile.load(text: "requests:\n  - name: list\n    path: http://h/${item}\n    for-each: [1, \"1\", true, \"true\", ada]\n", path: "p.yaml", environment: [:])
        #expect(file.spec.requests.map(\.displayName) == ["list [1]", "list [\"1\"]", "list [true]", "list [\"true\"]", "list [ada]"])
        let mappings = try PipelineFile.load(text: "requests:\n  - name: m\n    path: http://h/${n}\n    for-each: [{n: 2}, {n: \"2\"}]\n", path: "p.yaml", environment: [:])
        #expect(mappings.spec.requests.map(\.displayName) == ["m [n=2]", "m [n=\"2\"]"])
    }

    @Test("an environment value under 4 bytes is shown, with a warning where it is read: hiding a 1 would hide every 1 in the output")
    func shortEnvironmentValues() throws {
        let text = """
            variables:
              size: ${env.PAGE_SIZE}
              label: "n-${env.PAGE_SIZE}"
              key: ${env.API_KEY}
            stages:
              - header-injection: { authorization: { bearer: "${env.TOKEN}" } }
            requests:
              - path: http://h/?size=${size}&x=${x}
            """
        let file = try PipelineFile.load(text: text, path: "p.yaml", environment: ["PAGE_SIZE": "20", "API_KEY": "k3y-long", "TOKEN": "t1", "SLUICE_VAR_x": "1"])
        #expect(!file.secrets.contains("20") && !file.secrets.contains("n-20") && !file.secrets.contains("1"), "\(file.secrets)")
        #expect(file.secrets.contains("k3y-long"))
        // Under a secret option, a value is hidden whatever its length.
        #expect(file.secrets.contains("t1"))
        #expect(!file.scope.secretNames.contains("size") && !file.scope.secretNames.contains("x") && file.scope.secretNames.contains("key"))
        #expect(file.warnings.contains { $0.hasPrefix("p.yaml:2:9: warning: ${env.PAGE_SIZE} is 2 bytes long, too short to hide") && $0.hasSuffix("(also at p.yaml:3:10)") }, "\(file.warnings)")
        #expect(file.warnings.contains { $0.hasPrefix("p.yaml:1:1: warning: SLUICE_VAR_x's value is 1 byte long") }, "\(file.warnings)")
        #expect(Redactor(secrets: file.secrets).redact("200 OK size=20 x=1") == "200 OK size=20 x=1")
    }

    @Test("an environment value read only deep inside a request (parameters, a header's list of values, a part, a credential's user) is a secret")
    func secretsReadDeep() throws {
        let file = try load("""
            stages:
              - serialization: { format: multipart }
            requests:
              - path: http://h/
                parameters: { user: admin, password: "${env.A}", nested: [{ deep: "x-${env.B}" }] }
                headers: { X-Two: [a, "${env.C}"] }
                parts: [{ name: f, value: "${env.D}" }]
                credential: { username: "${env.E}", password: p4ss-word }
            """, environment: ["A": "s3cr3t-a", "B": "s3cr3t-b", "C": "s3cr3t-c", "D": "s3cr3t-d", "E": "s3cr3t-e"])
        #expect(Set(file.secrets).isSuperset(of: ["s3cr3t-a", "s3cr3t-b", "s3cr3t-c", "s3cr3t-d", "s3cr3t-e", "p4ss-word"]), "\(file.secrets)")
    }

    @Test("values under authorization are secrets, and so is the Basic credential sent")
    func authorizationSecrets() throws {
        let file = try load("""
            stages:
              - header-injection:
                  authorization: { basic: { username: ada, password: pässwörd } }
            """)
        let credential = Data("ada:pässwörd".utf8).base64EncodedString()
        #expect(Set(file.secrets).isSuperset(of: ["ada", "pässwörd", credential]))
        #expect(Redactor(secrets: file.secrets).redact("ada:pässwörd \(credential)") == "***:*** ***")
    }

    @Test("a stage of any type reports the secrets it derives and its warnings: the loader asks no concrete type")
    func reportingStage() throws {
        var registry = StageRegistry.builtIn
        try registry.register(StageDescriptor(name: "signer", summary: "Signs.") { _ in ReportingSigner() })
        let file = try PipelineFile.load(text: "stages:\n  - signer\nrequests:\n  - path: http://h/\n", path: "p.yaml", environment: [:], registry: registry)
        #expect(file.secrets.contains("derived-k3y"))
        #expect(Redactor(secrets: file.secrets).redact("signature derived-k3y") == "signature ***")
        #expect(file.warnings.count == 1 && file.warnings.first?.hasPrefix("p.yaml:2:") == true && file.warnings.first?.hasSuffix(": warning: signing is weak") == true, "\(file.warnings)")
    }

    @Test("a warning several stages give alike is said once, naming the other places: past three, counting them")
    func repeatedWarningSaidOnce() throws {
        var registry = StageRegistry.builtIn
        try registry.register(StageDescriptor(name: "signer", summary: "Signs.") { _ in ReportingSigner() })
        func warnings(requests: Int) throws -> [String] {
            let entries = (0..<requests).map { "  - path: http://h/\($0)\n    stages: [signer]\n" }.joined()
            return try PipelineFile.load(text: "requests:\n" + entries, path: "p.yaml", environment: [:], registry: registry).warnings
        }
        #expect(try warnings(requests: 1) == ["p.yaml:3:14: warning: signing is weak"])
        #expect(try warnings(requests: 2) == ["p.yaml:3:14: warning: signing is weak (also at p.yaml:5:14)"])
        #expect(try warnings(requests: 4) == ["p.yaml:3:14: warning: signing is weak (also at p.yaml:5:14, p.yaml:7:14 and p.yaml:9:14)"])
        #expect(try warnings(requests: 6) == ["p.yaml:3:14: warning: signing is weak (also at p.yaml:5:14, p.yaml:7:14, p.yaml:9:14 and 2 more)"])
    }

    @Test("an environment value is a secret wherever an option holds it: nested in headers, in a list, as a key")
    func nestedEnvironmentSecrets() throws {
        let file = try PipelineFile.load(text: """
            stages:
              - header-injection:
                  headers: { X-Api-Key: "key=${env.KEY}", "${env.NAME}": v }
              - response-decoding:
                  acceptable-content-types: [ "application/${env.TYPE}" ]
            requests:
              - path: http://h/
            """, path: "p.yaml", environment: ["KEY": "k-91", "NAME": "X-Named", "TYPE": "json"])
        #expect(Set(file.secrets).isSuperset(of: ["k-91", "X-Named", "json"]), "\(file.secrets)")
    }

    @Test("pins and files are read relative to the pipeline file's folder")
    func relativePaths() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            stages:
              - trust-evaluation: { pinning: public-key, pins: [missing.pem] }
            """
        try text.write(to: directory.appendingPathComponent("p.yaml"), atomically: true, encoding: .utf8)
        do {
            _ = try PipelineFile.load(path: directory.appendingPathComponent("p.yaml").path)
            Issue.record("loaded")
        } catch {
            #expect(error.diagnostics.first?.message.contains(directory.appendingPathComponent("missing.pem").path) == true, "\(error)")
        }
    }

    @Test("references across requests: a row's column holds for its request alone, unless the request captures that name; variables and captures hold from their request on")
    func referencesAcrossRequests() throws {
        let rows = """
            requests:
              - path: http://h/${sku}
                for-each: [{sku: a}]
              - path: http://h/next/${sku}
            """
        do {
            _ = try PipelineFile.load(text: rows, path: "rows.yaml")
            Issue.record("a row's column reached the next request")
        } catch {
            #expect(error.diagnostics.map(\.mark.line) == [4] && error.description.contains("undefined variable ${sku}"), "\(error)")
        }
        _ = try PipelineFile.load(text: """
            requests:
              - path: http://h/${sku}
                for-each: [{sku: a}]
                capture: { sku: $.sku }
              - path: http://h/${sku}/${made}
                variables: { made: 1 }
                expect: { checks: [{ variable: own, exists: true }] }
                capture: { own: $.x }
              - path: http://h/${own}/${made}
            """, path: "captured.yaml")
    }

    @Test("a for-each that cannot be read (its data file missing, a bad row, or itself malformed) hides no other problem and adds none about its rows' names")
    func unreadableForEach() {
        for forEach in ["{csv: missing.csv}", "{json: missing.json}", "[{n: 1}, 2]", "missing.csv"] {
            let problems = errors("""
                stages:
                  - nosuchstage
                requests:
                  - for-each: \(forEach)
                    requests:
                      - path: http://h/${n}?q=${column}
                        when: region == 'eu'
                        expect: { checks: [{ variable: other-column, exists: true }] }
                        capture: { token: $.token }
                  - path: http://h/${token}/${undefined-thing}
                    for-each: \(forEach)
                  - path: http://h/${token}/${n}
                """)
            // The stage, each for-each once, and the one reference nothing could supply: a
            // request of an unread for-each may read any name (${undefined-thing} may be a column).
            #expect(problems.map { $0.prefix { $0 != ":" } } == ["2", "4", "11", "12"], "\(forEach): \(problems)")
            #expect(problems.last == "12:11: undefined variable ${n} (define it under variables: or pass --var n=VALUE)", "\(forEach): \(problems)")
        }
    }

    @Test("a literal path the run would refuse (a host or port no standard allows) is a load error at its line, as sluice validate must say before the run does")
    func unsendableLiteralPaths() {
        for path in ["http://ho%7Cst/x", "http://1.2.3.08/", "http://h.test:8x/", "http://[1.2.3.4]/"] {
            #expect(errors("requests:\n  - path: \"\(path)\"\n") == ["2:11: '\(path)' is not a URL reference: its host or port is one no standard allows, so the run would refuse it"])
        }
        // What the run escapes and sends is no error; a template is judged when it is filled.
        #expect(errors("requests:\n  - path: \"http://h.test/a b?q={x}%3D\"\n  - path: \"http://${host}/\"\n    variables: {host: \"h|st\"}\n  - path: x\n").map { $0.prefix(4) } == ["5:11"])
    }

    @Test("a request that sends its own capture is told so, not that the request does not run before itself")
    func ownCapture() {
        #expect(errors("requests:\n  - name: create\n    path: http://h/${id}\n    capture: { id: $.id }\n") == [
            "3:11: undefined variable ${id}: this request captures it from its response, which comes after it is sent"
        ])
    }

    @Test("a diagnostic prints as FILE:LINE:COLUMN: error: MESSAGE")
    func diagnosticFormat() {
        let diagnostic = PipelineDiagnostic(file: "pipelines/a.yaml", mark: YAMLNode.Mark(line: 3, column: 7), message: "unknown stage 'x'")
        #expect(diagnostic.description == "pipelines/a.yaml:3:7: error: unknown stage 'x'")
    }
}

/// A plugin's stage that derives a secret from its settings and warns about them.
private struct ReportingSigner: RequestStage, ConfigurationReporting {
    var derivedSecrets: [String] { ["derived-k3y"] }
    var configurationWarnings: [String] { ["signing is weak"] }

    func prepare(_ request: Request, context: TaskContext) -> Request {
        request
    }
}
