import Foundation
import InMemoryTracing
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import SluiceRetry
import SluiceTracing
import Testing
import Tracing

@Suite("Distributed tracing: a span per task and per exchange, propagated to the server")
struct TracingTests {
    @Test("a request to httpbin: one client span with OpenTelemetry's attributes, and the server receives the exchange span's context")
    func spanAndPropagation() async throws {
        let servers = try TestServers.load()
        let tracer = InMemoryTracer()
        let manager = try servers.manager(stages: [RequestTracing(tracer: tracer), ExchangeTracing(tracer: tracer)])
        let response = try await manager.send(Request(url: servers.httpbin("headers")))
        let spans = tracer.finishedSpans
        #expect(spans.count == 2)
        let task = try #require(spans.first { $0.parentSpanID == nil })
        let exchange = try #require(spans.first { $0.parentSpanID != nil })
        #expect(task.operationName == "GET")
        #expect(task.kind == .client)
        #expect(exchange.parentSpanID == task.spanID)
        #expect(exchange.traceID == task.traceID)
        #expect(task.attributes["http.request.method"]?.toSpanAttribute() == .string("GET"))
        #expect(task.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
        #expect(task.attributes["server.address"]?.toSpanAttribute() == .string("127.0.0.1"))
        #expect(exchange.attributes["network.peer.address"]?.toSpanAttribute() == .string("127.0.0.1"))
        // What the server saw: the exchange span's ids, as this tracer's instrument writes them.
        let headers = try #require(try response.jsonObject()["headers"] as? [String: String])
        #expect(headers["In-Memory-Span-Id"] == exchange.spanID)
        #expect(headers["In-Memory-Trace-Id"] == task.traceID)
    }

    @Test("retries and redirect hops are spans of their own under the task's; a failure sets error.type")
    func retriesAndRedirects() async throws {
        let servers = try TestServers.load()
        let tracer = InMemoryTracer()
        let manager = try servers.manager(stages: [
            RequestTracing(tracer: tracer), Retry(attempts: 3, baseDelay: .milliseconds(10)), ExchangeTracing(tracer: tracer),
        ])
        let key = "trace-\(UUID().uuidString)"
        _ = try await manager.send(Request(url: servers.scenario.appendingPathComponent("flaky/\(key)").appending(queryItems: [URLQueryItem(name: "failures", value: "2")])))
        let flaky = tracer.popFinishedSpans()
        let task = try #require(flaky.first { $0.parentSpanID == nil })
        let attempts = flaky.filter { $0.parentSpanID == task.spanID }
        #expect(attempts.count == 3)
        #expect(attempts.map { $0.attributes["http.response.status_code"]?.toSpanAttribute() } == [.int64(503), .int64(503), .int64(200)])
        #expect(attempts.map { $0.attributes["http.request.resend_count"]?.toSpanAttribute() } == [nil, .int64(1), .int64(2)])
        #expect(task.events.contains { $0.name.hasPrefix("retry.") })

        _ = try await manager.send(Request(url: servers.httpbin("redirect/2")))
        let hops = tracer.popFinishedSpans().filter { $0.parentSpanID != nil }
        #expect(hops.count == 3)
        #expect(hops.compactMap { $0.attributes["url.full"]?.toSpanAttribute() }.count == 3)

        let closed = try LoopbackSocket.unusedPort()
        await #expect(throws: SluiceError.self) { _ = try await manager.send(Request(url: URL(string: "http://user:secret@127.0.0.1:\(closed)/")!)) }
        let failed = try #require(tracer.popFinishedSpans().first { $0.parentSpanID == nil })
        #expect(failed.attributes["error.type"]?.toSpanAttribute() == .string("connection failed"))
        #expect(failed.status?.code == .error)
        #expect(failed.attributes["url.full"]?.toSpanAttribute() == .string("http://127.0.0.1:\(closed)/"))
    }
}
