import Foundation
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad
import Testing

/// The cache stage over real sockets: nginx's static files (`expires`, `ETag`, `Last-Modified`,
/// 304s seen in its access log), and the scenario server's `/cache/KEY` origin for `Vary`,
/// `no-store`, `must-revalidate`, errors, invalidation and hostile 304s.
@Suite("HTTP cache against nginx and the scenario server")
struct CacheTests {
    /// A query that makes each test's URLs its own, in the cache and in nginx's access log.
    private let tag = "t=\(UUID().uuidString)"

    private func manager(_ cache: ResponseCaching, _ servers: TestServers, stages: [any Stage] = []) throws -> SessionManager {
        try servers.manager(stages: stages + [cache])
    }

    /// The lines of nginx's access log for requests whose target contains `text`.
    private func accessLog(_ servers: TestServers, containing text: String) throws -> [Substring] {
        try String(contentsOfFile: servers.nginxAccessLog, encoding: .utf8).split(separator: "\n").filter { $0.contains(text) }
    }

    /// How many requests the scenario server saw for `key`.
    private func count(_ servers: TestServers, _ key: String) async throws -> Int {
        let response = try await servers.manager().send(Request(url: servers.scenario.appendingPathComponent("count/\(key)")))
        return try #require(try response.jsonObject()["count"] as? Int)
    }

    private func scenario(_ servers: TestServers, _ key: String, _ query: String) -> URL {
        URL(string: "\(servers.scenario.absoluteString)/cache/\(key)?\(query)")!
    }

    /// Makes the scenario server's later `/cache/KEY` requests answer as `document` says.
    private func mode(_ servers: TestServers, _ key: String, _ document: String) async throws {
        _ = try await servers.manager().send(Request(method: .post, url: servers.scenario.appendingPathComponent("cache-mode/\(key)"), body: .data(Data(document.utf8))))
    }

    private func send(_ manager: SessionManager, _ request: Request) async throws -> (Response, TaskMetrics) {
        let handle = manager.task(request)
        let response = try await handle.value
        return (response, handle.context.metrics)
    }

    @Test("nginx `expires 1h`: the second GET is a hit that sends nothing, with an Age; nginx logged one request")
    func freshFromNginx() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let url = servers.nginx("cached/hello.txt?\(tag)")
        let (first, firstMetrics) = try await send(manager, Request(url: url))
        #expect(first.cacheOutcome == .miss && firstMetrics.cacheOutcomes == [.miss])
        #expect(first.headers["Cache-Control"] == "max-age=3600")
        let (second, metrics) = try await send(manager, Request(url: url))
        #expect(second.cacheOutcome == .hit && metrics.cacheOutcomes == [.hit])
        #expect(second.body == first.body && second.status == 200)
        #expect(second.headers["Age"] != nil && second.headers["ETag"] == first.headers["ETag"])
        #expect(metrics.transfers.isEmpty, "a hit makes no exchange")
        #expect(metrics.notes.contains { $0.stage == "cache" && $0.name == "hit" && $0.detail.contains("of 3600 s") })
        #expect(try accessLog(servers, containing: tag).count == 1)
    }

    @Test("a Range request is answered from a fresh stored complete response (206, Content-Range) as nginx answers it; several ranges, an unsatisfiable one or nothing stored go to nginx")
    func rangeFromStoredResponse() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let url = servers.nginx("cached/hello.txt?\(tag)")
        let (unstored, _) = try await send(manager, Request(url: url, headers: ["Range": "bytes=0-4"]))
        #expect(unstored.status == 206 && unstored.cacheOutcome == nil, "nothing stored: nginx answers")
        _ = try await send(manager, Request(url: url))
        for (field, expected) in [("bytes=0-4", unstored), ("bytes=6-", nil), ("bytes=-6", nil), ("bytes=6-1000", nil)] as [(String, Response?)] {
            let (part, metrics) = try await send(manager, Request(url: url, headers: ["Range": field]))
            #expect(part.status == 206 && part.cacheOutcome == .hit && metrics.transfers.isEmpty, "\(field)")
            if let expected {
                #expect(part.body == expected.body && part.headers["Content-Range"] == expected.headers["Content-Range"], "the same bytes and Content-Range as nginx's own 206")
            }
        }
        #expect(try await send(manager, Request(url: url, headers: ["Range": "bytes=6-"])).0.body == Data("from nginx\n".utf8))
        #expect(try await send(manager, Request(url: url, headers: ["Range": "bytes=-6"])).0.headers["Content-Range"] == "bytes 11-16/17")
        for field in ["bytes=0-1,3-4", "bytes=100-", "lines=1-2"] {
            let (passed, _) = try await send(manager, Request(url: url, headers: ["Range": field]))
            #expect(passed.cacheOutcome == nil, "\(field) goes to nginx")
        }
        #expect(try accessLog(servers, containing: tag).count == 5)
        // nginx gzips data.json: the stored body is decoded, so a range of it goes to nginx.
        let coded = servers.nginx("cached/data.json?\(tag)-coded")
        let (whole, _) = try await send(manager, Request(url: coded))
        #expect(whole.headers["Content-Encoding"] == "gzip" && whole.cacheOutcome == .miss)
        #expect(try await send(manager, Request(url: coded, headers: ["Range": "bytes=0-9"])).0.cacheOutcome == nil)
    }

    @Test("immutable (RFC 8246): a fresh response is served on a reload (the request's max-age=0), and revalidated on a forced one (no-cache)")
    func immutable() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let key = "immutable-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=max-age%3D3600,%20immutable&etag=%22v1%22")
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)
        #expect(try await manager.send(Request(url: url, headers: ["Cache-Control": "max-age=0"])).cacheOutcome == .hit)
        #expect(try await manager.send(Request(url: url, headers: ["Cache-Control": "no-cache"])).cacheOutcome == .revalidated)
        let plain = "mutable-\(UUID().uuidString)"
        let plainURL = scenario(servers, plain, "cache-control=max-age%3D3600&etag=%22v1%22")
        _ = try await manager.send(Request(url: plainURL))
        #expect(try await manager.send(Request(url: plainURL, headers: ["Cache-Control": "max-age=0"])).cacheOutcome == .revalidated)
    }

    @Test("a HEAD is answered from a fresh stored GET response, its head without a body, sending nothing; with nothing stored it goes to nginx (RFC 9111 section 4.3.5)")
    func headFromStoredGet() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let url = servers.nginx("cached/hello.txt?\(tag)")
        let (first, _) = try await send(manager, Request(method: .head, url: url))
        #expect(first.cacheOutcome == nil && first.status == 200, "nothing stored: the HEAD goes out")
        let (get, _) = try await send(manager, Request(url: url))
        #expect(get.cacheOutcome == .miss && !get.body.isEmpty)
        let (head, metrics) = try await send(manager, Request(method: .head, url: url))
        #expect(head.cacheOutcome == .hit && head.status == 200 && head.body.isEmpty)
        #expect(head.headers["ETag"] == get.headers["ETag"] && head.headers["Content-Length"] == get.headers["Content-Length"] && head.headers["Age"] != nil)
        #expect(metrics.transfers.isEmpty, "a hit makes no exchange")
        #expect(try accessLog(servers, containing: tag).map { $0.contains("\"HEAD ") } == [true, false])
    }

    @Test("nginx `Cache-Control: no-cache`: each use is validated; nginx answers 304 (in its access log) and the stored body returns")
    func revalidatedByNginx() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let url = servers.nginx("validated/hello.txt?\(tag)")
        let first = try await manager.send(Request(url: url))
        #expect(first.cacheOutcome == .miss && first.headers["ETag"] != nil && first.headers["Last-Modified"] != nil)
        let (second, metrics) = try await send(manager, Request(url: url))
        #expect(second.cacheOutcome == .revalidated && second.status == 200)
        #expect(second.body == Data("hello from nginx\n".utf8))
        #expect(metrics.transfers.count == 1)
        let lines = try accessLog(servers, containing: tag)
        #expect(lines.count == 2)
        #expect(lines.last?.contains("\" 304 ") == true, "nginx's log: \(lines)")
    }

    @Test("nginx's weak ETag on a gzipped file validates too (weak comparison, RFC 9110 8.8.3.2)")
    func weakTag() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let url = servers.nginx("validated/data.json?\(tag)")
        let first = try await manager.send(Request(url: url))
        #expect(first.headers["ETag"]?.hasPrefix("W/") == true, "nginx gzips data.json and weakens its tag")
        let second = try await manager.send(Request(url: url))
        #expect(second.cacheOutcome == .revalidated && second.body == first.body)
        #expect(try accessLog(servers, containing: tag).last?.contains("\" 304 ") == true)
    }

    @Test("a file with only Last-Modified (2020) is fresh by the heuristic: 10% of its age")
    func heuristic() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let url = servers.nginx("old.txt?\(tag)")
        let first = try await manager.send(Request(url: url))
        #expect(first.headers["Cache-Control"] == nil && first.headers["Expires"] == nil)
        let (second, metrics) = try await send(manager, Request(url: url))
        #expect(second.cacheOutcome == .hit)
        #expect(metrics.notes.contains { $0.detail.contains("(heuristic)") })
        #expect(try accessLog(servers, containing: tag).count == 1)
    }

    @Test("a download is stored on disk and a hit writes it to the new destination, streamed, byte for byte")
    func downloadThroughDisk() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let store = try DiskCacheStore(directory: directory.file("cache"))
        let manager = try manager(ResponseCaching(store: store), servers)
        let url = servers.nginx("cached/medium.bin?\(tag)")
        let original = try Data(contentsOf: URL(fileURLWithPath: servers.wwwRoot).appendingPathComponent("medium.bin"))
        let first = try await manager.send(Request(url: url, destination: .file(directory.file("first.bin"))))
        #expect(first.cacheOutcome == .miss)
        let second = try await manager.send(Request(url: url, destination: .file(directory.file("second.bin"))))
        #expect(second.cacheOutcome == .hit && second.bodyFile == directory.file("second.bin"))
        #expect(try Data(contentsOf: directory.file("second.bin")) == original)
        // Into memory from the same entry.
        let third = try await manager.send(Request(url: url))
        #expect(third.cacheOutcome == .hit && third.body == original)
        #expect(try accessLog(servers, containing: tag).count == 1)
        #expect(store.size > Int64(original.count))
    }

    @Test("Vary: a request with other values for the varying field misses; one stored response per URL")
    func vary() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let key = "vary-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=max-age%3D60&vary=Accept")
        func get(_ accept: String) async throws -> Response {
            try await manager.send(Request(url: url, headers: ["Accept": accept]))
        }
        #expect(try await get("application/json").cacheOutcome == .miss)
        #expect(try await get("application/json").cacheOutcome == .hit)
        #expect(try await get("application/json ").cacheOutcome == .hit, "whitespace at the end is not part of the value")
        #expect(try await get("text/plain").cacheOutcome == .miss)
        #expect(try await get("text/plain").cacheOutcome == .hit)
        // Canonically equivalent but different bytes: a different value.
        #expect(try await get("text/caf\u{E9}").cacheOutcome == .miss)
        #expect(try await get("text/cafe\u{301}").cacheOutcome == .miss)
        #expect(try await count(servers, key) == 4)
    }

    @Test("no-store is never stored; Vary: * is never reused")
    func noStore() async throws {
        let servers = try TestServers.load()
        let store = MemoryCacheStore()
        let manager = try manager(ResponseCaching(store: store), servers)
        for (name, query) in [("no-store", "cache-control=max-age%3D60,%20no-store"), ("vary-star", "cache-control=max-age%3D60&vary=*")] {
            let key = "\(name)-\(UUID().uuidString)"
            let url = scenario(servers, key, query)
            #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)
            #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)
            #expect(try await count(servers, key) == 2)
        }
        #expect(store.keys.isEmpty)
    }

    @Test("stale-while-revalidate: a response stale within its window is served at once, and revalidated in a task of its own (a 304 the scenario server counts); outside it, or with the request's no-cache, it is validated first")
    func staleWhileRevalidate() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let key = "swr-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=max-age%3D0,%20stale-while-revalidate%3D600&etag=%22v1%22")
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)
        let (stale, metrics) = try await send(manager, Request(url: url))
        #expect(stale.cacheOutcome == .stale && stale.status == 200 && !stale.body.isEmpty)
        #expect(metrics.transfers.isEmpty, "served before any exchange")
        #expect(metrics.notes.contains { $0.name == "stale" && $0.detail.contains("stale-while-revalidate") })
        // The background revalidation: a second request to the server, conditional, answered 304.
        var waited = 0
        while try await count(servers, key) < 2, waited < 200 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(try await count(servers, key) == 2)
        #expect(try await count(servers, key + ":304") == 1)
        // The request's own no-cache is validated before anything is returned.
        let (validated, _) = try await send(manager, Request(url: url, headers: ["Cache-Control": "no-cache"]))
        #expect(validated.cacheOutcome == .revalidated)
        #expect(try await count(servers, key) == 3)

        let past = "swr-past-\(UUID().uuidString)"
        let pastURL = scenario(servers, past, "cache-control=max-age%3D0,%20stale-while-revalidate%3D0&etag=%22v1%22&age=5")
        _ = try await manager.send(Request(url: pastURL))
        #expect(try await manager.send(Request(url: pastURL)).cacheOutcome == .revalidated, "outside the window: validated first")
    }

    @Test("stale-if-error: a stale response stands in for a 503 or a reset connection, unless it says must-revalidate")
    func staleIfError() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(staleIfError: .seconds(3600)), servers)
        let key = "stale-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=max-age%3D0&etag=%22v1%22")
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)
        try await mode(servers, key, #"{"status": 503}"#)
        let (stale, metrics) = try await send(manager, Request(url: url))
        #expect(stale.cacheOutcome == .stale && stale.status == 200)
        #expect(metrics.notes.contains { $0.name == "stale" && $0.detail.contains("answered 503") })
        try await mode(servers, key, #"{"reset": true}"#)
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .stale)

        let strict = "strict-\(UUID().uuidString)"
        let strictURL = scenario(servers, strict, "cache-control=max-age%3D0,%20must-revalidate&etag=%22v1%22")
        #expect(try await manager.send(Request(url: strictURL)).cacheOutcome == .miss)
        try await mode(servers, strict, #"{"status": 503}"#)
        let refused = try await manager.send(Request(url: strictURL))
        #expect(refused.status == 503 && refused.cacheOutcome == .miss)

        // Without the option, the error comes through.
        let plain = try self.manager(ResponseCaching(), servers)
        let other = "plain-\(UUID().uuidString)"
        let otherURL = scenario(servers, other, "cache-control=max-age%3D0&etag=%22v1%22")
        _ = try await plain.send(Request(url: otherURL))
        try await mode(servers, other, #"{"status": 503}"#)
        #expect(try await plain.send(Request(url: otherURL)).status == 503)
        // A response that must be revalidated, the server unreachable: a 504 generated in its
        // place (RFC 9111 section 5.2.2.2), not the stale response and not a transport error.
        let second = try self.manager(ResponseCaching(), servers)
        let revalidated = "revalidated-\(UUID().uuidString)"
        let revalidatedURL = scenario(servers, revalidated, "cache-control=max-age%3D0,%20must-revalidate&etag=%22v1%22")
        _ = try await second.send(Request(url: revalidatedURL))
        try await mode(servers, revalidated, #"{"reset": true}"#)
        let (gateway, notes) = try await send(second, Request(url: revalidatedURL))
        #expect(gateway.status == 504 && gateway.cacheOutcome == .miss)
        #expect(notes.notes.contains { $0.name == "miss" && $0.detail.contains("504 generated as RFC 9111 section 5.2.2.2 says") })
    }

    @Test("a successful POST invalidates its URL and a same-origin Location, never another origin's entry")
    func invalidation() async throws {
        let servers = try TestServers.load()
        let store = MemoryCacheStore()
        let manager = try manager(ResponseCaching(store: store), servers)
        let key = "inv-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=max-age%3D60")
        _ = try await manager.send(Request(url: url))
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .hit)
        _ = try await manager.send(Request(method: .post, url: url))
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)

        // A POST elsewhere whose Location names the entry, on the same origin.
        let location = "/cache/\(key)?cache-control=max-age%253D60"
        _ = try await manager.send(Request(method: .post, url: scenario(servers, "other", "location=\(location)")))
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .miss)

        // A hostile response naming another origin's entry (localhost is not 127.0.0.1) empties nothing.
        let foreign = URL(string: url.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost"))!
        _ = try await manager.send(Request(url: foreign))
        let attack = foreign.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        _ = try await manager.send(Request(method: .delete, url: scenario(servers, "attacker", "location=\(attack)&content-location=\(attack)")))
        #expect(try await manager.send(Request(url: foreign)).cacheOutcome == .hit)
        // A failed POST invalidates nothing.
        try await mode(servers, key, #"{"status": 500}"#)
        #expect(try await manager.send(Request(method: .post, url: url)).status == 500)
        try await mode(servers, key, "{}")
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .hit)
    }

    @Test("eight tasks asking for one URL at once share one exchange; the others are hits")
    func singleFlight() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let key = "flight-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=max-age%3D60&delay=0.5")
        let outcomes = try await withThrowingTaskGroup(of: CacheOutcome?.self) { group in
            for _ in 0..<8 { group.addTask { try await manager.send(Request(url: url)).cacheOutcome } }
            return try await group.reduce(into: [CacheOutcome?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .miss }.count == 1)
        #expect(outcomes.filter { $0 == .hit }.count == 7)
        #expect(try await count(servers, key) == 1)
    }

    @Test("a waiting task that is cancelled stops waiting at once; the leader's exchange goes on")
    func cancelledFollower() async throws {
        let servers = try TestServers.load()
        let cache = ResponseCaching()
        let manager = try manager(cache, servers)
        let key = "cancel-\(UUID().uuidString)"
        // The origin holds the leader's answer until the test releases it: each step below waits
        // for the one before, not for a time a loaded machine may overrun.
        let url = scenario(servers, key, "cache-control=max-age%3D60&held=1")
        let leader = manager.task(Request(url: url))
        try await waitUntil("the origin has the leader's request") { try await count(servers, key) == 1 }
        let follower = manager.task(Request(url: url))
        try await waitUntil("the follower waits for the leader's exchange") { cache.flights.followersWaiting == 1 }
        follower.cancel()
        await #expect(throws: SluiceError.self) { try await follower.value }
        _ = try await servers.manager().send(Request(method: .post, url: servers.scenario.appendingPathComponent("cache-release/\(key)")))
        #expect(try await leader.value.cacheOutcome == .miss)
        #expect(try await count(servers, key) == 1)
    }

    /// Returns once `condition` holds, checking every 10 ms; fails the test after 30 s.
    private func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("not within 30 s: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("a 304 with another entity tag is not taken for the stored response: the request is sent again without conditions")
    func mismatchedNotModified() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let key = "mismatch-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=no-cache&etag=%22v1%22&etag-304=%22v2%22")
        _ = try await manager.send(Request(url: url))
        let (second, metrics) = try await send(manager, Request(url: url))
        #expect(second.cacheOutcome == .miss && second.status == 200)
        #expect(metrics.notes.contains { $0.name == "mismatch" })
        #expect(try second.jsonObject()["conditional"] as? Bool == false)
        #expect(try await count(servers, key) == 3)
    }

    @Test("a hostile 304 cannot change the stored body's type, length or coding; its other fields are merged")
    func hostileNotModified() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let key = "hostile-\(UUID().uuidString)"
        let extra = "Content-Type=text/html&Content-Encoding=gzip&X-Merged=yes&Cache-Control=max-age=60"
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let url = scenario(servers, key, "cache-control=no-cache&etag=%22v1%22&headers-304=\(extra)")
        let first = try await manager.send(Request(url: url))
        let second = try await manager.send(Request(url: url))
        #expect(second.cacheOutcome == .revalidated)
        #expect(second.headers["Content-Type"] == "application/json" && second.headers["Content-Encoding"] == nil)
        #expect(second.headers["Content-Length"] == first.headers["Content-Length"] && second.body == first.body)
        #expect(second.headers["X-Merged"] == "yes")
        // The 304's Cache-Control replaced the stored one: fresh for a minute now.
        #expect(try await manager.send(Request(url: url)).cacheOutcome == .hit)
    }

    @Test("Set-Cookie and the values Vary selects on never reach the disk: a hit carries no Set-Cookie")
    func secretsStayOffDisk() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let manager = try manager(ResponseCaching(store: try DiskCacheStore(directory: directory.url)), servers)
        let key = "secret-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=private,%20max-age%3D60&vary=Authorization&set-cookie=session%3Dsup3r-s3cret-cookie")
        let request = Request(url: url, headers: ["Authorization": "Bearer sup3r-s3cret-token"])
        let first = try await manager.send(request)
        #expect(first.headers["Set-Cookie"] != nil)
        let second = try await manager.send(request)
        #expect(second.cacheOutcome == .hit && second.headers["Set-Cookie"] == nil)
        for name in directory.contents {
            let text = String(decoding: try Data(contentsOf: directory.file(name)), as: UTF8.self)
            #expect(!text.contains("session=sup3r") && !text.contains("sup3r-s3cret-token"), "\(name) holds a secret")
        }
        #expect(try await manager.send(Request(url: url, headers: ["Authorization": "Bearer other"])).cacheOutcome == .miss)
    }

    @Test("each redirect hop is stored under its own URL: the second time, both hops are hits and nothing is sent")
    func redirectHops() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let target = "hop-target-\(UUID().uuidString)"
        let source = "hop-source-\(UUID().uuidString)"
        let location = "/cache/\(target)?cache-control=max-age%253D60"
        let url = scenario(servers, source, "cache-control=max-age%3D60&status=301&location=\(location)")
        #expect(manager.pipeline.stageNames == ["redirects", "cache"])
        let (first, firstMetrics) = try await send(manager, Request(url: url))
        #expect(first.status == 200 && firstMetrics.cacheOutcomes == [.miss, .miss])
        let (second, metrics) = try await send(manager, Request(url: url))
        #expect(second.status == 200 && metrics.cacheOutcomes == [.hit, .hit] && metrics.transfers.isEmpty)
        #expect(try await count(servers, source) == 1)
        #expect(try await count(servers, target) == 1)
        // The redirect followed is told alike, whether its response came from the cache or not.
        let handle = manager.task(Request(url: url))
        _ = try await handle.value
        let hops = handle.context.storage[Redirection.Followed.self]
        #expect(hops?.map(\.status) == [301] && hops?.first?.from == url && hops?.first?.to.path == "/cache/\(target)", "\(String(describing: hops))")
    }

    @Test("a pipeline's redirect answered from the cache: its redirects, URL and checks read as when it was sent")
    func redirectHopsInRun() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let source = "run-source-\(UUID().uuidString)"
        let request = { (name: String) in """
              - name: \(name)
                path: \(servers.scenario.absoluteString)/cache/\(source)?status=301&location=/cache/\(source)-t%3Fcache-control%3Dmax-age%253D60&cache-control=max-age%3D60
                expect:
                  checks:
                    - { redirects: , filters: [count], equals: 1 }
                    - { url: , ends-with: "\(source)-t?cache-control=max-age%3D60" }

            """
        }
        let file = try directory.write("stages:\n  - cache\nrequests:\n" + request("sent") + request("cached"), to: "cached.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", "--format", "json", file])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])["results"] as? [[String: Any]]
        let urls = (results ?? []).map { $0["url"] as? String }
        #expect(urls.count == 2 && urls[0] == urls[1] && urls[0]?.contains("/cache/\(source)?status=301") == true, "\(urls)")
    }

    @Test("the request's own directives: no-cache validates, max-age=0 validates, only-if-cached never sends, no-store stores nothing")
    func requestDirectives() async throws {
        let servers = try TestServers.load()
        let manager = try manager(ResponseCaching(), servers)
        let key = "directives-\(UUID().uuidString)"
        let url = scenario(servers, key, "cache-control=max-age%3D60&etag=%22v1%22")
        let missing = try await manager.send(Request(url: url, headers: ["Cache-Control": "only-if-cached"]))
        #expect(missing.status == 504 && missing.cacheOutcome == .miss)
        #expect(try await count(servers, key) == 0)
        #expect(try await manager.send(Request(url: url, headers: ["Cache-Control": "no-store"])).cacheOutcome == .miss)
        #expect(try await manager.send(Request(url: url, headers: ["Cache-Control": "only-if-cached"])).status == 504)
        _ = try await manager.send(Request(url: url))
        #expect(try await manager.send(Request(url: url, headers: ["Cache-Control": "only-if-cached"])).cacheOutcome == .hit)
        #expect(try await manager.send(Request(url: url, headers: ["Cache-Control": "no-cache"])).cacheOutcome == .revalidated)
        #expect(try await manager.send(Request(url: url, headers: ["Pragma": "no-cache"])).cacheOutcome == .revalidated)
        #expect(try await manager.send(Request(url: url, headers: ["Cache-Control": "max-age=0"])).cacheOutcome == .revalidated)
        #expect(try await manager.send(Request(url: url, headers: ["Cache-Control": "min-fresh=3600"])).cacheOutcome == .revalidated)
        // The caller's own condition passes through: the server's 304 comes back as it is.
        let own = try await manager.send(Request(url: url, headers: ["If-None-Match": "\"v1\""]))
        #expect(own.status == 304 && own.cacheOutcome == nil)
    }

    @Test("the cache runs below redirects and cookies whatever the order; two caches are refused")
    func placement() throws {
        #expect(try Pipeline(stages: [ResponseCaching(), Redirection()]).stageNames == ["redirects", "cache"])
        #expect(try Pipeline(stages: [ResponseCaching(), CookieHandling()]).stageNames == ["redirects", "cookies", "cache"])
        #expect(try Pipeline(stages: [CookieHandling(), ResponseCaching()]).stageNames == ["redirects", "cookies", "cache"])
        let error = #expect(throws: SluiceError.self) { try Pipeline(stages: [ResponseCaching(), CookieHandling(), ResponseCaching()]) }
        #expect(error?.message.hasPrefix("two 'cache' stages cannot work together (stages 1 and 3 as listed): both claim the cache") == true)
    }
}
