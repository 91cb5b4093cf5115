import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner

@Suite("max-response-size: sizes as written, where the limit comes from, and what passing it does")
struct ResponseSizeLimitTests {
    @Test("sizes: bytes, SI and IEC units, fractions rounded down; anything else refused")
    func byteCounts() {
        #expect(ByteCountText.parse("1048576") == 1_048_576)
        #expect(ByteCountText.parse("0") == 0)
        #expect(ByteCountText.parse("512B") == 512)
        #expect(ByteCountText.parse("512KiB") == 524_288)
        #expect(ByteCountText.parse("10MB") == 10_000_000)
        #expect(ByteCountText.parse("1.5GiB") == 1_610_612_736)
        #expect(ByteCountText.parse("2GB") == 2_000_000_000)
        #expect(ByteCountText.parse("0.5B") == 0)
        for bad in ["", "MB", "-1", "1 MB", "1mb", "1TB", "1e3", "0x10", "9999999999GiB", "1..2KB", "١٢"] {
            #expect(ByteCountText.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("the pipeline's limit fills requests that set none; output: names the file, relative to the pipeline")
    func fromThePipelineFile() throws {
        let file = try PipelineFile.load(text: """
            max-response-size: 10MiB
            stages:
              - url-resolution: { base-url: "http://127.0.0.1:1/" }
            requests:
              - name: small
                path: a
              - name: big
                path: b
                max-response-size: 2GB
                output: downloads/${name}.bin
            """, path: "p.yaml", directory: URL(fileURLWithPath: "/srv/pipelines"), variables: ["name": "b"])
        #expect(file.spec.maxResponseSize == 10 << 20)
        #expect(try file.makePipeline(transport: InMemoryTransport { Response(status: 200, url: $0.url) }).maxResponseSize == 10 << 20)
        let small = try file.spec.requests[0].makeRequest(scope: file.scope, directory: URL(fileURLWithPath: "/srv/pipelines"))
        #expect(small.maxResponseSize == nil)
        #expect(small.destination == .memory)
        let big = try file.spec.requests[1].makeRequest(scope: file.scope, directory: URL(fileURLWithPath: "/srv/pipelines"))
        #expect(big.maxResponseSize == 2_000_000_000)
        #expect(big.destination == .file(URL(fileURLWithPath: "/srv/pipelines/downloads/b.bin")))
    }

    @Test("where a task's limit comes from: the request, the pipeline, else 64 MiB for a body in memory and none for a file")
    func limitPrecedence() async throws {
        let seen = Locked<[Int64?]>([])
        let transport = InMemoryTransport { request in
            seen.withLock { $0.append(request.maxResponseSize) }
            return Response(status: 200, url: request.url)
        }
        let url = URL(string: "http://example.test/")!
        var own = Request(url: url)
        own.maxResponseSize = 5
        let toFile = Request(url: url, destination: .file(URL(fileURLWithPath: "/tmp/sluice-limit-\(UUID().uuidString)")))
        let byDefault = SessionManager(pipeline: try Pipeline(transport: transport))
        for request in [Request(url: url), own, toFile] { _ = try await byDefault.send(request) }
        let pipelineLimit = SessionManager(pipeline: try Pipeline(transport: transport, maxResponseSize: 7))
        for request in [Request(url: url), toFile] { _ = try await pipelineLimit.send(request) }
        let unlimited = SessionManager(pipeline: try Pipeline(transport: transport, maxInMemoryResponseSize: nil))
        _ = try await unlimited.send(Request(url: url))
        #expect(seen.withLock { $0 } == [64 << 20, 5, nil, 7, 7, nil])
    }

    @Test("max-response-size: none lifts every limit, the in-memory default included")
    func noLimit() throws {
        let file = try PipelineFile.load(text: """
            max-response-size: none
            requests:
              - path: http://h/
                max-response-size: none
            """, path: "p.yaml")
        #expect(file.spec.maxResponseSize == Int64.max)
        #expect(file.spec.requests[0].maxResponseSize == Int64.max)
    }

    @Test("a size that is not one, or an output that is not a path, is a load-time error at its line")
    func badValues() {
        do {
            _ = try PipelineFile.load(text: """
                max-response-size: lots
                requests:
                  - path: a
                    max-response-size: [1]
                    output: { file: x }
                """, path: "p.yaml")
            Issue.record("the pipeline loaded")
        } catch {
            let messages = error.diagnostics.map { "\($0.mark): \($0.message)" }
            #expect(messages.contains("1:20: max-response-size must be a size such as 1048576, 512KiB, 10MB or 1GiB, or none"))
            #expect(messages.contains("4:24: max-response-size must be a size such as 1048576, 512KiB, 10MB or 1GiB, or none"))
            #expect(messages.contains("5:13: output must be a path: the file the response body is written to"))
        }
    }

    @Test("the in-memory transport holds a body to the limit as libcurl's does; the request's own limit wins")
    func inMemoryLimit() async throws {
        let transport = InMemoryTransport { Response(status: 200, body: Data(count: 2048), url: $0.url) }
        let manager = SessionManager(pipeline: try Pipeline(transport: transport, maxResponseSize: 1024))
        let error = await #expect(throws: SluiceError.self) {
            try await manager.send(Request(url: URL(string: "http://example.test/big")!))
        }
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.stage == "transport")
        #expect(error?.url?.absoluteString == "http://example.test/big")
        #expect(error?.message.contains("1024 bytes") == true)
        var allowed = Request(url: URL(string: "http://example.test/big")!)
        allowed.maxResponseSize = 4096
        #expect(try await manager.send(allowed).body.count == 2048)
    }
}
