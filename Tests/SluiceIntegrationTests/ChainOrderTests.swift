import Foundation
import SluiceCore
import SluiceJSONPath
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import SluiceAWSSigV4
import SluiceHAR
import SluiceHMACSignature
import SluiceOAuth2
import SluiceRetry
import Synchronization
import Testing

/// The stages a user may list in any order give the same exchanges and the same results in every
/// order, from YAML and from Swift alike: the scenario (redirects that set cookies, a cache hit, a
/// 304 revalidation, JSON decoding of the final response, a typed capture) runs against nginx and
/// against the scenario server in all 120 orders of five stages, and every built-in stage and
/// plugin together runs in orders in which every pair of stages appears both ways round.
@Suite("the chain composes in every order", .serialized)
struct ChainOrderTests {
    /// The five stages of the issue's scenario: their YAML entries and the same stages in Swift.
    enum Listed: CaseIterable, CustomStringConvertible {
        case cookies, cache, responseDecoding, headerInjection, redirects

        var yaml: String {
            switch self {
            case .cookies: "cookies"
            case .cache: "cache"
            case .responseDecoding: "response-decoding"
            case .headerInjection: "header-injection: {headers: {Accept: application/json}}"
            case .redirects: "redirects: {max-hops: 5}"
            }
        }

        var stage: any Stage {
            switch self {
            case .cookies: CookieHandling()
            case .cache: ResponseCaching()
            case .responseDecoding: ResponseDecoding()
            case .headerInjection: HeaderInjection(headers: ["Accept": "application/json"])
            case .redirects: Redirection(maximumHops: 5)
            }
        }

        var description: String { String(yaml.prefix { $0 != ":" }) }
    }

    /// A request of the scenario, with what its final response must hold (JSONPath to a value,
    /// `${NAME}` for a capture) and what it captures.
    struct Step {
        var name: String
        var path: String
        var expect: [(String, String)] = []
        var capture: [(String, String)] = []
    }

    /// A prefix that keeps this process's paths apart from those of earlier runs against the same
    /// servers (the scenario server counts requests by path); letters and digits only, so it reads
    /// the same percent-encoded.
    static let run = String(UUID().uuidString.prefix(8))

    /// Every ordering of `items`, in a fixed order.
    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    /// The scenario against the scenario server, for a run whose paths carry `key`.
    static func scenarioSteps(_ key: String) -> [Step] {
        let home = "/cache/\(key)-home?cache-control=max-age%3D60"
        let login = "/cache/\(key)-login?status=302&set-cookie=session%3Dabc&location=" + home.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let validated = "/cache/\(key)-etag?etag=%22v1%22&cache-control=no-cache"
        return [
            Step(name: "login", path: login, expect: [("$.echo.Cookie", "session=abc"), ("$.echo.Accept", "application/json")], capture: [("first", "$.n")]),
            Step(name: "again", path: home, expect: [("$.n", "${first}")]),
            Step(name: "fetch", path: validated, expect: [("$.conditional", "false")], capture: [("stored", "$.n")]),
            Step(name: "revalidate", path: validated, expect: [("$.n", "${stored}"), ("$.echo.Cookie", "session=abc")]),
        ]
    }

    /// The scenario against nginx: `/login` sets a cookie on its way to a file fresh for an hour,
    /// `/validated/` answers 304 to the second fetch, `/cookie` says what the request sent.
    static func nginxSteps(_ key: String) -> [Step] {
        [
            Step(name: "login", path: "/login?run=\(key)", expect: [("$.items[1].name", "item 1")], capture: [("first", "$.items[1].id")]),
            Step(name: "again", path: "/cached/data.json?run=\(key)", expect: [("$.items[1].id", "${first}")]),
            Step(name: "fetch", path: "/validated/data.json?run=\(key)", capture: [("stored", "$.items[2].id")]),
            Step(name: "revalidate", path: "/validated/data.json?run=\(key)", expect: [("$.items[2].id", "${stored}")]),
            Step(name: "cookie", path: "/cookie?run=\(key)", expect: [("$.cookie", "session=nginx")]),
        ]
    }

    /// The exchanges every order must make with the scenario server: the login's 302 and the
    /// redirect it leads to (with the cookie it set), nothing for the cache hit, a fetch, and a
    /// revalidation answered 304.
    static let scenarioExchanges = [
        "GET /cache/KEY-login?status=302&set-cookie=session%3Dabc&location=%2Fcache%2FKEY%2Dhome%3Fcache%2Dcontrol%3Dmax%2Dage%253D60 cookie=- if-none-match=- → 302",
        "GET /cache/KEY-home?cache-control=max-age%3D60 cookie=session=abc if-none-match=- → 200",
        "GET /cache/KEY-etag?etag=%22v1%22&cache-control=no-cache cookie=session=abc if-none-match=- → 200",
        "GET /cache/KEY-etag?etag=%22v1%22&cache-control=no-cache cookie=session=abc if-none-match=\"*\" → 304",
    ]

    /// The same for nginx.
    static let nginxExchanges = [
        "GET /login?run=KEY cookie=- if-none-match=- → 302",
        "GET /cached/data.json?run=KEY cookie=session=nginx if-none-match=- → 200",
        "GET /validated/data.json?run=KEY cookie=session=nginx if-none-match=- → 200",
        "GET /validated/data.json?run=KEY cookie=session=nginx if-none-match=\"*\" → 304",
        "GET /cookie?run=KEY cookie=session=nginx if-none-match=- → 200",
    ]

    /// A pipeline file listing url-resolution, then `stages` as given, and the steps.
    static func yaml(base: URL, stages: [String], steps: [Step]) -> String {
        var text = "stages:\n  - url-resolution: {base-url: \"\(base.absoluteString)\"}\n"
        for stage in stages { text += "  - \(stage)\n" }
        text += "requests:\n"
        for step in steps {
            text += "  - name: \(step.name)\n    path: \"\(step.path)\"\n"
            if !step.expect.isEmpty {
                text += "    expect:\n      status: 200\n      body:\n"
                for (path, value) in step.expect { text += "        \"\(path)\": \(value.hasPrefix("$") ? "\"\(value)\"" : value)\n" }
            }
            if !step.capture.isEmpty {
                text += "    capture:\n"
                for (name, path) in step.capture { text += "      \(name): \"\(path)\"\n" }
            }
        }
        return text
    }

    /// Runs the steps from YAML; returns the exchanges and each request's failure, if any.
    static func runYAML(base: URL, stages: [String], steps: [Step], registry: StageRegistry = .builtIn) async throws -> (exchanges: [String], failures: [String]) {
        let log = ExchangeLog()
        let file = try PipelineFile.load(text: yaml(base: base, stages: stages, steps: steps), path: "order.yaml", environment: [:], registry: registry)
        let results = try await PipelineRunner(file: file, transport: RecordingTransport(log: log)).run()
        let failures = results.filter { !$0.ok }.map { "\($0.name): \($0.error?.message ?? "") \($0.failures)" }
        return (log.all, failures)
    }

    /// Runs the steps through a `Pipeline` built in Swift with `stages` in the order given; checks
    /// the same expectations on the decoded JSON, captures kept as JSON values.
    static func runSwift(base: URL, stages: [any Stage], steps: [Step]) async throws -> (exchanges: [String], failures: [String]) {
        let log = ExchangeLog()
        let pipeline = try Pipeline(stages: [try URLResolution(baseURL: base)] + stages, transport: RecordingTransport(log: log))
        let manager = SessionManager(pipeline: pipeline)
        var captured: [String: JSONValue] = [:]
        var failures: [String] = []
        for step in steps {
            let response: Response
            do {
                response = try await manager.send(Request(url: URL(string: step.path)!))
            } catch {
                failures.append("\(step.name): \(error)")
                continue
            }
            guard response.status == 200, let body = response.decoded?.value else {
                failures.append("\(step.name): status \(response.status)")
                continue
            }
            for (path, value) in step.expect {
                let expected: JSONValue = value.hasPrefix("${") ? captured[String(value.dropFirst(2).dropLast())] ?? .null : ((try? JSONReader().value(from: value)) ?? .string(value))
                let actual = try JSONPath(path).select(in: body).first
                if actual != expected { failures.append("\(step.name): \(path) is \(actual.map { "\($0)" } ?? "nothing"), not \(expected)") }
            }
            for (name, path) in step.capture { captured[name] = try JSONPath(path).select(in: body).first }
        }
        return (log.all, failures)
    }

    @Test("the scenario gives the same exchanges and results in all 120 orders of five stages, from YAML and from Swift, against the scenario server and nginx")
    func everyOrder() async throws {
        let servers = try TestServers.load()
        let orders = ChainOrderTests.permutations(Listed.allCases)
        #expect(orders.count == 120)
        for (number, order) in orders.enumerated() {
            for (server, base, steps, expected) in [
                ("scenario", servers.scenario, ChainOrderTests.scenarioSteps, ChainOrderTests.scenarioExchanges),
                ("nginx", servers.nginxHTTP, ChainOrderTests.nginxSteps, ChainOrderTests.nginxExchanges),
            ] {
                let key = "order\(ChainOrderTests.run)\(number)\(server)"
                let yaml = try await ChainOrderTests.runYAML(base: base, stages: order.map(\.yaml), steps: steps(key + "y"))
                #expect(yaml.failures.isEmpty, "\(server), YAML, \(order): \(yaml.failures)")
                #expect(yaml.exchanges.map { $0.replacingOccurrences(of: key + "y", with: "KEY") } == expected, "\(server), YAML, \(order)")
                let swift = try await ChainOrderTests.runSwift(base: base, stages: order.map(\.stage), steps: steps(key + "s"))
                #expect(swift.failures.isEmpty, "\(server), Swift, \(order): \(swift.failures)")
                #expect(swift.exchanges.map { $0.replacingOccurrences(of: key + "s", with: "KEY") } == expected, "\(server), Swift, \(order)")
            }
        }
    }

    @Test("pipelines/README's chain of demo.yaml is what `sluice validate --verbose` prints")
    func documentedChain() async throws {
        let readme = try String(contentsOf: RunCommandTests.pipelines.appendingPathComponent("README.md"), encoding: .utf8)
        let command = "$ sluice validate --verbose pipelines/demo.yaml\n"
        let start = try #require(readme.range(of: command)).upperBound
        let documented = String(readme[start..<(try #require(readme.range(of: "```", range: start..<readme.endIndex)).lowerBound)])
        let printed = try await offPool {
            try SluiceProcess.run(["validate", "--verbose", "pipelines/demo.yaml"], directory: RunCommandTests.root.path)
        }
        #expect(printed.status == 0)
        #expect(printed.output == documented)
    }

    /// Every stage of the catalog that can share one pipeline, with options for the scenario
    /// server: a token from its OAuth realm, its HMAC key, one retry after a 503, a HAR file.
    static func allStages(realm: String, har: String, authorization: String) -> [String] {
        [
            "header-injection: {headers: {Accept: application/json}}",
            "serialization",
            "trust-evaluation: {validates-domain-name: true}",
            "proxy: {url: none}",
            "response-decoding",
            "redirects: {max-hops: 5}",
            "cookies",
            "cache",
            "reachability",
            "retry: {attempts: 2, base-delay: 1ms}",
            "hmac-signature: {secret: hmac-test-secret}",
            authorization,
            "har-recorder: {path: \"\(har)\"}",
        ]
    }

    @Test("every built-in stage and plugin together: each pair both ways round gives the same exchanges and results", arguments: ["oauth2", "aws-sigv4"])
    func everyPair(authorization: String) async throws {
        let servers = try TestServers.load()
        var registry = StageRegistry.builtIn
        for module: any StageModule.Type in [RetryModule.self, HMACSignatureModule.self, OAuth2Module.self, AWSSigV4Module.self, HARModule.self] {
            try registry.register(module)
        }
        let directory = try TemporaryDirectory()
        let stage = authorization == "oauth2"
            ? "oauth2-client-credentials: {token-url: \"\(servers.scenario.absoluteString)/oauth/chain-order/token\", client-id: sluice-client, client-secret: s3cr3t-value}"
            : "aws-sigv4: {access-key-id: AKIDEXAMPLE, secret-access-key: wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, region: us-east-1, service: chain}"
        let listed = ChainOrderTests.allStages(realm: "chain-order", har: directory.file("x.har").path, authorization: stage)
        // Forward and reversed, every pair appears both ways round; the rotations mix the rest.
        let orders = [listed, Array(listed.reversed())] + stride(from: 3, to: listed.count, by: 4).map { Array(listed[$0...] + listed[..<$0]) }
        var reference: [String]?
        for (number, order) in orders.enumerated() {
            let key = "pairs\(ChainOrderTests.run)\(authorization.filter(\.isLetter))\(number)"
            let login = "/cache/\(key)-home?cache-control=max-age%3D60".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            var steps = [
                Step(name: "login", path: "/cache/\(key)-login?status=302&set-cookie=session%3Dabc&location=\(login)", expect: [("$.echo.Cookie", "session=abc")], capture: [("first", "$.n")]),
                Step(name: "again", path: "/cache/\(key)-home?cache-control=max-age%3D60", expect: [("$.n", "${first}")]),
                Step(name: "flaky", path: "/flaky/\(key)?failures=1", expect: [("$.attempt", "2")]),
                Step(name: "signed", path: "/hmac/\(key)?a=1", expect: [("$.verified", "true")]),
            ]
            steps.append(
                authorization == "oauth2"
                    ? Step(name: "authorized", path: "/oauth/chain-order/resource", expect: [("$.ok", "true")])
                    : Step(name: "authorized", path: "/aws/chain/\(key)", expect: [("$.verified", "true")])
            )
            let run = try await ChainOrderTests.runYAML(base: servers.scenario, stages: order, steps: steps, registry: registry)
            #expect(run.failures.isEmpty, "\(order): \(run.failures)")
            let exchanges = run.exchanges.map { $0.replacingOccurrences(of: key, with: "KEY") }
            // OAuth 2.0's token request goes through the pipeline's own transport, so it is logged too.
            #expect(exchanges.count == (authorization == "oauth2" ? 7 : 6), "\(exchanges)")
            if authorization == "oauth2" {
                #expect(exchanges.contains { $0.hasPrefix("POST /oauth/chain-order/token") }, "\(exchanges)")
            }
            if let reference {
                #expect(exchanges == reference, "\(order)")
            } else {
                reference = exchanges
            }
        }
    }
}

/// The exchanges a pipeline hands its transport, as `METHOD PATH?QUERY cookie=… if-none-match=… → STATUS`.
final class ExchangeLog: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ request: Request, _ status: Int) {
        let url = request.url
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        let condition = request.headers["If-None-Match"].map { _ in "\"*\"" } ?? "-"
        entries.withLock { $0.append("\(request.method) \(target) cookie=\(request.headers["Cookie"] ?? "-") if-none-match=\(condition) → \(status)") }
    }

    var all: [String] { entries.withLock { $0 } }
}

/// libcurl's transport, each exchange written to a log.
struct RecordingTransport: Transport {
    let log: ExchangeLog
    let inner: any Transport = CurlTransport.shared

    func execute(_ request: Request, events: any TransportEvents) async throws -> Response {
        let response = try await inner.execute(request, events: events)
        log.append(request, response.status)
        return response
    }

    var executor: (any TaskExecutor)? { inner.executor }
}
