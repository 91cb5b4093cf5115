import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

/// The web-platform-tests' EventSource cases about the connection rather than the stream
/// (`Tests/Fixtures/wpt-eventsource/source-cases.json`): which `Content-Type` and status open a
/// stream, redirects, and what each reconnection sends as `Last-Event-ID`. The scenario server
/// plays each case's connections in order (`/sse-script/KEY`, then `/sse/KEY`), then answers 204.
@Suite("Server-sent events: the web-platform-tests' connection cases")
struct ServerSentEventSourceCaseTests {
    struct Connection: Codable {
        var status: Int
        var contentType: String?
        var stream: String?
        var location: String?
    }

    struct Case: Decodable, CustomTestStringConvertible {
        struct Event: Decodable {
            var type: String
            var data: String
            var lastEventID: String
        }

        struct Expect: Decodable {
            var opens: Bool?
            var reconnects: Bool?
            var events: [Event]?
            var lastEventIDHeaders: [String?]?
        }

        var name: String
        var source: String
        var kind: String
        var status: Int?
        var contentType: String?
        var stream: String?
        var location: String?
        var redirectTo: Connection?
        var connections: [Connection]?
        var expect: Expect

        var testDescription: String { name }

        /// What the server answers, in order, for a run under `path` (a redirect's target included).
        func script(path: String) -> [Connection] {
            if let connections { return connections }
            var first = Connection(status: status ?? 200, contentType: contentType, stream: stream)
            guard let redirectTo else { return [first] }
            // Another URL of the same script: a redirect back to the URL itself is a loop.
            first.location = path + "?redirected"
            return [first, redirectTo]
        }
    }

    /// The script and log requests go through a transport of their own, so that no connection
    /// the event source left in its pool (a stream it stopped reading) is reused for them.
    static let bookkeeping = CurlTransport()

    static let cases: [Case] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wpt-eventsource/source-cases.json")
        struct Cases: Decodable { let cases: [Case] }
        return (try? JSONDecoder().decode(Cases.self, from: Data(contentsOf: file)).cases) ?? []
    }()

    @Test("the 27 connection cases are read")
    func suiteRead() {
        #expect(Self.cases.count == 27)
    }

    @Test("each connection case: opens or not, follows redirects, reconnects with the Last-Event-ID the standard says", arguments: cases)
    func connection(_ testCase: Case) async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let scripts = SessionManager(pipeline: try Pipeline(transport: ServerSentEventSourceCaseTests.bookkeeping, redirects: nil))
        let key = "wpt-\(UUID().uuidString)"
        let path = "/sse/\(key)"
        let scripted = try JSONEncoder().encode(["connections": testCase.script(path: path)])
        _ = try await scripts.send(Request(method: .post, url: servers.scenario.appendingPathComponent("sse-script/\(key)"), body: .data(scripted)))

        var events: [ServerSentEvent] = []
        var failure: SluiceError?
        let source = manager.events(Request(url: servers.scenario.appendingPathComponent("sse/\(key)")), options: .init(defaultRetry: .milliseconds(10), maxReconnects: 5))
        do {
            for try await event in source { events.append(event) }
        } catch {
            failure = error
        }
        let logged = try await scripts.send(Request(url: servers.scenario.appendingPathComponent("sse-log/\(key)")))
        let headers = try #require(try logged.jsonObject()["last_event_ids"] as? [Any]).map { $0 as? String }

        if let expected = testCase.expect.events {
            #expect(events.map(\.type) == expected.map(\.type), "\(testCase.source)")
            #expect(events.map { Array($0.data.utf8) } == expected.map { Array($0.data.utf8) }, "\(testCase.source)")
            #expect(events.map(\.lastEventID) == expected.map(\.lastEventID), "\(testCase.source)")
        }
        switch testCase.expect.opens {
        case true?:
            #expect(failure == nil, "\(testCase.source): \(failure.map { "\($0)" } ?? "")")
        case false?:
            // A status other than 200 or a Content-Type other than text/event-stream fails the
            // connection for good; 204 ends the source too, without an error (Sluice's choice:
            // a server says "no more" with it).
            #expect(events.isEmpty)
            #expect((failure != nil) == (testCase.status != 204), "\(testCase.source): \(failure.map { "\($0)" } ?? "no error")")
        case nil:
            #expect(failure == nil, "\(testCase.source): \(failure.map { "\($0)" } ?? "")")
        }
        if testCase.expect.reconnects == false {
            #expect(headers.count == 1, "\(testCase.source): connected \(headers.count) times")
        }
        if let expected = testCase.expect.lastEventIDHeaders {
            #expect(Array(headers.prefix(expected.count)) == expected, "\(testCase.source): \(headers)")
        }
    }
}
