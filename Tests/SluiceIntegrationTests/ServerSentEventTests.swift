import Foundation
import Testing

@testable import Sluice

@Suite("Server-sent events over real sockets, with reconnection")
struct ServerSentEventTests {
    private func log(_ servers: TestServers, _ key: String) async throws -> [String?] {
        let response = try await servers.manager().send(Request(url: servers.scenario.appendingPathComponent("events-log/\(key)")))
        let entries = try #require(try response.jsonObject()["last_event_ids"] as? [Any])
        return entries.map { $0 as? String }
    }

    @Test("a server that drops the connection every 3 events: the source reconnects after `retry`, sends Last-Event-ID, misses nothing, and ends at 204")
    func reconnects() async throws {
        let servers = try TestServers.load()
        let key = "drop-\(UUID().uuidString)"
        let url = servers.scenario.appendingPathComponent("events/\(key)")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "count", value: "8"), URLQueryItem(name: "drop-after", value: "3"), URLQueryItem(name: "retry", value: "50")]
        let manager = try servers.manager()
        var events: [ServerSentEvent] = []
        let clock = ContinuousClock()
        let started = clock.now
        for try await event in manager.events(Request(url: components.url!), options: .init(maxReconnects: 5)) {
            events.append(event)
        }
        #expect(events.map(\.data) == (1...8).map { "event \($0)" })
        #expect(events.map(\.lastEventID) == (1...8).map(String.init))
        #expect(events[0].retry == .milliseconds(50))
        // Three connections of events, one that ended cleanly, and the 204.
        #expect(try await log(servers, key) == [nil, "3", "6", "8"])
        // Three waits of 50 ms, the stream's `retry`, not the default 3 s.
        #expect(clock.now - started < .seconds(3))
    }

    @Test("every connection asks for text/event-stream and no-cache, through the pipeline's stages")
    func requestFields() async throws {
        let servers = try TestServers.load()
        let key = "fields-\(UUID().uuidString)"
        var components = URLComponents(url: servers.scenario.appendingPathComponent("events/\(key)"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "count", value: "2"), URLQueryItem(name: "type", value: "tick")]
        var seen: [String] = []
        for try await event in try servers.manager().events(Request(url: components.url!), options: .init(defaultRetry: .milliseconds(10))) {
            seen.append(event.type)
        }
        #expect(seen == ["tick", "tick"])
    }

    @Test("a status other than 200, or a type other than text/event-stream, ends the source at once with a typed error")
    func refusals() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        var statusIterator = manager.events(Request(url: servers.httpbin("status/500"))).makeAsyncIterator()
        let status = await #expect(throws: SluiceError.self) { _ = try await statusIterator.next() }
        #expect(status?.kind == .unacceptableStatus)
        var typeIterator = manager.events(Request(url: servers.httpbin("get"))).makeAsyncIterator()
        let type = await #expect(throws: SluiceError.self) { _ = try await typeIterator.next() }
        #expect(type?.kind == .unacceptableContentType)
        #expect(type?.message.contains("application/json") == true)
    }

    @Test("a dead server: the source gives up after maxReconnects with the network's error")
    func givesUp() async throws {
        let servers = try TestServers.load()
        let closed = try LoopbackSocket.unusedPort()
        var iterator = try servers.manager().events(
            Request(url: URL(string: "http://127.0.0.1:\(closed)/events")!), options: .init(defaultRetry: .milliseconds(10), maxReconnects: 2)
        ).makeAsyncIterator()
        let error = await #expect(throws: SluiceError.self) { _ = try await iterator.next() }
        #expect(error?.kind == .connect)
    }
}
