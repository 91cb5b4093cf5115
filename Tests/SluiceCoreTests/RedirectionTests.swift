import Foundation
import Testing
@testable import SluiceCore

@Suite("redirects")
struct RedirectionTests {
    /// A transport that answers each URL path from a table of `(status, Location)`, 200 otherwise.
    private func chain(_ table: [String: (Int, String)]) throws -> (RequestRecorder, Pipeline) {
        let recorder = RequestRecorder()
        let transport = recorder.transport { request in
            let key = request.url.absoluteString
            guard let (status, location) = table[key] else { return Response(status: 200, url: request.url) }
            return Response(status: status, headers: ["Location": location], url: request.url)
        }
        return (recorder, try Pipeline(transport: transport))
    }

    static let methodRules: [(Int, HTTPMethod, HTTPMethod, Bool)] = [
        (301, .post, .get, false), (302, .post, .get, false), (303, .post, .get, false), (303, .put, .get, false),
        (303, .head, .head, false), (301, .put, .put, true), (302, .delete, .delete, false), (307, .post, .post, true),
        (308, .put, .put, true), (301, .get, .get, false),
    ]

    @Test("303, and 301/302 for POST, become GET without body; 307 and 308 keep method and body", arguments: methodRules)
    func methods(status: Int, method: HTTPMethod, expected: HTTPMethod, keepsBody: Bool) async throws {
        let (recorder, pipeline) = try chain(["http://a.test/start": (status, "/next")])
        let body: RequestBody = method == .head || method == .get || method == .delete ? .none : .data(Data("payload".utf8))
        let request = Request(method: method, url: URL(string: "http://a.test/start")!, headers: ["Content-Type": "text/plain"], body: body)
        let response = try await SessionManager(pipeline: pipeline).send(request)
        #expect(response.status == 200)
        let hop = try #require(recorder.all.last)
        #expect(recorder.all.count == 2)
        #expect(hop.url.absoluteString == "http://a.test/next")
        #expect(hop.method == expected)
        if keepsBody {
            #expect(hop.body == body)
            #expect(hop.headers["Content-Type"] == "text/plain")
        } else if hop.method != method {
            #expect(hop.body == .none)
            #expect(hop.headers["Content-Type"] == nil)
        }
    }

    @Test("Location resolves against the current URL; the fragment carries over")
    func relativeLocations() async throws {
        let (recorder, pipeline) = try chain([
            "http://a.test/x/y#top": (302, "../z?q=1"),
            "http://a.test/z?q=1#top": (301, "//b.test/w"),
        ])
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: URL(string: "http://a.test/x/y#top")!))
        #expect(response.url?.absoluteString == "http://b.test/w#top")
        #expect(recorder.all.map(\.url.absoluteString) == ["http://a.test/x/y#top", "http://a.test/z?q=1#top", "http://b.test/w#top"])
    }

    @Test("credentials and cookies are dropped when scheme, host or port changes, kept on the same origin")
    func credentials() async throws {
        let headers: HTTPHeaders = ["Authorization": "Bearer t", "Cookie": "c=1", "Proxy-Authorization": "Basic x", "X-Other": "kept"]
        for (target, kept) in [("http://a.test/same", true), ("http://b.test/", false), ("http://a.test:8080/", false),
                               ("https://a.test/", false), ("http://A.TEST:80/case", true)] {
            let (recorder, pipeline) = try chain(["http://a.test/start": (302, target)])
            _ = try await SessionManager(pipeline: pipeline).send(Request(url: URL(string: "http://a.test/start")!, headers: headers))
            let hop = try #require(recorder.all.last)
            #expect(hop.headers["Authorization"] == (kept ? "Bearer t" : nil), "\(target)")
            #expect(hop.headers["Cookie"] == (kept ? "c=1" : nil), "\(target)")
            #expect(hop.headers["Proxy-Authorization"] == (kept ? "Basic x" : nil), "\(target)")
            #expect(hop.headers["X-Other"] == "kept")
        }
    }

    @Test("https to http is refused unless allowed; other schemes always")
    func downgrade() async throws {
        let (recorder, pipeline) = try chain(["https://a.test/": (302, "http://a.test/plain")])
        let error = await #expect(throws: SluiceError.self) { try await SessionManager(pipeline: pipeline).send(Request(url: URL(string: "https://a.test/")!)) }
        #expect(error?.kind == .insecureRedirect)
        #expect(error?.stage == "redirects")
        #expect(error?.response?.status == 302)
        #expect(recorder.all.count == 1)
        let allowing = try Pipeline(transport: pipeline.transport, redirects: Redirection(allowsInsecureRedirects: true))
        #expect(try await SessionManager(pipeline: allowing).send(Request(url: URL(string: "https://a.test/")!)).url?.absoluteString == "http://a.test/plain")
        let (_, ftp) = try chain(["http://a.test/": (302, "ftp://a.test/file")])
        #expect(await #expect(throws: SluiceError.self) { try await SessionManager(pipeline: ftp).send(Request(url: URL(string: "http://a.test/")!)) }?.kind == .insecureRedirect)
    }

    @Test("more than the hop limit is tooManyRedirects; a loop is found at once")
    func limits() async throws {
        var table: [String: (Int, String)] = [:]
        for index in 0..<12 { table["http://a.test/\(index)"] = (302, "/\(index + 1)") }
        let (recorder, pipeline) = try chain(table)
        let error = await #expect(throws: SluiceError.self) { try await SessionManager(pipeline: pipeline).send(Request(url: URL(string: "http://a.test/0")!)) }
        #expect(error?.kind == .tooManyRedirects)
        #expect(recorder.all.count == 11, "the request and ten hops")
        let three = try Pipeline(transport: pipeline.transport, redirects: Redirection(maximumHops: 3))
        #expect(try await SessionManager(pipeline: try Pipeline(transport: pipeline.transport, redirects: Redirection(maximumHops: 12)))
            .send(Request(url: URL(string: "http://a.test/0")!)).url?.absoluteString == "http://a.test/12")
        #expect(await #expect(throws: SluiceError.self) { try await SessionManager(pipeline: three).send(Request(url: URL(string: "http://a.test/0")!)) }?.kind == .tooManyRedirects)

        let (loopRecorder, loop) = try chain(["http://a.test/a": (302, "/b"), "http://a.test/b": (307, "/a")])
        let loopError = await #expect(throws: SluiceError.self) { try await SessionManager(pipeline: loop).send(Request(url: URL(string: "http://a.test/a")!)) }
        #expect(loopError?.kind == .redirectLoop)
        #expect(loopRecorder.all.count == 2)
    }

    @Test("a 3xx without Location, or 304, is returned as it is; no redirect stage follows nothing")
    func notRedirects() async throws {
        let recorder = RequestRecorder()
        let transport = recorder.transport { Response(status: $0.url.path == "/304" ? 304 : 302, url: $0.url) }
        #expect(try await SessionManager(pipeline: try Pipeline(transport: transport)).send(Request(url: URL(string: "http://a.test/")!)).status == 302)
        let (_, pipeline) = try chain(["http://a.test/": (302, "/next")])
        let off = try Pipeline(transport: pipeline.transport, redirects: nil)
        #expect(try await SessionManager(pipeline: off).send(Request(url: URL(string: "http://a.test/")!)).status == 302)
    }

    @Test("a hop stage sees every hop and a call stage the call once, in whatever order they are listed")
    func placement() async throws {
        let (_, pipeline) = try chain(["http://a.test/1": (302, "/2"), "http://a.test/2": (302, "/3")])
        for listed in [true, false] {
            let log = Log()
            let hop = Tracer(name: "hop", log: log, at: AtHop.self)
            let call = Tracer(name: "call", log: log)
            let stages: [any Stage] = listed ? [hop, Redirection(), call] : [call, Redirection(), hop]
            let placed = try Pipeline(stages: stages, transport: pipeline.transport)
            #expect(placed.stageNames == ["call", "redirects", "hop"])
            _ = try await SessionManager(pipeline: placed).send(Request(url: URL(string: "http://a.test/1")!))
            #expect(log.all == ["call", "hop", "hop'", "hop", "hop'", "hop", "hop'", "call'"])
        }
    }

    @Test("follows: false returns redirect responses as they are, and the pipeline adds no other redirect stage")
    func notFollowing() async throws {
        let recorder = RequestRecorder()
        let transport = recorder.transport { Response(status: 302, headers: ["Location": "/next"], url: $0.url) }
        let pipeline = try Pipeline(stages: [Redirection(follows: false)], transport: transport)
        #expect(pipeline.stageNames == ["redirects"])
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: URL(string: "http://a.test/start")!))
        #expect(response.status == 302)
        #expect(recorder.all.count == 1)
    }

    @Test("a request's own rules replace the stage's for it alone: follow none, fewer hops, credentials to every origin")
    func requestsOwnRules() async throws {
        let (recorder, pipeline) = try chain([
            "http://a.test/1": (302, "http://b.test/2"), "http://b.test/2": (302, "http://c.test/3"),
        ])
        let manager = SessionManager(pipeline: pipeline)
        let headers: HTTPHeaders = ["Authorization": "Bearer t", "Cookie": "c=1", "Proxy-Authorization": "Basic x", "Host": "a.test"]
        func send(_ rules: Redirection?) async throws -> Response {
            var request = Request(url: URL(string: "http://a.test/1")!, headers: headers)
            request.redirection = rules
            return try await manager.send(request)
        }
        #expect(try await send(Redirection(follows: false)).status == 302)
        #expect(recorder.all.count == 1)
        #expect(await #expect(throws: SluiceError.self) { try await send(Redirection(maximumHops: 1)) }?.kind == .tooManyRedirects)
        let before = recorder.all.count
        #expect(try await send(Redirection(trustsOtherOrigins: true)).url?.absoluteString == "http://c.test/3")
        let last = try #require(recorder.all.last)
        #expect(recorder.all.count == before + 3)
        #expect(last.headers["Authorization"] == "Bearer t" && last.headers["Cookie"] == "c=1")
        #expect(last.headers["Proxy-Authorization"] == nil && last.headers["Host"] == nil, "a proxy's credentials and Host stay with the first origin")
        // Trusted, and back to the first origin: everything the first request wrote is there again.
        let (backRecorder, back) = try chain(["http://a.test/1": (302, "http://b.test/2"), "http://b.test/2": (302, "http://a.test/3")])
        var trusted = Request(url: URL(string: "http://a.test/1")!, headers: headers)
        trusted.redirection = Redirection(trustsOtherOrigins: true)
        _ = try await SessionManager(pipeline: back).send(trusted)
        #expect(backRecorder.all.map { $0.headers["Host"] } == ["a.test", nil, "a.test"])
        #expect(backRecorder.all.last?.headers["Proxy-Authorization"] == "Basic x")
        #expect(backRecorder.all.last.map { Array($0.headers.map(\.name)) } == Array(headers.map(\.name)), "in the order written")
        #expect(recorder.all.allSatisfy { $0.redirection == nil }, "the stage consumes the rules")
        #expect(try await send(nil).url?.absoluteString == "http://c.test/3")
        #expect(recorder.all.last?.headers["Authorization"] == nil, "the stage's own rules for the next request")
    }

    @Test("a request's own rules that follow redirects are refused by a pipeline with no redirect stage; ones that follow none pass")
    func requestsOwnRulesWithoutTheStage() async throws {
        let (_, pipeline) = try chain(["http://a.test/1": (302, "/2")])
        let manager = SessionManager(pipeline: try Pipeline(transport: pipeline.transport, redirects: nil))
        var request = Request(url: URL(string: "http://a.test/1")!)
        request.redirection = Redirection(maximumHops: 3)
        let error = await #expect(throws: SluiceError.self) { try await manager.send(request) }
        #expect(error?.kind == .invalidRequest && error?.message.contains("no Redirection stage") == true)
        request.redirection = Redirection(follows: false)
        #expect(try await manager.send(request).status == 302)
    }

    @Test("a request's own cookies go on every hop after the jar's, whatever the origin; with the jar off, only they go and nothing is stored")
    func ownCookies() async throws {
        let recorder = RequestRecorder()
        let transport = recorder.transport { request in
            switch request.url.host {
            case "a.test": Response(status: 302, headers: ["Location": "http://b.test/", "Set-Cookie": "jar=1"], url: request.url)
            case "b.test": Response(status: 302, headers: ["Location": "http://a.test/again", "Set-Cookie": "b=1"], url: request.url)
            default: Response(status: 200, url: request.url)
            }
        }
        let jar = CookieJar()
        let manager = SessionManager(pipeline: try Pipeline(stages: [CookieHandling(jar: jar)], transport: transport))
        var request = Request(url: URL(string: "http://a.test/")!)
        request.ownCookies = "own=1; two=2"
        // a.test/ → b.test/ → a.test/again → b.test/ → a.test/again: a loop. The first two
        // responses set cookies new to the chain, so the hops after them are new requests; the
        // loop is found at the fifth, once the same cookies come again.
        let loop = await #expect(throws: SluiceError.self) { try await manager.send(request) }
        #expect(loop?.kind == .redirectLoop)
        #expect(recorder.all.map { $0.headers["Cookie"] } == ["own=1; two=2", "own=1; two=2", "jar=1; own=1; two=2", "b=1; own=1; two=2"])
        #expect(recorder.all.allSatisfy { $0.ownCookies == nil })
        let stored = jar.cookieHeader(for: URL(string: "http://a.test/")!)
        request.usesCookieJar = false
        _ = try? await manager.send(request)
        #expect(recorder.all.suffix(3).allSatisfy { $0.headers["Cookie"] == "own=1; two=2" })
        #expect(jar.cookieHeader(for: URL(string: "http://a.test/")!) == stored)
        let bare = SessionManager(pipeline: try Pipeline(transport: transport, redirects: nil))
        let refused = await #expect(throws: SluiceError.self) { try await bare.send(request) }
        #expect(refused?.kind == .invalidRequest && refused?.message.contains("no CookieHandling stage") == true)
    }

    @Test("redirects run below serialization whatever the order; two redirect stages are refused, naming both")
    func placementBelowSerialization() throws {
        #expect(try Pipeline(stages: [Redirection(), Serialization()], transport: echoTransport()).stageNames == ["serialization", "redirects"])
        #expect(try Pipeline(stages: [Redirection(follows: false), Serialization()], transport: echoTransport()).stageNames == ["serialization", "redirects"])
        let error = #expect(throws: SluiceError.self) { try Pipeline(stages: [Redirection(), Serialization(), Redirection(follows: false)], transport: echoTransport()) }
        #expect(error?.kind == .configuration && error?.stage == "redirects")
        #expect(error?.message == "two 'redirects' stages cannot work together (stages 1 and 3 as listed): both claim following redirects, and the lower would undo or hide what the upper did; keep one")
    }
}
