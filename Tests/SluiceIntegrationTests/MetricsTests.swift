import Foundation
import MetricsTestKit
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import SluiceMetrics
import Testing

@Suite("swift-metrics: counts, durations, bytes and errors per pipeline, method and status class")
struct MetricsTests {
    @Test("three requests to httpbin and one to a closed port, read back through MetricsTestKit")
    func recorded() async throws {
        let servers = try TestServers.load()
        let metrics = TestMetrics()
        let manager = SessionManager(
            pipeline: try Pipeline(transport: servers.trustingTransport()),
            monitors: [MetricsMonitor(pipeline: "billing", factory: metrics)]
        )
        _ = try await manager.send(Request(url: servers.httpbin("get")))
        _ = try await manager.send(Request(url: servers.httpbin("status/404")))
        _ = try await manager.send(Request(method: .post, url: servers.httpbin("post"), body: .data(Data(repeating: 1, count: 5000))))
        _ = try await manager.send(Request(method: HTTPMethod("PURGE"), url: servers.httpbin("anything")))
        let closed = try LoopbackSocket.unusedPort()
        await #expect(throws: SluiceError.self) { _ = try await manager.send(Request(url: URL(string: "http://127.0.0.1:\(closed)/")!)) }

        let get2xx = [("pipeline", "billing"), ("method", "GET"), ("status_class", "2xx")]
        #expect(try metrics.expectCounter("sluice_requests_total", get2xx).totalValue == 1)
        #expect(try metrics.expectCounter("sluice_requests_total", [("pipeline", "billing"), ("method", "GET"), ("status_class", "4xx")]).totalValue == 1)
        #expect(try metrics.expectCounter("sluice_requests_total", [("pipeline", "billing"), ("method", "POST"), ("status_class", "2xx")]).totalValue == 1)
        // A made-up method does not become a label of its own.
        #expect(try metrics.expectCounter("sluice_requests_total", [("pipeline", "billing"), ("method", "other"), ("status_class", "4xx")]).totalValue == 1)
        #expect(try metrics.expectCounter("sluice_requests_total", [("pipeline", "billing"), ("method", "GET"), ("status_class", "error")]).totalValue == 1)
        #expect(try metrics.expectCounter("sluice_request_errors_total", [("pipeline", "billing"), ("method", "GET"), ("kind", "connection_failed")]).totalValue == 1)

        let durations = try metrics.expectTimer("sluice_request_duration_seconds", get2xx)
        #expect(durations.values.count == 1)
        #expect(durations.values[0] > 0)
        let sent = try metrics.expectCounter("sluice_request_bytes_sent_total", [("pipeline", "billing"), ("method", "POST")]).totalValue
        #expect(sent > 5000)
        let received = try metrics.expectCounter("sluice_response_bytes_received_total", [("pipeline", "billing"), ("method", "GET")]).totalValue
        #expect(received > 100)
        // No label holds a URL or a status code.
        for counter in metrics.counters {
            #expect(!counter.dimensions.contains { $0.1.contains("127.0.0.1") || $0.1 == "404" })
        }
    }
}
