import Foundation
import MallocInterposerSwift
import Sluice
import SluiceJSONPath
import SluicePipelineFiles
import SluiceRunner

/// `sluice-allocation-counts SERVERS_JSON`: the mallocs of each hot path, per iteration, after a
/// warm-up (their number, and the bytes they asked for), and the bytes each task holds while it
/// waits in flight, counted by malloc-interposer over the whole process (the I/O thread included),
/// printed as one JSON object. `scripts/allocation-counts` builds it in release mode and holds each figure
/// to its threshold (`Tests/AllocationCounts/thresholds.json`), as swift-nio's
/// `test_01_allocation_counts.sh` does.
///
/// The paths:
/// - `send-in-memory`: a task through URL resolution, header injection and JSON decoding, over the
///   in-memory transport: the chain, the manager, the task context, no socket.
/// - `send-libcurl`: a keep-alive GET of a small file from nginx over libcurl: the transport's
///   transfer, its callbacks and the I/O thread's hop.
/// - `load-pipeline`: a small pipeline file read and checked.
/// - `jsonpath-select`: a JSONPath query with a filter over a small document.
/// - `send-hop-stages`: a redirected task through HSTS, cookies and redirects, over the in-memory
///   transport: the hop stages' own work.
/// - `run-pipeline`: a pipeline file's request run by `PipelineRunner` over the in-memory transport,
///   its expectation judged and its value captured.
/// - `in-flight-in-memory`: 200 tasks of the in-memory chain held in the transport at once: the
///   bytes each holds (`held`), its task, context and async frames, what the `@inline(never)`
///   helpers keep small.
/// - `in-flight-libcurl`: 50 tasks held mid-body by the scenario server (`/conformance/hold`),
///   libcurl's connection buffers included.
@main
enum AllocationCounts {
    static func main() async throws {
        guard CommandLine.arguments.count == 2, let data = FileManager.default.contents(atPath: CommandLine.arguments[1]),
            let servers = try? JSONDecoder().decode([String: AnyServer].self, from: data),
            let nginx = servers["nginxHTTP"]?.url, let scenario = servers["scenario"]?.url
        else {
            FileHandle.standardError.write(Data("usage: sluice-allocation-counts SERVERS_JSON (scripts/test-servers' servers.json)\n".utf8))
            exit(2)
        }
        MallocInterposerSwift.initialize()
        var figures: [String: [String: Int]] = [:]
        figures["send-in-memory"] = try await inMemory()
        figures["send-libcurl"] = try await libcurl(nginx)
        figures["send-hop-stages"] = try await hopStages()
        figures["run-pipeline"] = try await runPipeline()
        figures["load-pipeline"] = try count(iterations: 200) { try loadPipeline() }
        figures["jsonpath-select"] = try count(iterations: 2_000) { try selectJSONPath() }
        figures["in-flight-in-memory"] = try await inFlightInMemory(tasks: 200)
        figures["in-flight-libcurl"] = try await inFlightLibcurl(scenario, tasks: 50)
        let json = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }

    /// The mallocs of `iterations` runs of `body` after as many to warm up, per run, rounded up:
    /// `mallocs` (calls) and `bytes` (what they asked for).
    static func count(iterations: Int, _ body: () throws -> Void) throws -> [String: Int] {
        for _ in 0..<iterations { try body() }
        MallocInterposerSwift.hook()
        for _ in 0..<iterations { try body() }
        MallocInterposerSwift.unhook()
        return perIteration(iterations)
    }

    /// As ``count(iterations:_:)``, for an async path.
    static func count(iterations: Int, _ body: () async throws -> Void) async throws -> [String: Int] {
        for _ in 0..<iterations { try await body() }
        MallocInterposerSwift.hook()
        for _ in 0..<iterations { try await body() }
        MallocInterposerSwift.unhook()
        return perIteration(iterations)
    }

    private static func perIteration(_ iterations: Int) -> [String: Int] {
        let statistics = MallocInterposerSwift.getStatistics()
        MallocInterposerSwift.reset()
        return [
            "mallocs": (statistics.mallocCount + iterations - 1) / iterations,
            "bytes": (statistics.mallocBytesCount + iterations - 1) / iterations,
        ]
    }

    static func inMemory() async throws -> [String: Int] {
        let body = Data(#"{"id": 42, "name": "sluice"}"#.utf8)
        let transport = InMemoryTransport { request in
            Response(status: 200, headers: ["Content-Type": "application/json"], body: body, url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(transport: transport) {
            try URLResolution(baseURL: URL(string: "http://example.com/api/")!)
            HeaderInjection(headers: ["X-Client": "allocation-counts"])
            ResponseDecoding(format: .json)
        })
        return try await count(iterations: 1_000) {
            _ = try await manager.send(Request("users/42"))
        }
    }

    static func hopStages() async throws -> [String: Int] {
        let transport = InMemoryTransport { request in
            if request.url.path == "/start" {
                return Response(status: 302, headers: ["Location": "/end", "Set-Cookie": "session=abc; Path=/"], url: request.url)
            }
            return Response(status: 200, headers: ["Strict-Transport-Security": "max-age=60"], body: Data("ok".utf8), url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(transport: transport) {
            StrictTransportSecurity()
            CookieHandling()
        })
        return try await count(iterations: 1_000) {
            _ = try await manager.send(Request(url: URL(string: "https://example.com/start")!))
        }
    }

    static func runPipeline() async throws -> [String: Int] {
        let body = Data(#"{"id": 42, "name": "sluice"}"#.utf8)
        let transport = InMemoryTransport { request in
            Response(status: 200, headers: ["Content-Type": "application/json"], body: body, url: request.url)
        }
        let runner = try PipelineRunner(file: try PipelineFile.load(text: pipelineText, path: "/sluice-allocation-counts/counts.yaml", directory: pipelineFolder, environment: [:]), transport: transport)
        return try await count(iterations: 200) {
            guard try await runner.run().allSatisfy(\.ok) else { throw SluiceError(kind: .stage, message: "the pipeline's expectation failed") }
        }
    }

    static func libcurl(_ nginx: URL) async throws -> [String: Int] {
        let transport = CurlTransport()
        let manager = SessionManager(pipeline: try Pipeline(transport: transport) {})
        let url = nginx.appendingPathComponent("hello.txt")
        let figure = try await count(iterations: 1_000) {
            let response = try await manager.send(Request(url: url))
            guard response.status == 200 else { throw SluiceError(kind: .transport, message: "nginx answered \(response.status)") }
        }
        await transport.shutdown()
        return figure
    }

    /// The bytes each of `tasks` tasks holds while all wait in the in-memory transport, which
    /// answers none until every one has arrived.
    static func inFlightInMemory(tasks: Int) async throws -> [String: Int] {
        let gate = Gate()
        let transport = InMemoryTransport { request in
            await gate.arrive()
            return Response(status: 200, url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(transport: transport) {
            try URLResolution(baseURL: URL(string: "http://example.com/api/")!)
            HeaderInjection(headers: ["X-Client": "allocation-counts"])
            ResponseDecoding(format: .json)
        })
        MallocInterposerSwift.hook()
        let handles = (0..<tasks).map { _ in manager.task(Request("users/42")) }
        try await gate.waitFor(tasks)
        let held = liveBytes()
        MallocInterposerSwift.unhook()
        MallocInterposerSwift.reset()
        gate.open()
        for handle in handles { _ = try await handle.value }
        return ["held": held / tasks]
    }

    /// The bytes each of `tasks` tasks holds while the scenario server holds them all mid-body.
    static func inFlightLibcurl(_ scenario: URL, tasks: Int) async throws -> [String: Int] {
        let arrivals = HeadCounter()
        let transport = CurlTransport()
        let manager = SessionManager(pipeline: try Pipeline(transport: transport) {}, monitors: [arrivals])
        let url = scenario.appendingPathComponent("conformance/hold")
        // One round first, so that libcurl's pools and caches exist before the count.
        let warm = (0..<tasks).map { _ in manager.task(Request(url: url)) }
        try await arrivals.waitFor(tasks)
        for handle in warm { handle.cancel() }
        for handle in warm { _ = try? await handle.value }
        arrivals.reset()
        MallocInterposerSwift.hook()
        let handles = (0..<tasks).map { _ in manager.task(Request(url: url)) }
        try await arrivals.waitFor(tasks)
        let held = liveBytes()
        MallocInterposerSwift.unhook()
        MallocInterposerSwift.reset()
        for handle in handles { handle.cancel() }
        for handle in handles { _ = try? await handle.value }
        await transport.shutdown()
        return ["held": held / tasks]
    }

    /// The bytes allocated since the hook and not yet freed.
    static func liveBytes() -> Int {
        let statistics = MallocInterposerSwift.getStatistics()
        return statistics.mallocBytesCount - statistics.freeBytesCount
    }

    static let pipelineText = """
        stages:
          - url-resolution: { base-url: "http://example.com/" }
          - header-injection: { headers: { X-Suite: counts } }
          - response-decoding: { format: json }
        requests:
          - name: user
            path: users/42
            expect:
              status: 200
              body:
                "$.name": sluice
            capture:
              id: $.id
        """

    /// The file's folder, given so that the figure does not depend on the folder the counter
    /// runs in (a relative path is resolved against it, and a longer path allocates more).
    static let pipelineFolder = URL(fileURLWithPath: "/sluice-allocation-counts")

    static func loadPipeline() throws {
        _ = try PipelineFile.load(text: pipelineText, path: "/sluice-allocation-counts/counts.yaml", directory: pipelineFolder, environment: [:])
    }

    static let document: JSONValue = .array((0..<20).map { index in
        .object(JSONObject([("id", .int(index)), ("name", .string("item \(index)")), ("ok", .bool(index % 2 == 0))]))
    })
    static let query = try! JSONPath("$[?@.ok == true && @.id > 5].name")

    static func selectJSONPath() throws {
        _ = try query.select(in: document)
    }
}

/// A server URL of servers.json, which also holds paths and booleans.
struct AnyServer: Decodable {
    let url: URL?

    init(from decoder: any Decoder) throws {
        url = (try? decoder.singleValueContainer().decode(String.self)).flatMap(URL.init(string:))
    }
}

/// Where the in-memory transport holds its requests until all have arrived.
final class Gate: Sendable {
    private let waiting = Locked<(arrived: Int, open: Bool, continuations: [CheckedContinuation<Void, Never>])>((0, false, []))

    func arrive() async {
        await withCheckedContinuation { continuation in
            let resume = waiting.withLock { state -> Bool in
                state.arrived += 1
                if state.open { return true }
                state.continuations.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    /// Returns once `count` requests have arrived.
    func waitFor(_ count: Int) async throws {
        try await waitUntil(count, of: "requests") { waiting.withLock { $0.arrived } }
    }

    func open() {
        let continuations = waiting.withLock { state in
            state.open = true
            defer { state.continuations = [] }
            return state.continuations
        }
        for continuation in continuations { continuation.resume() }
    }
}

/// Counts the tasks whose response head has arrived.
final class HeadCounter: EventMonitor {
    private let heads = Locked(0)

    func receive(_ event: TaskEvent) {
        if case .firstByte = event.kind { heads.withLock { $0 += 1 } }
    }

    func reset() {
        heads.withLock { $0 = 0 }
    }

    /// Returns once `count` heads have arrived.
    func waitFor(_ count: Int) async throws {
        try await waitUntil(count, of: "heads") { heads.withLock { $0 } }
    }
}

/// Returns once `arrived()` reaches `count`; gives up after 10,000 looks 1 ms apart, a bound and
/// not a timing anything is judged by.
func waitUntil(_ count: Int, of what: String, arrived: () -> Int) async throws {
    for _ in 0..<10_000 {
        if arrived() >= count { return }
        try await Task.sleep(for: .milliseconds(1))
    }
    throw SluiceError(kind: .timeout, message: "only \(arrived()) of \(count) \(what) arrived")
}
