import Foundation
import SluiceCore
import SluiceStageRegistry

/// Sends a request again after a transient failure: a status such as 503, or a connection
/// refused, reset or timed out.
///
/// Waits follow exponential backoff with full jitter: before retry `n` the stage waits a random
/// time between zero and `min(maxDelay, baseDelay × 2ⁿ⁻¹)`. A `Retry-After` header (seconds or an
/// HTTP-date) replaces that wait when it asks for no more than `maxDelay`; when it asks for more,
/// the response is returned rather than retried early. Only idempotent methods are retried
/// unless `methods` says otherwise. Trust failures, TLS failures, cancellations and every other
/// error are never retried. Each retry is a note in the task's events and metrics
/// (`TaskContext/note(_:_:stage:)`), and each attempt's exchange is in its transfer metrics.
///
/// It runs below the stages that build the request (serialization, signing), so each attempt
/// sends the same bytes, and above `redirects`, wherever it is listed (`StagePlacement/retry`).
public struct Retry: Stage {
    /// The default number of attempts.
    public static let defaultAttempts = 3
    /// The default first backoff ceiling.
    public static let defaultBaseDelay = Duration.milliseconds(200)
    /// The default longest wait.
    public static let defaultMaxDelay = Duration.seconds(10)
    /// The statuses retried by default: 408, 429, 500, 502, 503, 504.
    public static let defaultStatuses = StatusCodeSet(codes: [408, 429, 500, 502, 503, 504])
    /// The methods retried by default, RFC 9110's idempotent ones in its order: GET, HEAD, PUT,
    /// DELETE, OPTIONS, TRACE.
    public static let defaultMethods: [HTTPMethod] = [.get, .head, .put, .delete, .options, .trace]
    /// The idempotent methods of RFC 9110, ``defaultMethods`` as a set.
    public static let idempotentMethods: Set<HTTPMethod> = Set(defaultMethods)
    /// The error kinds retried: a connection refused or timed out, a connection lost, a timeout.
    public static let transientErrors: [SluiceError.Kind] = [.connect, .connectTimeout, .connectionLost, .timeout]

    /// How many times a request is sent at most, the first time included.
    public var attempts: Int
    /// The first backoff ceiling.
    public var baseDelay: Duration
    /// The longest wait between attempts.
    public var maxDelay: Duration
    /// The statuses retried.
    public var statuses: StatusCodeSet
    /// The methods retried.
    public var methods: Set<HTTPMethod>

    private let jitter: @Sendable (Double) -> Double
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date

    public var name: String { "retry" }

    /// `StagePlacement/retry`: above redirects, so an attempt is the whole redirect chain, and below signing, so each attempt sends the same bytes.
    public static var placement: StagePlacement { .retry }

    /// Retries: two would multiply the attempts.
    public var claims: [String] { ["retries"] }

    /// Creates the stage.
    /// - Parameters:
    ///   - attempts: how many times a request is sent at most, the first time included (at least 1).
    ///   - baseDelay: the first backoff ceiling, doubled for each retry.
    ///   - maxDelay: the longest wait between attempts.
    ///   - statuses: the statuses retried.
    ///   - methods: the methods retried; RFC 9110's idempotent ones by default.
    ///   - jitter: a random number between zero and its argument; the system's generator by default.
    ///   - sleep: waits; `Task.sleep`, which ends early with the task's cancellation, by default.
    ///   - now: the current time, against which `Retry-After` dates are measured.
    public init(
        attempts: Int = Retry.defaultAttempts,
        baseDelay: Duration = Retry.defaultBaseDelay,
        maxDelay: Duration = Retry.defaultMaxDelay,
        statuses: StatusCodeSet = Retry.defaultStatuses,
        methods: Set<HTTPMethod> = Retry.idempotentMethods,
        jitter: @escaping @Sendable (Double) -> Double = { Double.random(in: 0...$0) },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.statuses = statuses
        self.methods = methods
        self.jitter = jitter
        self.sleep = sleep
        self.now = now
    }

    public func handle(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        var attempt = 1
        while true {
            let outcome: Result<Response, any Error>
            do {
                outcome = .success(try await next(request, context))
            } catch {
                outcome = .failure(error)
            }
            guard methods.contains(request.method), let reason = reason(toRetry: outcome) else {
                return try outcome.get()
            }
            guard attempt < attempts else {
                context.note("gave-up", "gave up after \(attempts) attempts; the last ended with \(reason)", stage: name)
                return try outcome.get()
            }
            let delay: Duration
            if let header = response(of: outcome)?.headers["Retry-After"], let asked = RetryAfter.delay(header, now: now()) {
                guard asked <= maxDelay else {
                    context.note("not-retried", "\(reason) asks to retry after \(Retry.text(asked)), more than max-delay \(Retry.text(maxDelay))", stage: name)
                    return try outcome.get()
                }
                delay = asked
            } else {
                delay = backoff(beforeRetry: attempt)
            }
            attempt += 1
            context.note("attempt", "attempt \(attempt) of \(attempts) after \(reason), waiting \(Retry.text(delay))", stage: name)
            try await sleep(delay)
        }
    }

    /// The wait before retry `retry` (1 for the first): a random time up to the backoff ceiling.
    public func backoff(beforeRetry retry: Int) -> Duration {
        let ceiling = min(DurationText.milliseconds(maxDelay), DurationText.milliseconds(baseDelay) * pow(2, Double(min(retry - 1, 62)))) / 1000
        return .milliseconds(Int((jitter(ceiling) * 1000).rounded()))
    }

    /// Why the outcome is worth another attempt, or `nil` when it is not.
    private func reason(toRetry outcome: Result<Response, any Error>) -> String? {
        switch outcome {
        case .success(let response):
            return statuses.contains(response.status) ? "status \(response.status)" : nil
        case .failure(let error as SluiceError):
            if Retry.transientErrors.contains(error.kind) { return error.kind.description }
            if error.kind == .unacceptableStatus, let status = error.response?.status, statuses.contains(status) {
                return "status \(status)"
            }
            return nil
        case .failure:
            return nil
        }
    }

    private func response(of outcome: Result<Response, any Error>) -> Response? {
        switch outcome {
        case .success(let response): response
        case .failure(let error): (error as? SluiceError)?.response
        }
    }

    /// `1500 ms`; whole seconds past what milliseconds in an `Int` hold (a server's
    /// `Retry-After: 99999999999999999999`).
    static func text(_ duration: Duration) -> String {
        let milliseconds = DurationText.milliseconds(duration)
        return milliseconds < 1e15 ? "\(Int(milliseconds.rounded())) ms" : "\(duration.components.seconds) s"
    }
}
