import Foundation
public import SluiceCore
public import Tracing

/// Starts a span for every task, as AsyncHTTPClient does, following OpenTelemetry's semantic
/// conventions for HTTP clients, and propagates it to the server through the tracer's instrument
/// (`traceparent` with swift-otel's W3C propagator).
///
/// It runs at the top of the chain, so its span covers every stage: the span is named after the
/// method, of kind `client`, with `http.request.method`, `url.full` (credentials removed),
/// `server.address`, `server.port`, then `http.response.status_code` (a status of 400 or more
/// sets the span's status to error) or `error.type` (the `SluiceError` kind) and the error
/// recorded. What the stages noted (a retry's attempt, a redirect hop, a token refresh, the
/// cache's outcome) becomes an event of the span, and each stage's time an event too. Add
/// ``ExchangeTracing`` (which runs at the bottom) for a child span per exchange: retries and redirect hops then
/// show as spans of their own.
///
/// ```swift
/// let pipeline = try Pipeline {
///     RequestTracing()
///     Retry()
///     ExchangeTracing()
/// }
/// ```
public struct RequestTracing: Stage {
    /// The tracer spans go to; the bootstrapped one (`InstrumentationSystem.tracer`) by default.
    public let tracer: any Tracer

    /// `tracing`.
    public var name: String { "tracing" }

    /// `StagePlacement.callObserver`: at the top, so its span covers every stage.
    public static var placement: StagePlacement { .callObserver }

    /// Creates the stage.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// Runs the rest of the chain inside the task's span.
    public func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        try await SpanConventions.withClientSpan(for: request, context: context, tracer: tracer, next: next) { span, _ in
            for note in context.metrics.notes {
                span.addEvent(SpanEvent(name: "\(note.stage).\(note.name)", attributes: ["sluice.note": .string(note.detail)]))
            }
            for stage in context.metrics.stages where stage.invocations > 0 {
                span.addEvent(SpanEvent(name: "stage \(stage.name)", attributes: [
                    "sluice.stage.duration_ns": .int64(Int64(SpanConventions.nanoseconds(stage.duration))),
                ]))
            }
        }
    }
}
