/// Observes the life of every task of a session manager, as Alamofire's `EventMonitor` and
/// OkHttp's `EventListener` do: creation, each stage entered and left, each exchange's request
/// sent and first byte, and the end.
///
/// Monitors are called synchronously on the thread where the event happens (a task's thread, or
/// the transport's I/O thread for wire events), so they must be thread-safe and quick: record
/// and return.
public protocol EventMonitor: Sendable {
    /// Receives one event.
    func receive(_ event: TaskEvent)
}
