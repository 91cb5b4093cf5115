public import CoreMetrics
import Metrics
import Foundation
public import SluiceCore
import SluiceReachability
import Synchronization

/// Reports every task of a session manager to swift-metrics, whichever backend the process
/// bootstrapped (Prometheus, OpenTelemetry, StatsD): an `EventMonitor` to pass to
/// `SessionManager(pipeline:monitors:)`.
///
/// Per task, when it ends:
/// - `sluice_requests_total` (counter) and `sluice_request_duration_seconds` (timer, from the
///   task's start to its end, stages included), labelled `pipeline`, `method` and `status_class`
///   (`1xx` to `5xx`, or `error` for a task that ended without a response);
/// - `sluice_request_bytes_sent_total` and `sluice_response_bytes_received_total` (counters, every
///   exchange of the task, redirects and retries included, heads included), labelled `pipeline`
///   and `method`;
/// - `sluice_request_errors_total` (counter) for a task that failed, labelled `pipeline`,
///   `method` and `kind` (the error's kind as a token: `connection_failed`, `timeout`,
///   `trust_evaluation_failed`, `cancelled`).
///
/// - `sluice_connectivity_wait_seconds` (timer, labelled `pipeline`) for a task that waited for a
///   route to its host (the `reachability` stage with `waits-for-connectivity`), when the route came.
///
/// Labels never carry a URL, a header or a status code: their number stays small whatever the
/// traffic. A method outside the standard ones is labelled `other`, as OpenTelemetry's HTTP
/// conventions say, so a client cannot grow the label set with made-up methods.
public final class MetricsMonitor: EventMonitor {
    private struct Running {
        var start: ContinuousClock.Instant
        var sent: Int64 = 0
        var received: Int64 = 0
    }

    /// The `pipeline` label.
    public let pipeline: String
    private let factory: any MetricsFactory
    private let running = Mutex<[TaskID: Running]>([:])

    /// Creates a monitor.
    /// - Parameters:
    ///   - pipeline: the `pipeline` label of every metric.
    ///   - factory: where the metrics go; the bootstrapped `MetricsSystem` by default.
    public init(pipeline: String, factory: any MetricsFactory = MetricsSystem.factory) {
        self.pipeline = pipeline
        self.factory = factory
    }

    /// The methods labelled as themselves; any other is `other`.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// Records the event.
    public func receive(_ event: TaskEvent) {
        switch event.kind {
        case .created:
            running.withLock { $0[event.taskID] = Running(start: event.time) }
        case .transferFinished(let metrics?):
            running.withLock { tasks in
                tasks[event.taskID]?.sent += metrics.bytesSent
                tasks[event.taskID]?.received += metrics.bytesReceived
            }
        case .completed(let status):
            finish(event, statusClass: "\(status / 100)xx", error: nil)
        case .failed(let error):
            finish(event, statusClass: "error", error: MetricsMonitor.token(error.kind.description))
        case .cancelled:
            finish(event, statusClass: "error", error: "cancelled")
        case .note(let note):
            if let wait = note.connectivityWait {
                Timer(label: "sluice_connectivity_wait_seconds", dimensions: [("pipeline", pipeline)], factory: factory).record(duration: wait.duration)
            }
        default:
            break
        }
    }

    private func finish(_ event: TaskEvent, statusClass: String, error: String?) {
        guard let task = running.withLock({ $0.removeValue(forKey: event.taskID) }) else { return }
        let method = MetricsMonitor.knownMethods.contains(event.request.method.rawValue) ? event.request.method.rawValue : "other"
        let base = [("pipeline", pipeline), ("method", method)]
        let withStatus = base + [("status_class", statusClass)]
        Counter(label: "sluice_requests_total", dimensions: withStatus, factory: factory).increment()
        Timer(label: "sluice_request_duration_seconds", dimensions: withStatus, factory: factory)
            .record(duration: event.time - task.start)
        Counter(label: "sluice_request_bytes_sent_total", dimensions: base, factory: factory).increment(by: Int(task.sent))
        Counter(label: "sluice_response_bytes_received_total", dimensions: base, factory: factory).increment(by: Int(task.received))
        if let error {
            Counter(label: "sluice_request_errors_total", dimensions: base + [("kind", error)], factory: factory).increment()
        }
    }

    /// `connection failed` → `connection_failed`.
    static func token(_ text: String) -> String {
        String(text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
