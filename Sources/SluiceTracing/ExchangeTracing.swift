import Foundation
public import SluiceCore
public import Tracing

/// A child span per exchange of a task: each redirect hop and each retry's attempt is a span of
/// its own under ``RequestTracing``'s, with OpenTelemetry's HTTP client attributes for that
/// exchange (`url.full` of the hop, `http.request.resend_count` from the second attempt on,
/// `network.peer.address` and `network.protocol.version` from the transfer), and the server is
/// sent this span's context, so its spans hang under the attempt that reached it.
///
/// A hop stage at the bottom of the chain, wherever it is listed: below `redirects` and `retry`.
public struct ExchangeTracing: Stage {
    /// The tracer spans go to; the bootstrapped one by default.
    public let tracer: any Tracer

    /// `exchange-tracing`.
    public var name: String { "exchange-tracing" }

    /// `StagePlacement.exchangeObserver`: at the bottom, a span per exchange.
    public static var placement: StagePlacement { .exchangeObserver }

    /// Creates the stage.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// Sends the exchange inside a span of its own.
    public func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        let attempt = context.storage[ExchangeCount.self] ?? 0
        context.storage[ExchangeCount.self] = attempt + 1
        return try await SpanConventions.withClientSpan(for: request, context: context, tracer: tracer, next: next) { span, response in
            if attempt > 0 {
                span.attributes["http.request.resend_count"] = Int64(attempt)
            }
            if let metrics = response?.metrics {
                span.attributes["network.peer.address"] = metrics.remoteAddress
                span.attributes["network.peer.port"] = metrics.remotePort.map { Int64($0) }
                span.attributes["network.protocol.version"] = metrics.httpVersion.conventionName
            }
        }
    }

    /// How many exchanges the task has sent so far.
    private enum ExchangeCount: TaskStorageKey {
        typealias Value = Int
    }
}
