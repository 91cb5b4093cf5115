import Foundation
import Testing
import Sluice
import SluiceCore
import SluiceJSONPath
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceRetry

/// The examples of the doc comments of `Sources/` (DocC renders them in the API reference), each
/// as written there (`DocumentationExampleTests` checks that every one is in an example test),
/// run against the local servers after the names it leaves to its reader are bound. SluiceOpenAPI's
/// is in `OpenAPIDocCommentExampleTests`, beside the generated client it names; `StagePlacement`'s
/// (`WireLog`) and `RequestTracing`'s are the DocC articles' own, in `DocumentationExampleTests`.
@Suite("Doc comment examples")
struct DocCommentExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Collects the value of each expression of a block, as a playground shows each line's: the
    /// examples written as expressions with their value in a comment run in one, so that their
    /// values can be checked and none goes unused.
    @resultBuilder
    enum Playground {
        static func buildExpression<Value>(_ value: Value) -> [Any] { [value] }
        static func buildBlock(_ values: [Any]...) -> [Any] { values.flatMap { $0 } }
    }

    /// The values of `body`'s expressions, in order.
    static func playground(@Playground _ body: () throws -> [Any]) rethrows -> [Any] {
        try body()
    }

    /// The header fields httpbin's `/headers` or `/anything` echoed.
    static func echoedHeaders(_ response: Response) throws -> [String: String] {
        try #require(try response.jsonObject()["headers"] as? [String: String])
    }
}

// MARK: SluiceCore: the model

extension DocCommentExampleTests {
    @Test("ProxySettings: a proxy without a scheme is http://, with hosts that go direct")
    func proxySettings() throws {
        var settings = ProxySettings(url: "proxy.internal:3128")
        settings.bypass = ["localhost", ".internal.example"]
        let route = try settings.route { "\($0)" }   // http://proxy.internal:3128, bypassed for those hosts
        guard case .through(let proxy) = route else { throw CancellationError() }
        #expect(proxy.url.absoluteString == "http://proxy.internal:3128" && proxy.bypass == ["localhost", ".internal.example"])
    }

    @Test("TrustSettings: a client key without its certificate, named as the front end names them")
    func trustSettings() throws {
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        var settings = TrustSettings()
        settings.clientKey = "client.key"
        let names: [TrustSettings.Field: String] = [.clientCertificate: "--cert", .clientKey: "--key", .clientKeyPassword: "--pass"]
        do {
            _ = try settings.policy { names[$0] }
        } catch {
            print(error.message)   // --key and --pass go with --cert
        }
        #expect(printed == ["--key and --pass go with --cert"])
    }

    @Test("FormEncoder: nested objects and arrays as AFNetworking writes them")
    func formEncoder() throws {
        let values = try Self.playground {
            try FormEncoder().string(from: ["b": [1, 2], "a": ["x": nil]])   // "a%5Bx%5D&b%5B%5D=1&b%5B%5D=2"
        }
        #expect(values.first as? String == "a%5Bx%5D&b%5B%5D=1&b%5B%5D=2")
    }

    @Test("Request.redirection and Request.ownCookies: a login's redirect handed back; cookies of the request's own sent")
    func ownRedirectsAndCookies() async throws {
        let transport = InMemoryTransport { request in
            request.url.path == "/login"
                ? Response(status: 302, headers: ["Location": "/home"], url: request.url)
                : Response(status: 200, body: Data((request.headers["Cookie"] ?? "").utf8), url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [try URLResolution(baseURL: "http://api.example.test/"), CookieHandling()], transport: transport))
        do {
            var login = Request("login")
            login.redirection = Redirection(follows: false)
            let response = try await manager.send(login)
            #expect(response.status == 302)
        }
        do {
            var request = Request("session")
            request.ownCookies = "theme=dark; lang=en"
            let response = try await manager.send(request)
            #expect(String(decoding: response.body, as: UTF8.self) == "theme=dark; lang=en")
        }
    }

    @Test("Request.responseDecoding: a JSON pipeline downloads a PNG, and a request's own statuses win")
    func ownResponseDecoding() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let destination = directory.file("logo.png")
        let manager = SessionManager(pipeline: try Pipeline {
            try URLResolution(baseURL: servers.httpbin)
            ResponseDecoding(format: .json)
        })
        var image = Request("image/png")
        image.responseDecoding = .passThrough
        let response = try await manager.download(image, to: destination)
        let png = try Data(contentsOf: destination)
        #expect(response.status == 200 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // Without its own decoding, the same request fails the pipeline's JSON check.
        await #expect(throws: SluiceError.self) { try await manager.download(Request("image/png"), to: directory.file("refused.png")) }
        // A request that expects a 404 accepts it; streaming bytes through the JSON pipeline works too.
        var missing = Request("status/404")
        missing.responseDecoding = ResponseDecoding(format: .data, acceptableStatus: [404...404], acceptableContentTypes: .any)
        let notFound = try await manager.send(missing)
        #expect(notFound.status == 404)
        var streamed = Request("bytes/1000")
        streamed.responseDecoding = .passThrough
        let stream = try await manager.stream(streamed)
        var count = 0
        for try await piece in try #require(stream.bodyStream) { count += piece.count }
        #expect(count == 1000)
        // A pipeline with no decoding stage applies a request's own.
        let bare = SessionManager(pipeline: try Pipeline { try URLResolution(baseURL: servers.httpbin) })
        var json = Request("json")
        json.responseDecoding = ResponseDecoding(format: .json)
        let decoded = try await bare.send(json)
        #expect(decoded.decoded?.value != nil)
        var strict = Request("html")
        strict.responseDecoding = ResponseDecoding(format: .json)
        await #expect(throws: SluiceError.self) { try await bare.send(strict) }
    }

    @Test("URLText: a URL's escapes kept as written, only what must be escaped escaped")
    func urlText() {
        let values = Self.playground {
            URLText.url("http://example.com/?a=x%3Dy&b={z}")?.absoluteString   // http://example.com/?a=x%3Dy&b=%7Bz%7D
        }
        #expect(values.first as? String == "http://example.com/?a=x%3Dy&b=%7Bz%7D")
    }

    @Test("URLText.appendingQuery: the query joined before the fragment, nothing escaped again")
    func urlTextAppendingQuery() {
        let values = Self.playground {
            URLText.appendingQuery("a=1", to: "http://h/p?x=%3D#top")   // http://h/p?x=%3D&a=1#top
        }
        #expect(values.first as? String == "http://h/p?x=%3D&a=1#top")
    }

    @Test("JSONValue: parameters written as JSON literals reach httpbin as that JSON")
    func jsonValue() async throws {
        let servers = try TestServers.load()
        let parameters: JSONValue = ["q": "swift", "page": 2, "tags": ["a", "b"], "draft": nil]
        #expect(parameters["page"] == .int(2))
        let manager = SessionManager(pipeline: try Pipeline { Serialization(format: .json); ResponseDecoding() })
        let response = try await manager.send(Request(method: .post, url: servers.httpbin("post"), parameters: parameters))
        #expect(response.decoded?.value?["json"] == parameters)
    }

    @Test("Request(_:json:): an Encodable value as the JSON body, without a Serialization stage")
    func requestJSON() async throws {
        let base = try TestServers.load().httpbin.absoluteString + "/anything"
        let manager = SessionManager(pipeline: try Pipeline { try URLResolution(baseURL: base) })
        struct Login: Encodable { var user: String; var remember: Bool }
        let request = try Request("login", json: Login(user: "zoe", remember: true))
        let response = try await manager.send(request)
        let echo = try response.jsonObject()
        #expect(echo["url"] as? String == base + "/login")
        #expect(echo["method"] as? String == "POST")
        let json = try #require(echo["json"] as? [String: Any])
        #expect(json["user"] as? String == "zoe" && json["remember"] as? Bool == true)
    }

    @Test("Request(_:pathParameters:): a relative path template resolved against the base URL")
    func requestPathTemplate() async throws {
        let base = try TestServers.load().httpbin.absoluteString + "/anything"
        let manager = SessionManager(pipeline: try Pipeline { try URLResolution(baseURL: base) })
        let response = try await manager.send(Request("users/{id}", pathParameters: ["id": "42"]))
        #expect(try response.jsonObject()["url"] as? String == base + "/users/42")
    }

    @Test("StageValueKey: a value put on a request reaches the stage that reads it")
    func stageValues() async throws {
        let servers = try TestServers.load()
        var request = Request(url: servers.httpbin("headers"))
        enum Attempt: StageValueKey { typealias Value = Int }
        request.stageValues[Attempt.self] = 2
        struct ShowAttempt: RequestStage {
            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                var request = request
                request.headers["X-Attempt"] = request.stageValues[Attempt.self].map { "\($0)" }
                return request
            }
        }
        let response = try await SessionManager(pipeline: try Pipeline { ShowAttempt() }).send(request)
        #expect(try Self.echoedHeaders(response)["X-Attempt"] == "2")
    }

    @Test("SynchronousRequestStage: a stage that never suspends stamps the request")
    func synchronousRequestStage() async throws {
        let servers = try TestServers.load()
        struct Stamp: SynchronousRequestStage {
            var name: String { "stamp" }
            func prepare(_ request: Request, context: TaskContext) throws -> Request {
                var request = request
                request.headers["X-Stamp"] = "1"
                return request
            }
        }
        let response = try await SessionManager(pipeline: try Pipeline { Stamp() }).send(Request(url: servers.httpbin("headers")))
        #expect(try Self.echoedHeaders(response)["X-Stamp"] == "1")
    }

    @Test("SynchronousResponseStage: a stage that never suspends refuses a response that is not JSON")
    func synchronousResponseStage() async throws {
        let servers = try TestServers.load()
        struct RequireJSON: SynchronousResponseStage {
            var name: String { "require-json" }
            func process(_ response: Response, for request: Request, context: TaskContext) throws -> Response {
                guard response.headers["Content-Type"]?.hasPrefix("application/json") == true else {
                    throw SluiceError(kind: .unacceptableContentType, message: "not JSON")
                }
                return response
            }
        }
        let manager = SessionManager(pipeline: try Pipeline { RequireJSON() })
        #expect(try await manager.send(Request(url: servers.httpbin("json"))).status == 200)
        let refused = await #expect(throws: SluiceError.self) { try await manager.send(Request(url: servers.httpbin("html"))) }
        #expect(refused?.kind == .unacceptableContentType && refused?.stage == "require-json")
    }

    @Test("StatusCodeSet: ranges as an array literal, and single codes")
    func statusCodeSet() async throws {
        let servers = try TestServers.load()
        let acceptable: StatusCodeSet = [200...299, 304...304]
        let other = StatusCodeSet(codes: [200, 201])
        #expect(acceptable.contains(204) && acceptable.contains(304) && !acceptable.contains(302))
        #expect(other.contains(201) && !other.contains(202))
        // As a response decoding stage takes them: a 202 passes the first set and not the second.
        let accepting = SessionManager(pipeline: try Pipeline { ResponseDecoding(format: .data, acceptableStatus: acceptable) })
        #expect(try await accepting.send(Request(url: servers.httpbin("status/202"))).status == 202)
        let refusing = SessionManager(pipeline: try Pipeline { ResponseDecoding(format: .data, acceptableStatus: other) })
        let refused = await #expect(throws: SluiceError.self) { try await refusing.send(Request(url: servers.httpbin("status/202"))) }
        #expect(refused?.kind == .unacceptableStatus)
    }
}

// MARK: SluiceCore: the pipeline, stages and tasks

extension DocCommentExampleTests {
    /// What the `Logging` stages of these examples logged.
    static let logged = Locked<[String]>([])

    @Test("Pipeline: a block of stages in front of a libcurl transport of its own")
    func pipeline() async throws {
        let servers = try TestServers.load()
        struct Stamp: RequestStage {
            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                var request = request
                request.headers["X-Stamp"] = "1"
                return request
            }
        }
        struct Logging: Stage {
            func handle(_ request: Request, context: TaskContext,
                        next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                let response = try await next(request, context)
                DocCommentExampleTests.logged.withLock { $0.append("\(request.url.absoluteString) \(response.status)") }
                return response
            }
        }
        let pipeline = try Pipeline(transport: CurlTransport()) {
            Stamp()
            Logging()
        }
        let manager = SessionManager(pipeline: pipeline)
        let url = servers.httpbin("headers?pipeline=\(UUID().uuidString)")
        let response = try await manager.send(Request(url: url))
        #expect(try Self.echoedHeaders(response)["X-Stamp"] == "1")
        #expect(Self.logged.withLock { $0 }.contains("\(url.absoluteString) 200"))
        await (pipeline.transport as? CurlTransport)?.shutdown()
    }

    @Test("RunInfo: a stage that fetches a token fetches none in a dry run")
    func runInfo() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        struct TokenFetch: Stage {
            let fetches: Locked<Int>
            func handle(_ request: Request, context: TaskContext,
                        next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                if context.storage[RunInfo.Key.self]?.isDryRun == true {
                    return try await next(request, context)   // a dry run: no token fetched
                }
                let token = fetches.withLock { fetched in
                    fetched += 1
                    return "token-\(fetched)"
                }
                var authorized = request
                authorized.headers["Authorization"] = "Bearer " + token
                return try await next(authorized, context)
            }
        }
        let fetches = Locked(0)
        var registry = StageRegistry.builtIn
        try registry.register(StageDescriptor(name: "token-fetch", summary: "Fetches a token.") { _ in TokenFetch(fetches: fetches) })
        let file = try PipelineFile.load(
            text: "stages: [token-fetch]\nrequests:\n  - path: \(base)/headers\n    expect: { body: { \"$.headers.Authorization\": Bearer token-1 } }\n",
            path: "token.yaml", registry: registry
        )
        let prepared = try await PipelineRunner(file: file, transport: CurlTransport.shared).prepare()
        #expect(prepared.count == 1 && fetches.withLock { $0 } == 0)
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        #expect(results.map(\.ok) == [true], "\(results.map(\.failures)) \(results.map(\.error))")
        #expect(fetches.withLock { $0 } == 1)
    }

    @Test("SessionManager: a manager over the shared transport, with no stage, sends a request")
    func sessionManager() async throws {
        let url = try TestServers.load().httpbin("get")
        let manager = SessionManager(pipeline: try Pipeline())
        let response = try await manager.send(Request(url: url))   // such as URL(string: "https://example.com/")!
        #expect(response.status == 200)
        #expect(try response.jsonObject()["url"] as? String == url.absoluteString)
    }

    @Test("Stage: a stage that changes the request before the rest of the chain")
    func stage() async throws {
        let servers = try TestServers.load()
        struct Stamp: Stage {
            func handle(_ request: Request, context: TaskContext,
                        next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                var request = request
                request.headers["X-Stamp"] = "1"
                return try await next(request, context)
            }
        }
        let response = try await SessionManager(pipeline: try Pipeline { Stamp() }).send(Request(url: servers.httpbin("headers")))
        #expect(try Self.echoedHeaders(response)["X-Stamp"] == "1")
    }

    @Test("StageBuilder: if and for in a block of stages")
    func stageBuilder() async throws {
        let servers = try TestServers.load()
        struct Stamp: RequestStage {
            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                var request = request
                request.headers["X-Stamp"] = "1"
                return request
            }
        }
        struct Logging: Stage {
            func handle(_ request: Request, context: TaskContext,
                        next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                let response = try await next(request, context)
                DocCommentExampleTests.logged.withLock { $0.append("\(request.url.absoluteString) \(response.status)") }
                return response
            }
        }
        struct AddHeader: RequestStage {
            let header: (key: String, value: String)
            init(_ header: (key: String, value: String)) { self.header = header }
            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                var request = request
                request.headers[header.key] = header.value
                return request
            }
        }
        for verbose in [true, false] {
            let extraHeaders = ["X-Team": "search", "X-Region": "eu"]
            let pipeline = try Pipeline {
                Stamp()
                if verbose { Logging() }
                for header in extraHeaders { AddHeader(header) }
            }
            #expect(pipeline.stages.count == (verbose ? 5 : 4), "\(pipeline.stageNames)")   // the Redirection stage added
            let url = servers.httpbin("headers?builder=\(UUID().uuidString)")
            let headers = try Self.echoedHeaders(try await SessionManager(pipeline: pipeline).send(Request(url: url)))
            #expect(headers["X-Stamp"] == "1" && headers["X-Team"] == "search" && headers["X-Region"] == "eu")
            #expect(Self.logged.withLock { $0 }.contains("\(url.absoluteString) 200") == verbose)
        }
    }

    @Test("TaskStorageKey: a stage keeps a value in its task's storage")
    func taskStorage() async throws {
        let servers = try TestServers.load()
        struct CountAttempts: Stage {
            func handle(_ request: Request, context: TaskContext,
                        next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                enum AttemptCount: TaskStorageKey { typealias Value = Int }
                context.storage[AttemptCount.self] = 2
                var request = request
                request.headers["X-Attempt"] = context.storage[AttemptCount.self].map { "\($0)" }
                return try await next(request, context)
            }
        }
        let response = try await SessionManager(pipeline: try Pipeline { CountAttempts() }).send(Request(url: servers.httpbin("headers")))
        #expect(try Self.echoedHeaders(response)["X-Attempt"] == "2")
    }
}

// MARK: SluiceCore: the built-in stages

extension DocCommentExampleTests {
    @Test("Redirection.Followed: the hops a task followed, read from its storage")
    func redirectionFollowed() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let request = Request(url: servers.httpbin("redirect/2"))
        let handle = manager.task(request)
        _ = try await handle.value
        let hops = handle.context.storage[Redirection.Followed.self] ?? []
        #expect(hops.map(\.status) == [302, 302] && hops.first?.from == request.url && hops.last?.to.path == "/get", "\(hops)")
    }

    @Test("CookieHandling: a jar of one's own keeps what httpbin set and sends it back")
    func cookieHandling() async throws {
        let servers = try TestServers.load()
        let jar = CookieJar()
        let pipeline = try Pipeline { CookieHandling(jar: jar) }
        // httpbin sets the cookie and redirects to /cookies, which shows what came back.
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: servers.httpbin("cookies/set?flavor=oat")))
        #expect(try response.jsonObject()["cookies"] as? [String: String] == ["flavor": "oat"])
        #expect(jar.cookies.map(\.name) == ["flavor"])
    }

    @Test("HeaderInjection: an Accept header and a bearer token on every request")
    func headerInjection() async throws {
        let servers = try TestServers.load()
        let token = "token-123"
        let pipeline = try Pipeline {
            HeaderInjection(headers: ["Accept": "application/json"], authorization: .bearer(token))
        }
        let headers = try Self.echoedHeaders(try await SessionManager(pipeline: pipeline).send(Request(url: servers.httpbin("headers"))))
        #expect(headers["Authorization"] == "Bearer token-123")
        #expect(headers["Accept"] == "application/json")
        #expect(headers["User-Agent"]?.hasPrefix("sluice/") == true)
    }

    @Test("ProxySelection: a proxy for every host but localhost")
    func proxySelection() async throws {
        let servers = try TestServers.load()
        let pipeline = try Pipeline {
            ProxySelection(route: .through(try Proxy(url: URL(string: "http://proxy.internal:3128")!, bypass: ["localhost"])))
        }
        let manager = SessionManager(pipeline: pipeline)
        // localhost is bypassed: sent straight to httpbin.
        let port = try #require(servers.httpbin.port)
        let direct = try await manager.send(Request(url: URL(string: "http://localhost:\(port)/get")!))
        #expect(direct.status == 200)
        // 127.0.0.1 goes through proxy.internal, which no name server knows.
        await #expect(throws: SluiceError.self) {
            try await manager.send(Request(url: servers.httpbin("get")))
        }
    }

    @Test("ResponseCaching: a disk cache answers the second request from its store")
    func responseCaching() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let cacheDirectory = directory.url
        let cache = ResponseCaching(store: try DiskCacheStore(directory: cacheDirectory))   // such as /var/cache/app
        let pipeline = try Pipeline { cache }
        let url = servers.nginx("cached/hello.txt?doc-comment=\(UUID().uuidString)")
        #expect(try await SessionManager(pipeline: pipeline).send(Request(url: url)).cacheOutcome == .miss)
        let again = try await SessionManager(pipeline: pipeline).send(Request(url: url))
        #expect(again.cacheOutcome == .hit)
        #expect(String(decoding: again.body, as: UTF8.self) == "hello from nginx\n")
    }

    @Test("Serialization: parameters written as a JSON body")
    func serialization() async throws {
        let servers = try TestServers.load()
        let pipeline = try Pipeline {
            Serialization(format: .json)
        }
        let response = try await SessionManager(pipeline: pipeline)
            .send(Request(method: .post, url: servers.httpbin("post"), parameters: ["q": "swift", "page": 2]))
        let echo = try response.jsonObject()
        let json = try #require(echo["json"] as? [String: Any])
        #expect(json["q"] as? String == "swift" && json["page"] as? Int == 2)
        #expect((echo["headers"] as? [String: String])?["Content-Type"]?.hasPrefix("application/json") == true)
    }

    @Test("VariableScope.typedText: a text variable typed as Hurl types --variable, checked against Hurl's own test values")
    func variableScopeTypedText() {
        let values = Self.playground {
            VariableScope.typedText("007")    // .int(7)
            VariableScope.typedText("0x1F")   // .string("0x1F")
        }
        #expect(values.compactMap { $0 as? JSONValue } == [.int(7), .string("0x1F")])
        // Hurl's variables.rs tests (Apache-2.0, Orange-OpenSource/hurl 138afd8): Jennifer, true,
        // 30, 1.7, 1.0, -1.0, null, and a number past 64 bits.
        #expect(VariableScope.typedText("Jennifer") == .string("Jennifer"))
        #expect(VariableScope.typedText("true") == .bool(true) && VariableScope.typedText("null") == .null)
        #expect(VariableScope.typedText("30") == .int(30) && VariableScope.typedText("1.7") == .double(1.7))
        #expect(VariableScope.typedText("1.0") == .double(1) && VariableScope.typedText("-1.0") == .double(-1))
        #expect(VariableScope.typedText("9223372036854775808") == .bigInteger("9223372036854775808"))
        // What YAML's core schema would read as a value and Hurl keeps as text.
        for text in ["~", "True", "NULL", "0o17", ".inf", "", "1_000", " 5"] {
            #expect(VariableScope.typedText(text) == .string(text), "\(text)")
        }
        #expect(VariableScope.typedText("1e3") == .double(1000) && VariableScope.typedText(".5") == .double(0.5) && VariableScope.typedText("+5") == .int(5))
    }

    @Test("Serialization.parameterDestination: a GET's parameters go in the query, a POST's in the body's format")
    func serializationParameterDestination() {
        let values = Self.playground {
            let stage = Serialization(format: .json)
            stage.parameterDestination(for: .get) == .query           // true
            stage.parameterDestination(for: .post) == .body(.json)    // true
        }
        #expect(values.compactMap { $0 as? Bool } == [true, true])
        let stage = Serialization(format: .json)
        #expect(stage.parameterDestination(for: .get, format: .json) == .body(.json), "a GET that chose JSON sends a body")
        #expect(stage.parameterDestination(for: .get, format: .form) == .query)
        let destinations: [Serialization.ParameterDestination] = [.query, .body(.form), .body(.multipart), .body(.json), .body(.plist)]
        #expect(destinations.map { $0.takesNamesAndValues } == [true, true, true, false, false])
    }

    @Test("TrustEvaluation: a pin the server's key does not match refuses the connection")
    func trustEvaluation() async throws {
        let servers = try TestServers.load()
        let pipeline = try Pipeline(transport: servers.trustingTransport()) {
            let pins = try TrustPin.pins(from: "sha256//r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=")
            TrustEvaluation(policy: try TrustPolicy(pinning: .publicKey, pins: pins))
        }
        #expect(pipeline.stageNames.contains("trust-evaluation"))
        // The test nginx's key is another: the pin refuses it before any request is sent.
        let refused = await #expect(throws: SluiceError.self) {
            try await SessionManager(pipeline: pipeline).send(Request(url: servers.nginxTLS("hello.txt")))
        }
        #expect(refused?.kind == .trustEvaluation, "\(String(describing: refused))")
        #expect(refused?.message.contains("r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=") == true, "\(String(describing: refused))")
    }

    @Test("URLResolution: a path template against a base URL with a path")
    func urlResolution() async throws {
        let resolution = try URLResolution(baseURL: "https://api.example.com/v1")
        // Request("users/{id}", pathParameters: ["id": "42"]) → https://api.example.com/v1/users/42
        // Nothing is sent: a transport in memory answers with the URL it was given.
        let echo = InMemoryTransport { request in Response(status: 200, url: request.url) }
        let manager = SessionManager(pipeline: try Pipeline(stages: [resolution], transport: echo))
        let response = try await manager.send(Request("users/{id}", pathParameters: ["id": "42"]))
        #expect(response.url?.absoluteString == "https://api.example.com/v1/users/42")
    }
}

// MARK: SluiceCore: streaming and transports

extension DocCommentExampleTests {
    @Test("RequestBodyStream: a body of lines from an async sequence, read once")
    func requestBodyStream() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let url = servers.httpbin("post")
        let lines = AsyncStream<String> { continuation in
            for line in ["first\n", "second\n"] { continuation.yield(line) }
            continuation.finish()
        }
        let body = RequestBodyStream(lines.map { Data($0.utf8) })
        let response = try await manager.send(Request(method: .post, url: url, body: .stream(body)))
        #expect(try response.jsonObject()["data"] as? String == "first\nsecond\n")
    }

    @Test("ResponseBodyStream: a 3 MiB body consumed piece by piece")
    func responseBodyStream() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let request = Request(url: servers.nginx("medium.bin"))
        var received = 0
        func consume(_ piece: Data) { received += piece.count }
        let response = try await manager.stream(request)
        for try await piece in response.bodyStream! {
            consume(piece)
        }
        #expect(received == 3 << 20)
    }

    @Test("ServerSentEventSource: events until the feed answers 204")
    func serverSentEvents() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let key = "doc-comment-\(UUID().uuidString)"
        let url = URL(string: servers.scenario.absoluteString + "/events/\(key)?count=3&retry=10")!
        for try await event in manager.events(Request(url: url)) {
            print(event.type, event.data)
        }
        // The loop ended: the feed sent its three events, and answered the reconnection after the
        // third (with its ID) with 204.
        let log = try await manager.send(Request(url: servers.scenario.appendingPathComponent("events-log/\(key)")))
        let ids = try #require(try log.jsonObject()["last_event_ids"] as? [Any]).map { $0 as? String }
        #expect(ids == [nil, "3"])
    }

    @Test("InMemoryTransport: a pipeline answered by a closure")
    func inMemoryTransport() async throws {
        let transport = InMemoryTransport { request in
            Response(status: 200, body: Data("hello".utf8), url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(transport: transport) { ResponseDecoding(format: .data) })
        let response = try await manager.send(Request(url: URL(string: "https://api.example.com/greeting")!))
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "hello")
        #expect(response.url?.absoluteString == "https://api.example.com/greeting")
    }
}

// MARK: SluicePipelineFiles, SluiceRunner, SluiceReachability

extension DocCommentExampleTests {
    @Test("PipelineFile: a file loaded with a variable, its stages made into a pipeline that sends")
    func pipelineFile() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let path = Self.root.appendingPathComponent("pipelines/chain.yaml").path
        let file = try PipelineFile.load(path: path, variables: ["base": base])   // such as "pipelines/chain.yaml", "http://127.0.0.1:8080"
        let pipeline = try file.makePipeline(transport: CurlTransport.shared)
        let response = try await SessionManager(pipeline: pipeline).send(Request("anything/orders"))
        #expect(response.decoded?.value?["url"]?.stringValue == base + "/anything/orders")
    }

    @Test("PipelineRunner: a file's requests run in order and pass")
    func pipelineRunner() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let path = Self.root.appendingPathComponent("pipelines/chain.yaml").path
        let file = try PipelineFile.load(path: path, variables: ["base": base])   // such as "pipelines/chain.yaml", "http://127.0.0.1:8080"
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        #expect(results.map(\.ok) == Array(repeating: true, count: 6), "\(results.map(\.failures)) \(results.map(\.error))")
    }

    @Test("IRegexp: a whole-text match and a search")
    func iRegexp() throws {
        let values = try Self.playground {
            let regex = try IRegexp("[A-Z]{2}-\\p{Nd}+")
            regex.matches("AB-42")              // true: the whole text
            regex.isFound(in: "order AB-42 sent") // true: anywhere in it
        }
        #expect(values as? [Bool] == [true, true])
    }

    @Test("JSONPath: a filter with a function over a response's JSON")
    func jsonPath() async throws {
        let servers = try TestServers.load()
        let items: JSONValue = ["items": [
            ["id": 1, "status": "failed", "tags": ["slow"]],
            ["id": 2, "status": "passed", "tags": ["slow"]],
            ["id": 3, "status": "failed", "tags": []],
            ["id": 4, "status": "failed", "tags": ["flaky", "slow"]],
        ]]
        // The document as httpbin echoes it.
        let manager = SessionManager(pipeline: try Pipeline { Serialization(format: .json); ResponseDecoding() })
        let echo = try await manager.send(Request(method: .post, url: servers.httpbin("post"), parameters: items))
        let document = try #require(echo.decoded?.value?["json"])
        let values = try Self.playground {
            let query = try JSONPath("$.items[?@.status == 'failed' && length(@.tags) > 0].id")
            try query.select(in: document)   // the nodes, in document order
        }
        #expect(values.first as? [JSONValue] == [1, 4])
    }

    @Test("ReachabilityCheck: a pipeline that waits for a route, and sends")
    func reachabilityCheck() async throws {
        let servers = try TestServers.load()
        let pipeline = try Pipeline(stages: [ReachabilityCheck(waitsForConnectivity: true), ResponseDecoding()])
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: servers.httpbin("get")))
        #expect(response.decoded?.value?["url"]?.stringValue == servers.httpbin("get").absoluteString)
    }

    @Test("ReachabilityMonitor: a host's updates, until the task is cancelled")
    func reachabilityMonitor() async throws {
        let printed = Locked<[String]>([])
        let host = "127.0.0.1"
        let watching = Task {
            // `print` as the example calls it, which also keeps what it printed.
            func print(_ update: ReachabilityUpdate) {
                Swift.print(update)
                printed.withLock { $0.append("\(update)") }
            }
            let monitor = ReachabilityMonitor(host: host)   // a name or an address, such as "api.example.com"
            try monitor.start()
            for await update in monitor.updates() {
                print(update)             // unknown, then reachable via wireless (wlan0), not reachable, ...
            }
            return monitor.status
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while printed.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        watching.cancel()
        let status = try await watching.value
        #expect(!printed.withLock { $0 }.isEmpty, "the monitor reported nothing")
        if case .reachable = status {} else { Issue.record("127.0.0.1 is \(status)") }
    }
}

// MARK: SluiceStageRegistry

extension DocCommentExampleTests {
    /// The stage of the stage module example.
    struct Stamp: RequestStage {
        func prepare(_ request: Request, context: TaskContext) async throws -> Request {
            var request = request
            request.headers["X-Stamp"] = "module"
            return request
        }
    }

    public enum StampModule: StageModule {
        public static var stages: [StageDescriptor] {
            [StageDescriptor(name: "stamp", summary: "Adds an X-Stamp header.") { _ in Stamp() }]
        }
    }

    /// A pipeline file that lists the `stamp` stage and expects `value` in httpbin's echo.
    static func stampFile(_ registry: StageRegistry, options: String, value: String) throws -> PipelineFile {
        let base = try TestServers.load().httpbin.absoluteString
        return try PipelineFile.load(
            text: "stages:\n  - stamp: \(options)\nrequests:\n  - path: \(base)/headers\n    expect: { body: { \"$.headers['X-Stamp']\": \(value) } }\n",
            path: "stamp.yaml", registry: registry
        )
    }

    @Test("StageDescriptor: a stage with a required option, registered and named in a pipeline file")
    func stageDescriptor() async throws {
        var registry = StageRegistry.builtIn
        struct Stamp: RequestStage {
            let value: String
            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                var request = request
                request.headers["X-Stamp"] = value
                return request
            }
        }
        try registry.register(StageDescriptor(
            name: "stamp",
            summary: "Adds an X-Stamp header.",
            options: [OptionDescriptor("value", .string, required: true, summary: "The header's value.")]
        ) { options in
            Stamp(value: options.string("value")!)
        })
        let results = try await PipelineRunner(file: Self.stampFile(registry, options: "{ value: s1 }", value: "s1"), transport: CurlTransport.shared).run()
        #expect(results.map(\.ok) == [true], "\(results.map(\.failures)) \(results.map(\.error))")
        #expect(throws: PipelineFileError.self) { try Self.stampFile(registry, options: "{}", value: "s1") }
    }

    @Test("StageModule: a module's stages registered beside the built-in ones")
    func stageModule() async throws {
        var registry = StageRegistry.builtIn
        try registry.register(StampModule.self)
        #expect(registry["stamp"] != nil && registry["url-resolution"] != nil)
        let results = try await PipelineRunner(file: Self.stampFile(registry, options: "{}", value: "module"), transport: CurlTransport.shared).run()
        #expect(results.map(\.ok) == [true], "\(results.map(\.failures)) \(results.map(\.error))")
    }

    @Test("StageModuleRegistrar: its fragment is the example stage module's entry points, which StageModuleRunTests builds and loads")
    func stageModuleRegistrarFragment() throws {
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/SluiceStageRegistry/StageModuleRegistrar.swift"), encoding: .utf8
        )
        let fragment = try #require(DocumentationExampleTests.docCommentBlocks(in: source, file: "StageModuleRegistrar.swift").first)
        #expect(fragment.isFragment)
        let entryPoints = try String(
            contentsOf: Self.root.appendingPathComponent("Plugins/ExampleRequestID/EntryPoints.swift"), encoding: .utf8
        )
        // Its code, comments aside, imports included.
        func code(_ text: String) -> String {
            text.components(separatedBy: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        #expect(code(fragment.code) == code(entryPoints))
    }
}

// MARK: SluiceCore: connection overrides

extension DocCommentExampleTests {
    @Test("ConnectionOverrides: a host name and port connected to an address instead, as curl's --resolve")
    func connectionOverrides() throws {
        var overrides = ConnectionOverrides()
        overrides.resolve = [try ConnectionOverrides.Resolve(curlSyntax: "api.example.test:443:127.0.0.1")]
        #expect(overrides.resolve.map(\.host) == ["api.example.test"])
        #expect(overrides.resolve.map(\.port) == [443] && overrides.resolve.map(\.address) == ["127.0.0.1"])
    }

    @Test("ConnectionRouting: a stage that sends every request over a Unix socket")
    func connectionRouting() async throws {
        let routing = ConnectionRouting(ConnectionOverrides(unixSocketPath: "/var/run/docker.sock"))
        // Nothing is sent: a transport in memory answers with the socket the request carries.
        let echo = InMemoryTransport { request in
            Response(status: 200, body: Data((request.connectionOverrides?.unixSocketPath ?? "none").utf8), url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [routing], transport: echo))
        let response = try await manager.send(Request(url: URL(string: "http://localhost/v1.43/info")!))
        #expect(String(decoding: response.body, as: UTF8.self) == "/var/run/docker.sock")
    }

    @Test("StrictTransportSecurity: a stage over a store read from an HSTS file")
    func strictTransportSecurity() async throws {
        let directory = try TemporaryDirectory()
        let hstsFile = directory.file("hsts.txt")
        try "known.test \"unlimited\"\n".write(to: hstsFile, atomically: true, encoding: .utf8)
        let hsts = StrictTransportSecurity(store: try HSTSStore(file: hstsFile))
        // Nothing is sent: a transport in memory answers with the URL it was asked for.
        let echo = InMemoryTransport { request in Response(status: 200, body: Data(request.url.absoluteString.utf8), url: request.url) }
        let manager = SessionManager(pipeline: try Pipeline(stages: [hsts], transport: echo))
        let response = try await manager.send(Request("http://known.test/a"))
        #expect(String(decoding: response.body, as: UTF8.self) == "https://known.test/a")
    }
    @Test("AuthenticationChallenge, HTTPCredential, ProtectionSpace, HTTPCredentialStore: the challenge grammar and where credentials go")
    func authenticationValues() {
        let challenges = AuthenticationChallenge.parse(#"Digest realm="api", nonce="abc", Basic realm="api""#)
        // challenges.map(\.scheme) == ["Digest", "Basic"]
        #expect(challenges.map(\.scheme) == ["Digest", "Basic"])
        let credential = HTTPCredential(username: "alice", password: "wonder land 7", schemes: .digest)
        #expect(!"\(credential)".contains("wonder"))
        let space = ProtectionSpace(scheme: "https", host: "api.example.test", port: 443, realm: "api")
        let store = HTTPCredentialStore([
            .init(host: "api.example.test", credential: HTTPCredential(username: "alice", password: "wonder land 7")),
        ])
        #expect(store.credential(for: space)?.username == "alice")
    }

    @Test("HTTPCredentialProvider and HTTPAuthentication: a provider of one's own, and the stage over credentials by host, against Apache's Digest")
    func httpAuthentication() async throws {
        struct Vault: HTTPCredentialProvider {
            func credential(for space: ProtectionSpace) async throws -> HTTPCredential? {
                space.host == "api.example.test" ? HTTPCredential(username: "alice", password: "wonder land 7") : nil
            }
        }
        #expect(try await Vault().credential(for: ProtectionSpace(scheme: "https", host: "api.example.test", port: 443))?.username == "alice")
        let pipeline = try Pipeline {
            HTTPAuthentication(credentials: [
                .init(host: "api.example.test", credential: HTTPCredential(username: "alice", password: "wonder land 7", schemes: .digest)),
            ])
        }
        // The same stage against a real Digest server: Apache's mod_auth_digest, reached as api.example.test.
        let servers = try TestServers.load()
        var request = Request(url: URL(string: "http://api.example.test:\(servers.apacheDigest.port!)/digest/secret.txt")!)
        request.connectionOverrides = ConnectionOverrides(resolve: [try .init(curlSyntax: "api.example.test:\(servers.apacheDigest.port!):127.0.0.1")])
        let response = try await SessionManager(pipeline: pipeline).send(request)
        #expect(response.status == 200)
    }
    @Test("DownloadResumeData: a rate-limited download cut by its timeout goes on from its resume data, against nginx")
    func downloadResumeData() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = directory.file("medium.bin")
        let manager = SessionManager(pipeline: try Pipeline())
        // 3 MiB at 1 MiB/s: the first second of it, then the timeout; the resumed request has neither.
        var request = Request(url: servers.nginx("medium.bin"))
        request.maxTransferRate = 1 << 20
        request.timeouts.total = .seconds(1)
        do {
            _ = try await manager.download(request, to: file, resumable: true)
        } catch let error as SluiceError {
            guard let resumeData = error.resumeData else { throw error }
            _ = try await manager.download(resumingFrom: resumeData)
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: servers.wwwRoot).appendingPathComponent("medium.bin"))
        #expect(try Data(contentsOf: file) == original)
    }
    @Test("NetrcFile and Request.maxTransferRate: a .netrc entry with a quoted password, and a rate limit")
    func netrcAndRate() throws {
        let netrc = try NetrcFile(text: "machine api.example.test login alice password \"wonder land 7\"")
        let credential = netrc.credential(for: "api.example.test")
        #expect(credential?.password == "wonder land 7")
        var request = Request("https://example.test/big.iso")
        request.maxTransferRate = 512 * 1024
        #expect(request.maxTransferRate == 524_288)
    }
    @Test("Request.askedHTTPVersion, ownCredentials, keepsRawBody, sendsPathAsIs and NetrcCredentialProvider, as their doc comments write them")
    func versionAndOwnCredentials() async throws {
        do {
            var request = Request("https://example.test/legacy")
            request.askedHTTPVersion = .http1_0
            #expect(request.askedHTTPVersion == .http1_0)
        }
        do {
            var request = Request("https://example.test/private")
            request.ownCredentials = HTTPCredential(username: "ada", password: "s3cret", schemes: .digest)
            let own = try await request.ownCredentials?.credential(for: ProtectionSpace(scheme: "https", host: "any.test", port: 443))
            #expect(own?.username == "ada")
        }
        do {
            var request = Request("https://example.test/archive.json")
            request.keepsRawBody = true
            #expect(request.keepsRawBody)
        }
        do {
            var request = Request("http://example.test/static/../etc/passwd")
            request.sendsPathAsIs = true   // request.url is http://example.test/static/../etc/passwd
            #expect(request.sendsPathAsIs)
            #expect(request.url.absoluteString == "http://example.test/static/../etc/passwd")
        }
        let netrc = try NetrcFile(text: "machine api.example.test login ada password s3cret\n")
        let provider = NetrcCredentialProvider(file: netrc, schemes: .basic)
        #expect(provider.credential(for: ProtectionSpace(scheme: "https", host: "api.example.test", port: 443))?.username == "ada")
        #expect(provider.credential(for: ProtectionSpace(scheme: "https", host: "other.test", port: 443)) == nil)
    }
}
