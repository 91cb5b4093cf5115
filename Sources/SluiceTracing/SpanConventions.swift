import Foundation
import SluiceCore
import Tracing

/// OpenTelemetry's semantic conventions for HTTP client spans, as both tracing stages write them.
enum SpanConventions {
    /// Sends `request` on through `next` inside a new client span, child of the current one: the
    /// request described and the span's context propagated to the server, then the response or
    /// the error described. `finish` adds what the calling stage knows (the response is `nil` when
    /// the exchange failed) before the span ends.
    static func withClientSpan(
        for request: Request, context: TaskContext, tracer: any Tracer,
        next: (Request, TaskContext) async throws -> Response,
        finish: (any Span, Response?) -> Void
    ) async throws -> Response {
        let span = tracer.startSpan(request.method.rawValue, context: InstrumentationContext.current ?? .topLevel, ofKind: .client)
        describe(request, on: span)
        var request = request
        propagate(span.context, into: &request, with: tracer)
        var response: Response?
        defer {
            finish(span, response)
            span.end()
        }
        let received: Response
        do {
            received = try await InstrumentationContext.$current.withValue(span.context) {
                try await next(request, context)
            }
        } catch {
            describe(error, on: span)
            throw error
        }
        describe(received, on: span)
        response = received
        return received
    }

    static func describe(_ request: Request, on span: any Span) {
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.full"] = withoutCredentials(request.url)
        span.attributes["server.address"] = request.url.host
        let scheme = request.url.scheme?.lowercased()
        if let port = request.url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil) {
            span.attributes["server.port"] = Int64(port)
        }
    }

    static func describe(_ response: Response, on span: any Span) {
        span.attributes["http.response.status_code"] = Int64(response.status)
        if response.status >= 400 {
            span.attributes["error.type"] = String(response.status)
            span.setStatus(SpanStatus(code: .error))
        }
    }

    static func describe(_ error: any Error, on span: any Span) {
        let kind = (error as? SluiceError)?.kind.description ?? String(describing: type(of: error))
        span.attributes["error.type"] = kind
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error, message: (error as? SluiceError)?.message))
    }

    /// Writes the span's context into the request's headers the way the tracer's instrument
    /// propagates it, replacing what an outer span wrote.
    static func propagate(_ context: InstrumentationContext, into request: inout Request, with tracer: any Tracer) {
        tracer.inject(context, into: &request.headers, using: HeaderInjector())
    }

    /// `url.full` without user name and password, as the conventions require.
    static func withoutCredentials(_ url: URL) -> String {
        guard url.user != nil || url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.user = nil
        components.password = nil
        return components.url?.absoluteString ?? url.absoluteString
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Sets one header field per propagated value.
struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier[key] = value
    }
}

extension HTTPVersion {
    /// The version as `network.protocol.version` writes it: `1.1`, `2`, `3`.
    var conventionName: String {
        switch self {
        case .http1_0: "1.0"
        case .http1_1: "1.1"
        case .http2: "2"
        case .http3: "3"
        default: "unknown"
        }
    }
}
