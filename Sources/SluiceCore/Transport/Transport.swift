/// Moves the bytes of one exchange: the innermost `next` of every pipeline.
///
/// A transport reports what happens during the exchange to `events`, the task's own listener, and
/// returns the response or throws a `SluiceError` whose `stage` is `transport`. It must honour
/// Swift task cancellation by ending the exchange at once with a `.cancelled` error. It asks
/// `events` about trust on every connection before it writes the request, honours the request's
/// ``Request/destination`` (memory, or a stream with ``ResponseBodyStream/makeStream(bufferSize:url:transport:)``),
/// and sends a streamed body (``RequestBodyStream/take()``). A transport never writes files: the
/// pipeline asks it for a stream and writes a download itself, so a `.file` destination given to
/// a transport directly is refused (``SluiceError/fileDestinationAtTransport(url:)``). `TransportConformance` (the `SluiceTransportConformance`
/// library) checks all of it against a live server, for any transport.
public protocol Transport: Sendable {
    /// Sends `request` and returns its response.
    /// - Parameters:
    ///   - request: an absolute `http` or `https` request, as the stages left it.
    ///   - events: the task's listener: where to report the exchange's progress, trust checks and end.
    func execute(_ request: Request, events: any TransportEvents) async throws -> Response

    /// The executor the session manager runs this transport's tasks on, or `nil` for the global
    /// concurrent executor. A transport with an I/O thread offers it, so that a task's stages and
    /// its exchange run on one thread, with no switch between them.
    var executor: (any TaskExecutor)? { get }
    /// Every executor of the transport's own, ``executor`` first: a load spreads its tasks over
    /// them. Empty for a transport without one.
    var executors: [any TaskExecutor] { get }
    /// The transport's executor the calling task runs on, if any: the session manager keeps the
    /// tasks it starts there, so a caller on an I/O thread never leaves it.
    var callersExecutor: (any TaskExecutor)? { get }
    /// The most connections the transport opens to one host at once, when it sets a limit of its
    /// own: requests over it wait inside the transport. A load run checks that its concurrency
    /// fits. `nil` (the default) for a transport with no limit.
    var connectionsPerHost: Int? { get }
}

extension Transport {
    /// No executor of its own: tasks run on the global concurrent executor.
    public var executor: (any TaskExecutor)? { nil }

    /// No limit of its own.
    public var connectionsPerHost: Int? { nil }

    /// ``executor``, if there is one.
    public var executors: [any TaskExecutor] { executor.map { [$0] } ?? [] }

    /// ``executor`` when the calling task prefers it.
    public var callersExecutor: (any TaskExecutor)? {
        guard let executor else { return nil }
        let prefers = withUnsafeCurrentTask { $0?.unownedTaskExecutor == executor.asUnownedTaskExecutor() }
        return prefers ? executor : nil
    }
}
