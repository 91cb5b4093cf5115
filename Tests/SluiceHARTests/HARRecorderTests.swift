import Foundation
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import Testing
@testable import SluiceHAR

@Suite("har-recorder")
struct HARRecorderTests {
    private static func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString).har").path
    }

    private static func read(_ path: String) throws -> JSONValue {
        try JSONReader().value(from: String(contentsOfFile: path, encoding: .utf8))
    }

    private static let echo = InMemoryTransport { request in
        if request.url.path == "/fail" { throw SluiceError(kind: .connect, stage: "transport", url: request.url, message: "refused") }
        var body = Data(#"{"seen":"the-token-value"}"#.utf8)
        if request.url.path == "/binary" { body = Data([0xFF, 0x00, 0xFE]) }
        return Response(status: 201, headers: ["Content-Type": "application/json", "Set-Cookie": "session=abc"], body: body, url: request.url)
    }

    @Test("the runner's exchanges become HAR entries: request, response, timings; secrets and credential headers hidden")
    func entries() async throws {
        let path = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var registry = StageRegistry.builtIn
        try registry.register(HARModule.self)
        let file = try PipelineFile.load(
            text: """
                stages:
                  - url-resolution: { base-url: "http://api.test/v1/" }
                  - header-injection: { authorization: { bearer: "${env.TOKEN}" } }
                  - serialization: { format: json }
                  - har-recorder: { path: "\(path)" }
                requests:
                  - { name: search, method: GET, path: "items?q=swift&key=${env.TOKEN}" }
                  - { name: create, method: POST, path: items, parameters: { name: widget, token: "${env.TOKEN}" } }
                  - { name: binary, method: GET, path: /binary }
                  - { name: down, method: GET, path: /fail }
                """,
            path: "h.yaml", environment: ["TOKEN": "the-token-value"], registry: registry
        )
        let results = try await PipelineRunner(file: file, transport: Self.echo).run()
        #expect(results.map(\.ok) == [true, true, true, false])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("the-token-value"))
        let log = try #require(try Self.read(path)["log"])
        #expect(log["version"] == "1.2")
        #expect(log["creator"]?["name"] == "sluice")
        #expect(log["pages"]?[0]?["id"] == "page_1")
        let entries = try #require(log["entries"])
        guard case .array(let list) = entries else { throw SluiceError(kind: .decoding, message: "no entries") }
        #expect(list.count == 4)

        let search = try #require(list.first)
        #expect(search["pageref"] == "page_1")
        #expect(search["request"]?["method"] == "GET")
        #expect(search["request"]?["url"] == "http://api.test/v1/items?q=swift&key=***")
        #expect(search["request"]?["queryString"]?[1] == ["name": "key", "value": "***"])
        #expect(text.contains(#""name":"Authorization","value":"Bearer ***""#))
        #expect(search["response"]?["status"] == 201)
        #expect(search["response"]?["content"]?["text"] == #"{"seen":"***"}"#)
        #expect(search["response"]?["content"]?["mimeType"] == "application/json")
        #expect(text.contains(#""name":"Set-Cookie","value":"***""#))
        #expect(search["timings"]?["wait"]?.doubleValue.map { $0 >= 0 } == true)
        #expect(search["timings"]?["ssl"]?.doubleValue == -1)
        #expect(search["time"]?.doubleValue.map { $0 >= 0 } == true)

        let create = list[1]
        #expect(create["request"]?["postData"]?["mimeType"] == "application/json")
        #expect(create["request"]?["postData"]?["text"] == #"{"name":"widget","token":"***"}"#)
        #expect(create["request"]?["bodySize"] == 43)

        #expect(list[2]["response"]?["content"]?["encoding"] == "base64")
        #expect(list[2]["response"]?["content"]?["text"] == "/wD+")

        #expect(list[3]["response"]?["status"] == 0)
        #expect(list[3]["_error"]?.stringValue?.hasPrefix("connection failed in transport") == true)
    }

    @Test("the file is a complete HAR document after every entry, and 200 concurrent tasks leave 200 entries")
    func concurrentAppends() async throws {
        let path = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try HARRecorder(path: path)
        #expect(try Self.read(path)["log"]?["entries"] == [])
        let manager = SessionManager(pipeline: try Pipeline(stages: [recorder], transport: Self.echo, redirects: nil))
        _ = try await manager.send(Request(url: URL(string: "http://a.test/one")!))
        #expect(try Self.read(path)["log"]?["entries"]?[0]?["request"]?["url"] == "http://a.test/one")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { _ = try await manager.send(Request(url: URL(string: "http://a.test/\(index)")!)) }
            }
            try await group.waitForAll()
        }
        guard case .array(let entries)? = try Self.read(path)["log"]?["entries"] else {
            Issue.record("no entries")
            return
        }
        #expect(entries.count == 201)
    }

    @Test("timings from libcurl's timeline: connect holds TLS, a reused connection has no DNS or connect, several exchanges add up")
    func timings() {
        let fresh = TransferMetrics(
            dnsLookup: .milliseconds(2), connect: .milliseconds(3), tlsHandshake: .milliseconds(10), timeToPreTransfer: .milliseconds(16),
            timeToFirstByte: .milliseconds(40), total: .milliseconds(45)
        )
        let first = HARTimings(metrics: [fresh], elapsed: .zero)
        #expect([first.blocked, first.dns, first.connect, first.ssl, first.send, first.wait, first.receive] == [1, 2, 13, 10, 0, 24, 5])
        #expect(first.total == 45)
        let reused = TransferMetrics(timeToPreTransfer: .milliseconds(1), timeToFirstByte: .milliseconds(4), total: .milliseconds(6), connectionReused: true)
        let second = HARTimings(metrics: [reused], elapsed: .zero)
        #expect([second.dns, second.connect, second.ssl] == [-1, -1, -1])
        #expect(second.total == 6)
        let both = HARTimings(metrics: [fresh, reused], elapsed: .zero)
        #expect(both.wait == 27 && both.receive == 7 && both.total == 51)
        let unmeasured = HARTimings(metrics: [], elapsed: .milliseconds(7))
        #expect(unmeasured.wait == 7 && unmeasured.total == 7)
    }

    @Test("a file that cannot be created is refused at the path option")
    func unwritable() throws {
        var registry = StageRegistry.builtIn
        try registry.register(HARModule.self)
        do {
            _ = try PipelineFile.load(text: "stages:\n  - har-recorder: { path: /nonexistent/dir/x.har }\nrequests: []\n", path: "h.yaml", environment: [:], registry: registry)
            Issue.record("an unwritable path was accepted")
        } catch {
            #expect(error.description.hasPrefix("h.yaml:2:21: error: cannot write the HAR file to /nonexistent/dir/x.har: the folder /nonexistent/dir does not exist"))
        }
    }
}
