import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

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
        var iterator = manager.events(Request(url: components.url!), options: .init(maxReconnects: 5)).makeAsyncIterator()
        #expect(iterator.reconnectionTime == .seconds(3))
        while let event = try await iterator.next() {
            events.append(event)
        }
        #expect(events.map(\.data) == (1...8).map { "event \($0)" })
        #expect(events.map(\.lastEventID) == (1...8).map(String.init))
        #expect(events[0].retry == .milliseconds(50))
        // Three connections of events, one that ended cleanly, and the 204.
        #expect(try await log(servers, key) == [nil, "3", "6", "8"])
        // The waits were the stream's `retry`, not the default 3 s.
        #expect(iterator.reconnectionTime == .milliseconds(50))
    }

    @Test("a connection cut in the middle of an event: its id is not the Last-Event-ID of the reconnection, so the event is sent again, not lost")
    func cutMidEvent() async throws {
        let servers = try TestServers.load()
        let key = "partial-\(UUID().uuidString)"
        var components = URLComponents(url: servers.scenario.appendingPathComponent("events/\(key)"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "count", value: "6"), URLQueryItem(name: "drop-after", value: "3"), URLQueryItem(name: "retry", value: "20"), URLQueryItem(name: "partial", value: "1"),
        ]
        let manager = try servers.manager()
        var events: [ServerSentEvent] = []
        for try await event in manager.events(Request(url: components.url!), options: .init(maxReconnects: 5)) {
            events.append(event)
        }
        #expect(events.map(\.data) == (1...6).map { "event \($0)" })
        #expect(try await log(servers, key) == [nil, "3", "6"])
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

@Suite("Server-sent events in the runner")
struct ServerSentEventRunTests {
    @Test("`sluice send --events --max-events 4` prints one JSON line per event, across a dropped connection")
    func sendEvents() async throws {
        let servers = try TestServers.load()
        let url = servers.scenario.absoluteString + "/events/send-\(UUID().uuidString)?count=6&drop-after=2&retry=20"
        let result = try await SluiceProcess.launch(["send", "--events", "--max-events", "4", url])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines == (1...4).map { #"{"type":"message","data":"event \#($0)","id":"\#($0)"}"# })
    }

    @Test("`sluice send --events` ends without error when --timeout passes, and fails with the status when the resource is no event stream")
    func sendEventsLimits() async throws {
        let servers = try TestServers.load()
        let slow = try await SluiceProcess.launch(["send", "--events", "--timeout", "0.5", servers.nginx("slow/large.bin").absoluteString])
        #expect(slow.status != 0)
        #expect(slow.error.contains("text/event-stream"))
        let url = servers.scenario.absoluteString + "/events/timeout-\(UUID().uuidString)?count=3"
        let ended = try await SluiceProcess.launch(["send", "--events", "--timeout", "60", url])
        #expect(ended.status == 0, "\(ended.error)")
        #expect(ended.output.split(separator: "\n").count == 3)
    }

    @Test("a pipeline request with events: reads N events or until within:, and its expectations see them; bad events: is a load error at its line")
    func pipelineEvents() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.scenario.absoluteString)" }
            requests:
              - name: some
                path: events/run-\(UUID().uuidString)?count=5&type=price
                events: { count: 2 }
                expect:
                  body: { "$": { count: 2 }, "$[1].type": price, "$[1].data": event 2 }
              - name: all-then-timeout
                path: events/run-\(UUID().uuidString)?count=3&drop-after=1&retry=10
                events: { within: 30s }
                expect:
                  body: { "$": { count: 3 }, "$[2].id": "3" }
              - name: wrong
                path: events/run-\(UUID().uuidString)?count=1
                events: { count: 3, within: 1s }
                expect:
                  body: { "$": { count: 3 } }
            """, to: "events.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(result.output.contains("2 passed, 1 failed"), "\(result.output)")
        #expect(result.output.contains("events.yaml:18"), "\(result.output)")
        // The URL the stages resolved, as for any other request, in the text and the JSON.
        #expect(result.output.contains("✔ some  GET \(servers.scenario.absoluteString)/events/run-"), "\(result.output)")
        let json = try await SluiceProcess.launch(["run", "--format", "json", path])
        #expect(json.output.contains("\"url\": \"\(servers.scenario.absoluteString)/events/run-") && !json.output.contains("\"url\": \"events/"), "\(json.output)")

        let bad = try directory.write("""
            requests:
              - path: http://127.0.0.1:1/
                events: { cuont: 2 }
            """, to: "bad.yaml")
        let refused = try await SluiceProcess.launch(["run", "--no-color", bad])
        #expect(refused.status == 2)
        #expect(refused.error.contains("bad.yaml:3"), "\(refused.error)")
        #expect(refused.error.contains("count"), "\(refused.error)")
    }
}
