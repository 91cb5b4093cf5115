import Foundation
import Testing

@testable import SluiceCore

/// The cache's decisions (``CacheDecision``) as functions of a clock: each rule of RFC 9111 and
/// RFC 5861 judged at the instants either side of its boundary, with no store, no network and no
/// wait; then the stage itself run on a clock the test moves.
@Suite("The cache's decisions, tested with a clock")
struct CacheDecisionTests {
    /// When the stored response arrived; every instant below is counted from it.
    let received = Date(timeIntervalSince1970: 1_700_000_000)

    private func stored(_ fields: [(String, String)], status: Int = 200) -> CachedResponse.Head {
        CachedResponse.Head(
            key: "http://example.com/", status: status, headers: HTTPHeaders([("Date", HTTPDate.format(received))] + fields),
            url: "http://example.com/", httpVersion: .http1_1, requestTime: received, responseTime: received, vary: nil
        )
    }

    private func at(_ seconds: Double) -> Date {
        received.addingTimeInterval(seconds)
    }

    private func decide(_ head: CachedResponse.Head?, request: [(String, String)] = [], at seconds: Double, revalidating: Bool = false) -> CacheDecision {
        CacheDecision.decide(
            directives: CacheDecision.requestDirectives(HTTPHeaders(request)), stored: head, now: at(seconds), revalidating: revalidating
        )
    }

    private func isServed(_ decision: CacheDecision) -> Bool {
        if case .serve = decision { true } else { false }
    }

    @Test("nothing stored: sent without conditions, or a 504 for only-if-cached")
    func nothingStored() {
        #expect(decide(nil, at: 0) == .send(conditions: [:]))
        #expect(decide(nil, request: [("Cache-Control", "only-if-cached")], at: 0) == .unsatisfiable)
    }

    @Test("max-age=60: served until its age reaches 60 s, then validated with the stored ETag and Last-Modified")
    func maxAge() {
        let head = stored([("Cache-Control", "max-age=60"), ("ETag", "\"v1\""), ("Last-Modified", HTTPDate.format(at(-3600)))])
        #expect(decide(head, at: 0) == .serve(Freshness(head, now: at(0))))
        #expect(decide(head, at: 59) == .serve(Freshness(head, now: at(59))))
        #expect(decide(head, at: 60) == .send(conditions: HTTPHeaders([("If-None-Match", "\"v1\""), ("If-Modified-Since", HTTPDate.format(at(-3600)))])))
        #expect(decide(head, request: [("Cache-Control", "only-if-cached")], at: 61) == .unsatisfiable)
    }

    @Test("the response's Age and the request's delay count toward its age (RFC 9111 4.2.3)")
    func age() {
        let head = stored([("Cache-Control", "max-age=60"), ("Age", "50")])
        #expect(isServed(decide(head, at: 9)))
        #expect(!isServed(decide(head, at: 10)))
    }

    @Test("the request's max-age, min-fresh and max-stale, and must-revalidate over max-stale")
    func requestDirectives() {
        let head = stored([("Cache-Control", "max-age=60")])
        #expect(isServed(decide(head, request: [("Cache-Control", "max-age=30")], at: 30)))
        #expect(!isServed(decide(head, request: [("Cache-Control", "max-age=30")], at: 31)))
        #expect(isServed(decide(head, request: [("Cache-Control", "min-fresh=20")], at: 40)))
        #expect(!isServed(decide(head, request: [("Cache-Control", "min-fresh=20")], at: 41)))
        #expect(isServed(decide(head, request: [("Cache-Control", "max-stale=5")], at: 65)))
        #expect(!isServed(decide(head, request: [("Cache-Control", "max-stale=5")], at: 66)))
        #expect(isServed(decide(head, request: [("Cache-Control", "max-stale")], at: 100_000)))
        let strict = stored([("Cache-Control", "max-age=60, must-revalidate")])
        #expect(!isServed(decide(strict, request: [("Cache-Control", "max-stale")], at: 61)))
    }

    @Test("no-cache on either side validates even a fresh response; Pragma: no-cache only without Cache-Control")
    func noCache() {
        let head = stored([("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")])
        #expect(decide(head, request: [("Cache-Control", "no-cache")], at: 0) == .send(conditions: HTTPHeaders([("If-None-Match", "\"v1\"")])))
        #expect(!isServed(decide(head, request: [("Pragma", "no-cache")], at: 0)))
        #expect(isServed(decide(head, request: [("Pragma", "no-cache"), ("Cache-Control", "max-stale=1")], at: 0)))
        #expect(!isServed(decide(stored([("Cache-Control", "max-age=60, no-cache")]), at: 0)))
    }

    @Test("immutable (RFC 8246): a reload's max-age=0 does not validate it while fresh; no-cache does")
    func immutable() {
        let head = stored([("Cache-Control", "max-age=60, immutable")])
        #expect(isServed(decide(head, request: [("Cache-Control", "max-age=0")], at: 30)))
        #expect(!isServed(decide(head, request: [("Cache-Control", "max-age=0")], at: 61)))
        #expect(!isServed(decide(head, request: [("Cache-Control", "no-cache")], at: 30)))
    }

    @Test("the heuristic: 10% of the time since Last-Modified, for a status that allows it")
    func heuristic() {
        let head = stored([("Last-Modified", HTTPDate.format(at(-1000)))])
        guard case .serve(let freshness) = decide(head, at: 99) else {
            Issue.record("not served within the heuristic lifetime")
            return
        }
        #expect(freshness.isHeuristic && freshness.lifetime == 100)
        #expect(!isServed(decide(head, at: 100)))
        #expect(!isServed(decide(stored([("Last-Modified", HTTPDate.format(at(-1000)))], status: 201), at: 0)), "201 allows no heuristic")
    }

    @Test("stale-while-revalidate (RFC 5861): served stale within its window and revalidated, never for the revalidation itself")
    func staleWhileRevalidate() {
        let head = stored([("Cache-Control", "max-age=60, stale-while-revalidate=30")])
        #expect(decide(head, at: 70) == .serveStaleWhileRevalidating(Freshness(head, now: at(70))))
        #expect(decide(head, at: 90) == .serveStaleWhileRevalidating(Freshness(head, now: at(90))))
        #expect(decide(head, at: 91) == .send(conditions: [:]))
        #expect(decide(head, at: 70, revalidating: true) == .send(conditions: [:]))
        #expect(decide(head, request: [("Cache-Control", "max-age=100")], at: 70) == .send(conditions: [:]), "a request's max-age turns the window off")
        #expect(decide(head, request: [("Cache-Control", "max-stale=10")], at: 70) == .serve(Freshness(head, now: at(70))), "its max-stale serves it stale outright")
        #expect(decide(head, request: [("Cache-Control", "no-cache")], at: 70) == .send(conditions: [:]))
        #expect(decide(stored([("Cache-Control", "max-age=60, stale-while-revalidate=30, must-revalidate")]), at: 70) == .send(conditions: [:]))
    }

    @Test("stale-if-error (RFC 5861): the stage's allowance, or the response's own when longer; never for must-revalidate, no-cache or no-store")
    func staleIfError() {
        let head = stored([("Cache-Control", "max-age=60")])
        #expect(CacheDecision.staleOnError(head, allowance: nil, now: at(61)) == nil)
        #expect(CacheDecision.staleOnError(head, allowance: .seconds(10), now: at(70)) != nil)
        #expect(CacheDecision.staleOnError(head, allowance: .seconds(10), now: at(71)) == nil)
        let own = stored([("Cache-Control", "max-age=60, stale-if-error=30")])
        #expect(CacheDecision.staleOnError(own, allowance: .zero, now: at(90)) != nil)
        #expect(CacheDecision.staleOnError(own, allowance: .zero, now: at(91)) == nil)
        for directive in ["must-revalidate", "no-cache", "no-store"] {
            let forbidden = stored([("Cache-Control", "max-age=60, \(directive)")])
            #expect(CacheDecision.staleOnError(forbidden, allowance: .seconds(3600), now: at(61)) == nil, "\(directive)")
        }
    }

    // MARK: The stage on a clock

    /// A clock the test moves.
    final class TestClock: Sendable {
        private let instant: Locked<Date>

        init(_ start: Date) {
            instant = Locked(start)
        }

        var now: Date { instant.withLock { $0 } }

        func advance(by seconds: Double) {
            instant.withLock { $0 = $0.addingTimeInterval(seconds) }
        }
    }

    @Test("the stage on a clock: stored, served while fresh, validated once stale, the 304 merged, with no wait")
    func stageOnAClock() async throws {
        let clock = TestClock(received)
        let sent = Locked<[String]>([])
        let transport = InMemoryTransport { request in
            let condition = request.headers["If-None-Match"]
            sent.withLock { $0.append(condition ?? "-") }
            let date = HTTPDate.format(clock.now)
            if condition == "\"v1\"" {
                return Response(status: 304, headers: HTTPHeaders([("Date", date), ("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]), url: request.url)
            }
            return Response(status: 200, headers: HTTPHeaders([("Date", date), ("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]), body: Data("body".utf8), url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [ResponseCaching(now: { clock.now })], transport: transport))
        let url = URL(string: "http://example.com/resource")!
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)
        clock.advance(by: 59)
        let hit = try await manager.send(Request(url: url))
        #expect(hit.cacheOutcome == .hit && hit.headers["Age"] == "59")
        clock.advance(by: 1)
        let revalidated = try await manager.send(Request(url: url))
        #expect(revalidated.cacheOutcome == .revalidated && String(decoding: revalidated.body, as: UTF8.self) == "body")
        clock.advance(by: 30)
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .hit, "fresh again from the 304's time")
        #expect(sent.withLock { $0 } == ["-", "\"v1\""])
    }
}
