import Foundation
@testable import SluiceCore
import Testing

/// The example of `StagePlacement`'s documentation and of the DocC article "The chain", as written.
struct WireLog: Stage {
    static var placement: StagePlacement { .hop }
    func handle(_ request: Request, context: TaskContext,
                next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        try await next(request, context)
    }
}

/// A call stage's place above the custom ones, below URL resolution.
private enum EarlyCall: TestPlacement {
    static var placement: StagePlacement { StagePlacement(.call, rank: 150) }
}

/// A hop stage's place below the exchange observers.
private enum LateHop: TestPlacement {
    static var placement: StagePlacement { StagePlacement(.hop, rank: 950) }
}

/// A stage that claims something, for the refusals.
private struct Claiming: RequestStage {
    let name: String
    let claims: [String]
    func prepare(_ request: Request, context: TaskContext) async throws -> Request { request }
}

@Suite("stage placement: levels, ranks, claims")
struct StagePlacementTests {
    /// A transport that redirects /1 to /2 to /3 and answers 200 there.
    private func redirecting(_ recorder: RequestRecorder) -> InMemoryTransport {
        recorder.transport { request in
            switch request.url.path {
            case "/1": Response(status: 302, headers: ["Location": "/2"], url: request.url)
            case "/2": Response(status: 302, headers: ["Location": "/3"], url: request.url)
            default: Response(status: 200, url: request.url)
            }
        }
    }

    @Test("the documented hop stage sees each of three exchanges; a custom call stage sees the call once")
    func documentedExample() async throws {
        let recorder = RequestRecorder()
        let log = Log()
        let pipeline = try Pipeline(stages: [WireLog(), Tracer(name: "hop", log: log, at: AtHop.self), Tracer(name: "call", log: log)], transport: redirecting(recorder))
        #expect(pipeline.stageNames == ["call", "redirects", "WireLog", "hop"])
        #expect(pipeline.stages.map(\.placement) == [.call, .redirects, .hop, .hop])
        _ = try await SessionManager(pipeline: pipeline).send(Request(url: URL(string: "http://a.test/1")!))
        #expect(log.all == ["call", "hop", "hop'", "hop", "hop'", "hop", "hop'", "call'"])
        #expect(recorder.all.count == 3)
    }

    @Test("stages of one placement keep the order given; ranks order the rest, whatever the order given")
    func stableOrder() throws {
        let log = Log()
        let first = Tracer(name: "first", log: log)
        let second = Tracer(name: "second", log: log)
        let early = Tracer(name: "early", log: log, at: EarlyCall.self)
        let late = Tracer(name: "late", log: log, at: LateHop.self)
        let built: [any Stage] = [ResponseCaching(), second, late, CookieHandling(), first, early, ResponseDecoding(), try URLResolution(baseURL: URL(string: "http://a.test/")!)]
        #expect(try Pipeline(stages: built, transport: echoTransport()).stageNames == ["url-resolution", "early", "response-decoding", "second", "first", "redirects", "cookies", "cache", "late"])
        #expect(try Pipeline(stages: built.reversed(), transport: echoTransport()).stageNames == ["url-resolution", "early", "response-decoding", "first", "second", "redirects", "cookies", "cache", "late"])
    }

    @Test("two stages that claim one thing are refused naming both, a custom stage against a built-in one too")
    func claims() {
        let error = #expect(throws: SluiceError.self) {
            try Pipeline(stages: [HeaderInjection(authorization: .bearer("t")), Claiming(name: "signer", claims: ["the Authorization header"])], transport: echoTransport())
        }
        #expect(error?.kind == .configuration && error?.stage == "signer")
        #expect(error?.message == "'header-injection' and 'signer' cannot work together (stages 1 and 2 as listed): both claim the Authorization header, and the lower would undo or hide what the upper did; keep one")
        #expect(throws: Never.self) { try Pipeline(stages: [HeaderInjection(headers: ["Accept": "a/b"]), Claiming(name: "signer", claims: ["the Authorization header"])], transport: echoTransport()) }
        #expect(throws: SluiceError.self) { try Pipeline(stages: [HeaderInjection(headers: ["Authorization": "Bearer x"]), Claiming(name: "signer", claims: ["the Authorization header"])], transport: echoTransport()) }
        #expect(throws: SluiceError.self) { try Pipeline(stages: [ProxySelection(route: .direct), ProxySelection(route: .direct)], transport: echoTransport()) }
        #expect(throws: SluiceError.self) { try Pipeline(stages: [Serialization(), Serialization(format: .json)], transport: echoTransport()) }
        #expect(throws: SluiceError.self) { try Pipeline(stages: [ResponseDecoding(), ResponseDecoding(format: .string)], transport: echoTransport()) }
        #expect(throws: Never.self) { try Pipeline(stages: [HeaderInjection(headers: ["A": "1"]), HeaderInjection(headers: ["B": "2"])], transport: echoTransport()) }
    }

    @Test("a redirect stage listed is the only one, even when it follows nothing; redirects: nil adds none; two listed are refused")
    func redirectsOnce() throws {
        #expect(try Pipeline(stages: [Redirection(follows: false)], transport: echoTransport(), redirects: Redirection()).stageNames == ["redirects"])
        #expect(throws: SluiceError.self) { try Pipeline(stages: [Redirection(follows: false), Redirection()], transport: echoTransport()) }
        #expect(try Pipeline(stages: [CookieHandling()], transport: echoTransport(), redirects: nil).stageNames == ["cookies"])
    }
}
