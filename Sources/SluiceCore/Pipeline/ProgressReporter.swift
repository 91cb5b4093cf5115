import Synchronization

/// Publishes a task's upload and download progress, as a snapshot, a stream and callbacks.
///
/// Progress counts the bytes of the exchange under way; when a stage sends again (a retry), the
/// counts start over. Streams end when the task ends.
public final class ProgressReporter: Sendable {
    private struct State {
        var current = TaskProgress()
        var finished = false
        var nextSubscriber = 0
        var streams: [Int: AsyncStream<TaskProgress>.Continuation] = [:]
        var handlers: [@Sendable (TaskProgress) -> Void] = []
    }

    private let state = Mutex(State())

    /// Creates a reporter at zero.
    public init() {}

    /// The latest progress.
    public var current: TaskProgress {
        state.withLock { $0.current }
    }

    /// A stream of progress updates: the current value first, then every change, keeping only the
    /// newest when the reader falls behind. It finishes when the task ends.
    public func updates() -> AsyncStream<TaskProgress> {
        let (stream, continuation) = AsyncStream.makeStream(of: TaskProgress.self, bufferingPolicy: .bufferingNewest(1))
        let (current, finished, subscriber) = state.withLock { state in
            let subscriber = state.nextSubscriber
            state.nextSubscriber += 1
            if !state.finished {
                state.streams[subscriber] = continuation
            }
            return (state.current, state.finished, subscriber)
        }
        continuation.yield(current)
        if finished {
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.streams.removeValue(forKey: subscriber) }
            }
        }
        return stream
    }

    /// Calls `handler` with every change of progress, on the thread that moved the bytes (for the
    /// libcurl transport, its I/O thread): keep it short and never block in it.
    public func onChange(_ handler: @escaping @Sendable (TaskProgress) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    /// Records new progress and tells subscribers when it changed.
    func update(_ progress: TaskProgress) {
        let subscribers = state.withLock { state -> ([AsyncStream<TaskProgress>.Continuation], [@Sendable (TaskProgress) -> Void])? in
            guard !state.finished, state.current != progress else { return nil }
            state.current = progress
            guard !state.streams.isEmpty || !state.handlers.isEmpty else { return nil }
            return (Array(state.streams.values), state.handlers)
        }
        guard let (streams, handlers) = subscribers else { return }
        for stream in streams { stream.yield(progress) }
        for handler in handlers { handler(progress) }
    }

    /// Ends every stream; later updates are ignored.
    func finish() {
        let streams = state.withLock { state -> [AsyncStream<TaskProgress>.Continuation] in
            state.finished = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
