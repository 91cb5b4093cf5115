import Foundation
import Testing

@testable import SluiceCore

/// The rules of the cache, without sockets: HTTP dates, `Cache-Control`, freshness and age, what
/// may be stored, and what a `304` may change.
@Suite("HTTP cache rules (RFC 9110 dates, RFC 9111)")
struct HTTPCacheRulesTests {
    // MARK: Dates

    @Test("RFC 9110 5.6.7's three example dates are one instant, names in any ASCII case (as browsers, curl and OkHttp read them); anything else is no date")
    func dates() {
        let instant = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == instant)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == instant)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == instant)
        for lenient in ["sun, 06 Nov 1994 08:49:37 GMT", "SUN, 06 NOV 1994 08:49:37 gmt", "SUNDAY, 06-nov-94 08:49:37 GMT", "sun nov  6 08:49:37 1994"] {
            #expect(HTTPDate.parse(lenient) == instant, "\(lenient)")
        }
        for invalid in [
            "0", "-1", "", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 G\u{212A}T",
            "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT ", "Sun, 06 Nov 1994 08:49:37 GMT\u{0}", "Sun, 06 N\u{F3}v 1994 08:49:37 GMT",
            "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 06 08:49:37 94",
        ] {
            #expect(HTTPDate.parse(invalid) == nil, "\(invalid.debugDescription)")
        }
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 23:59:59 GMT") == Date(timeIntervalSince1970: 951_868_799))
    }

    @Test("an RFC 850 year is the latest with its two digits not more than 50 years ahead")
    func twoDigitYears() {
        let now = Date(timeIntervalSince1970: 1_795_397_199)  // 2026
        #expect(HTTPDate.parse("Friday, 01-Jan-76 00:00:00 GMT", now: now) == HTTPDate.parse("Wed, 01 Jan 2076 00:00:00 GMT"))
        #expect(HTTPDate.parse("Saturday, 01-Jan-77 00:00:00 GMT", now: now) == HTTPDate.parse("Sat, 01 Jan 1977 00:00:00 GMT"))
    }

    /// Python's `email.utils.formatdate(t, usegmt=True)` for each instant (CPython 3.11).
    @Test("dates are written as IMF-fixdate, as Python's email.utils writes them", arguments: [
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"), (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"), (4_102_444_800, "Fri, 01 Jan 2100 00:00:00 GMT"),
        (1_795_397_199, "Mon, 23 Nov 2026 01:26:39 GMT"), (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
        // Found by the cache fuzz target: a year under 1000 keeps its four digits (instant and
        // weekday from Python's proleptic datetime).
        (-30_678_102_623, "Mon, 06 Nov 0997 08:49:37 GMT"),
    ])
    func format(seconds: Int, text: String) {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        #expect(HTTPDate.format(date) == text)
        #expect(HTTPDate.parse(text) == date)
    }

    // MARK: Cache-Control

    @Test("Cache-Control: names without case, quoted and token arguments, lists across lines, invalid and conflicting values")
    func cacheControl() {
        let control = CacheControl(["Cache-Control": "Max-Age=\"60\", no-cache=\"Set-Cookie, X-Secret\"", "cache-control": ",,PUBLIC,"])
        #expect(control.seconds("max-age") == .value(60))
        #expect(control.contains("public") && control.contains("no-cache"))
        #expect(control.directives.first { $0.name == "no-cache" }?.argument == "Set-Cookie, X-Secret")
        #expect(CacheControl("max-age=60, max-age=70").seconds("max-age") == .invalid)
        #expect(CacheControl("max-age=60, max-age=60").seconds("max-age") == .value(60))
        #expect(CacheControl("max-age=abc").seconds("max-age") == .invalid)
        #expect(CacheControl("max-age=-1").seconds("max-age") == .invalid)
        #expect(CacheControl("max-age=\"6\"0").seconds("max-age") == .invalid)
        #expect(CacheControl("max-age=99999999999999999999999").seconds("max-age") == .value(2_147_483_648))
        #expect(CacheControl("max-stale").seconds("max-stale") == .unbounded)
        #expect(CacheControl("max-age").seconds("max-age") == .unbounded)
        #expect(CacheControl("no-store").seconds("max-age") == .absent)
        // A full-width digit is not a DIGIT.
        #expect(CacheControl("max-age=\u{FF16}0").seconds("max-age") == .invalid)
    }

    // MARK: Freshness

    private let received = Date(timeIntervalSince1970: 1_800_000_000)

    private func head(_ fields: [(String, String)], status: Int = 200, requested: Double = 0) -> CachedResponse.Head {
        CachedResponse.Head(
            key: "http://example.com/", status: status, headers: HTTPHeaders(fields), url: "http://example.com/", httpVersion: .http1_1,
            requestTime: received.addingTimeInterval(-requested), responseTime: received, vary: nil
        )
    }

    private func date(_ offset: Double) -> String {
        HTTPDate.format(received.addingTimeInterval(offset))
    }

    @Test("lifetime: max-age before Expires; Expires minus Date; an invalid or doubled Expires is stale; the heuristic is 10%")
    func lifetime() {
        #expect(Freshness(head([("Cache-Control", "max-age=60"), ("Expires", date(3600)), ("Date", date(0))])).lifetime == 60)
        #expect(Freshness(head([("Expires", date(3600)), ("Date", date(-100))])).lifetime == 3700)
        #expect(Freshness(head([("Expires", "0"), ("Date", date(0))])).lifetime == 0)
        #expect(Freshness(head([("Expires", date(60)), ("Expires", date(120)), ("Date", date(0))])).lifetime == 0)
        #expect(Freshness(head([("Cache-Control", "max-age=oops"), ("Expires", date(3600))])).lifetime == 0)
        let heuristic = Freshness(head([("Date", date(0)), ("Last-Modified", date(-1000))]))
        #expect(heuristic.lifetime == 100 && heuristic.isHeuristic)
        // A 302 has no heuristic unless it is public.
        #expect(Freshness(head([("Date", date(0)), ("Last-Modified", date(-1000))], status: 302)).lifetime == 0)
        #expect(Freshness(head([("Cache-Control", "public"), ("Date", date(0)), ("Last-Modified", date(-1000))], status: 302)).lifetime == 100)
        // s-maxage is a shared cache's.
        #expect(Freshness(head([("Cache-Control", "s-maxage=600")])).lifetime == 0)
    }

    @Test("age (RFC 9111 4.2.3): the larger of the apparent age and Age plus the response delay, plus the time resident")
    func age() {
        let apparent = head([("Date", date(-10)), ("Age", "5")], requested: 2)
        #expect(Freshness(apparent, now: received.addingTimeInterval(3)).age == 13)
        let corrected = head([("Date", date(0)), ("Age", "30")], requested: 2)
        #expect(Freshness(corrected, now: received.addingTimeInterval(3)).age == 35)
        // A list-valued Age uses its first member; an invalid one is ignored.
        #expect(Freshness(head([("Date", date(0)), ("Age", "7, 100")]), now: received).age == 7)
        #expect(Freshness(head([("Date", date(0)), ("Age", "-7")]), now: received).age == 0)
        // A Date in the future makes no negative age.
        #expect(Freshness(head([("Date", date(500))]), now: received).age == 0)
        let fresh = Freshness(head([("Cache-Control", "max-age=60"), ("Date", date(0))]), now: received.addingTimeInterval(59))
        #expect(fresh.isFresh && fresh.staleness == 0)
        let stale = Freshness(head([("Cache-Control", "max-age=60"), ("Date", date(0))]), now: received.addingTimeInterval(90))
        #expect(!stale.isFresh && stale.staleness == 30)
    }

    // MARK: Storing

    private func storable(_ status: Int, _ fields: [(String, String)], method: HTTPMethod = .get, request: [(String, String)] = []) -> Bool {
        let request = Request(method: method, url: URL(string: "http://example.com/")!, headers: HTTPHeaders(request))
        return CacheRules.isStorable(Response(status: status, headers: HTTPHeaders(fields)), request: request, requestControl: CacheControl(request.headers))
    }

    @Test("what may be stored (RFC 9111 section 3)")
    func storability() {
        #expect(storable(200, []))
        #expect(storable(404, []))
        #expect(!storable(302, []))
        #expect(storable(302, [("Cache-Control", "max-age=60")]))
        #expect(storable(307, [("Expires", "Thu, 01 Jan 2099 00:00:00 GMT")]))
        #expect(storable(500, [("Cache-Control", "private")]))
        #expect(!storable(500, []))
        #expect(!storable(206, [("Cache-Control", "max-age=60")]))
        #expect(!storable(200, [("Cache-Control", "max-age=60, No-Store")]))
        #expect(!storable(200, [("Cache-Control", "max-age=60")], request: [("Cache-Control", "no-store")]))
        #expect(storable(200, [("Cache-Control", "max-age=60, no-store, must-understand")]))
        #expect(!storable(418, [("Cache-Control", "max-age=60, no-store, must-understand")]))
        #expect(!storable(200, [("Cache-Control", "max-age=60"), ("Vary", "Accept, *")]))
        #expect(!storable(200, [("Cache-Control", "max-age=60")], method: .post))
        #expect(!storable(200, [("Cache-Control", "max-age=60")], method: .head))
    }

    @Test("stored fields: no connection fields, none Connection names, no Set-Cookie; a Date added when missing")
    func storedFields() {
        let stored = CacheRules.storedFields(
            HTTPHeaders([("Connection", "close, X-Hop"), ("X-Hop", "1"), ("Keep-Alive", "timeout=5"), ("Set-Cookie", "a=1"), ("ETag", "\"x\"")]),
            received: received
        )
        #expect(stored.map(\.name) == ["ETag", "Date"])
        #expect(stored["Date"] == date(0))
    }

    @Test("a 304 replaces the stored fields it sends, but never the body's length, coding, type or Vary")
    func merging() {
        let stored = HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", "10"), ("ETag", "\"a\""), ("Cache-Control", "no-cache"), ("X-Old", "1"), ("X-Old", "2")])
        let merged = CacheRules.merged(stored, with: HTTPHeaders([
            ("Content-Type", "text/html"), ("Content-Length", "999"), ("Content-Encoding", "gzip"), ("Vary", "Cookie"),
            ("Cache-Control", "max-age=60"), ("X-Old", "3"), ("X-New", "4"), ("Set-Cookie", "b=2"),
        ]), received: received)
        #expect(merged["Date"] == date(0), "a 304 without Date is dated when it was received, by the cache's clock")
        #expect(merged["Content-Type"] == "application/json" && merged["Content-Length"] == "10")
        #expect(merged["Content-Encoding"] == nil && merged["Vary"] == nil && merged["Set-Cookie"] == nil)
        #expect(merged.values(for: "X-Old") == ["3"] && merged["X-New"] == "4" && merged.values(for: "Cache-Control") == ["max-age=60"])
    }

    @Test("which 304 answers for the stored response: its validators, if any, are the stored ones")
    func notModifiedSelection() {
        let stored = HTTPHeaders([("ETag", "W/\"v1\""), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")])
        #expect(CacheRules.notModified(["ETag": "\"v1\""], matches: stored))
        #expect(!CacheRules.notModified(["ETag": "\"v2\""], matches: stored))
        #expect(!CacheRules.notModified(["ETag": "\"V1\""], matches: stored))
        #expect(CacheRules.notModified(["Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"], matches: stored))
        #expect(!CacheRules.notModified(["Last-Modified": "Mon, 07 Nov 1994 08:49:37 GMT"], matches: stored))
        #expect(CacheRules.notModified([:], matches: stored))
        #expect(!CacheRules.notModified(["ETag": "\"v1\""], matches: [:]))
    }

    @Test("Vary: values compared byte for byte after list normalization; absent differs from empty; * never matches")
    func varyKeys() {
        let response: HTTPHeaders = ["Vary": "accept-encoding, Accept"]
        let key = VaryKey.fingerprint(vary: response, request: HTTPHeaders([("Accept", "a/b, c/d"), ("Accept-Encoding", "gzip")]))
        #expect(key == VaryKey.fingerprint(vary: ["Vary": "Accept,Accept-Encoding"], request: HTTPHeaders([("accept", "a/b,c/d"), ("ACCEPT-ENCODING", "gzip")])))
        #expect(key == VaryKey.fingerprint(vary: response, request: HTTPHeaders([("Accept", "a/b"), ("Accept", "c/d"), ("Accept-Encoding", "gzip")])))
        #expect(key != VaryKey.fingerprint(vary: response, request: HTTPHeaders([("Accept", "c/d, a/b"), ("Accept-Encoding", "gzip")])))
        #expect(VaryKey.fingerprint(vary: response, request: [:]) != VaryKey.fingerprint(vary: response, request: ["Accept": "", "Accept-Encoding": ""]))
        // Without Vary, only the implicit Authorization selects: other fields do not.
        #expect(VaryKey.fingerprint(vary: [:], request: ["Accept": "x"]) == VaryKey.fingerprint(vary: [:], request: [:]))
        #expect(VaryKey.fingerprint(vary: [:], request: ["Authorization": "Basic YTpi"]) != VaryKey.fingerprint(vary: [:], request: [:]))
        #expect(VaryKey.fingerprint(vary: [:], request: ["Authorization": "Basic YTpi"]) != VaryKey.fingerprint(vary: [:], request: ["Authorization": "Basic Yjpj"]))
        #expect(VaryKey.fingerprint(vary: ["Vary": "Authorization"], request: ["authorization": "x"]) == VaryKey.fingerprint(vary: [:], request: ["Authorization": "x"]))
        // Schemes whose value changes with each request of one user name that user alone.
        func identityKey(_ authorization: String) -> String { VaryKey.fingerprint(vary: [:], request: ["Authorization": authorization]) }
        let digest = #"Digest username="alice", realm="api", nonce="n1", uri="/a", nc=00000001, cnonce="c1", qop=auth, response="r1""#
        #expect(identityKey(digest) == identityKey(#"Digest username="alice", realm="api", nonce="n2", uri="/a", nc=00000002, cnonce="c2", qop=auth, response="r2""#))
        #expect(identityKey(digest) != identityKey(#"Digest username="bob", realm="api", nonce="n1", uri="/a", nc=00000001, cnonce="c1", qop=auth, response="r1""#))
        #expect(identityKey(digest) != identityKey(#"Digest username="alice", realm="admin", nonce="n1", uri="/a", response="r1""#))
        let signed = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261129/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc"
        #expect(identityKey(signed) == identityKey("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=def"))
        #expect(identityKey(signed) != identityKey("AWS4-HMAC-SHA256 Credential=AKIDOTHER/20261129/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc"))
        #expect(identityKey("Bearer a") != identityKey("Bearer b") && identityKey("Basic YTpi") != identityKey(""))
        #expect(VaryKey.fingerprint(vary: ["Vary": "Accept, *"], request: [:]) == VaryKey.never)
    }

    @Test("a Range field's single byte range, as RFC 9110 section 14.1.2 writes it; anything else is left to the server")
    func byteRanges() {
        #expect(ByteRange(field: "bytes=0-4")?.bounds(in: 17) == 0...4)
        #expect(ByteRange(field: "bytes=6-")?.bounds(in: 17) == 6...16)
        #expect(ByteRange(field: "bytes=-6")?.bounds(in: 17) == 11...16)
        #expect(ByteRange(field: "bytes=-100")?.bounds(in: 17) == 0...16)
        #expect(ByteRange(field: "bytes=10-100")?.bounds(in: 17) == 10...16)
        #expect(ByteRange(field: " BYTES=1-2")?.bounds(in: 17) == 1...2)
        #expect(ByteRange(field: "bytes=17-")?.bounds(in: 17) == nil, "past the end: not satisfiable")
        #expect(ByteRange(field: "bytes=0-0")?.bounds(in: 0) == nil)
        for field in ["bytes=4-0", "bytes=-0", "bytes=-", "bytes=0-1,3-4", "lines=1-2", "bytes=a-b", "bytes=1-2-3", "bytes=99999999999999999999-"] {
            #expect(ByteRange(field: field) == nil, "\(field)")
        }
    }

    @Test("a stale-while-revalidate background revalidation runs the whole chain once more from the task's own request: conditional, and with each stage's fields once (one Cookie, not two)")
    func backgroundRevalidationThroughTheChain() async throws {
        let jar = CookieJar()
        let url = URL(string: "http://a.test/feed")!
        jar.store(setCookie: ["session=abc"], for: url)
        let recorder = RequestRecorder()
        let transport = recorder.transport { request in
            request.headers.contains("If-None-Match")
                ? Response(status: 304, headers: ["ETag": "\"v1\""], url: request.url)
                : Response(status: 200, headers: ["Cache-Control": "max-age=0, stale-while-revalidate=600", "ETag": "\"v1\""], body: Data("feed".utf8), url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [ResponseCaching(), CookieHandling(jar: jar)], transport: transport))
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)
        let stale = try await manager.send(Request(url: url))
        #expect(stale.cacheOutcome == .stale && stale.body == Data("feed".utf8))
        var waited = 0
        while recorder.all.count < 2, waited < 200 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        let background = try #require(recorder.all.count == 2 ? recorder.all[1] : nil)
        #expect(background.headers["If-None-Match"] == "\"v1\"")
        #expect(background.headers.values(for: "Cookie") == ["session=abc"])
    }
}
