import Foundation

/// The transport's end of a ``ResponseBodyStream``: what a transport outside this package writes a
/// streamed response body into (``ResponseBodyStream/makeStream(bufferSize:url:transport:)``).
///
/// ``write(_:)`` suspends while the reader is `bufferSize` bytes behind, and returns once it has
/// drained half of that, so a fast server waits for a slow reader with flat memory. When the
/// reader leaves (it stops iterating, its task is cancelled, the response is dropped unread),
/// ``write(_:)`` throws `.cancelled`: the transport then closes the exchange. Writes must not
/// overlap: one task writes, one piece at a time.
public final class ResponseBodyWriter: Sendable {
    private struct State {
        var waiter: CheckedContinuation<Void, Never>?
        var resumed = false
        var cancelled = false
    }

    private let channel: ResponseBodyChannel
    private let url: URL?
    private let state = Locked(State())

    init(channel: ResponseBodyChannel, url: URL?) {
        self.channel = channel
        self.url = url
        channel.attach(ResponseBodyChannel.Producer(
            resume: { [state] in state.withLock { $0.resumed = true; return $0.waiter.take() }?.resume() },
            cancel: { [state] in state.withLock { $0.cancelled = true; return $0.waiter.take() }?.resume() }
        ))
    }

    /// Hands a piece of the body to the reader, waiting while its buffer is full.
    /// - Throws: `.cancelled` once the reader has left.
    public func write(_ piece: Data) async throws(SluiceError) {
        guard !piece.isEmpty else { return }
        while true {
            if state.withLock({ $0.cancelled }) { throw .cancelled(url: url, stage: "transport") }
            state.withLock { $0.resumed = false }
            if piece.withUnsafeBytes({ channel.offer($0) }) { return }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.resumed || state.cancelled { return true }
                    state.waiter = waiter
                    return false
                }
                if ready { waiter.resume() }
            }
        }
    }

    /// Ends the body: the reader gets what is buffered, then the end of the sequence.
    /// `metrics` become the stream's ``ResponseBodyStream/finalMetrics``.
    public func finish(metrics: TransferMetrics? = nil) {
        channel.finish(.success(metrics))
    }

    /// Ends the body with an error: the reader gets what is buffered, then `error`.
    public func fail(_ error: SluiceError) {
        channel.finish(.failure(error))
    }
}

extension ResponseBodyStream {
    /// A stream for a transport to fill, and its writer: what a transport returns as
    /// `Response.bodyStream` for a request whose destination is
    /// ``ResponseDestination/stream(bufferSize:)``.
    /// - Parameters:
    ///   - bufferSize: the most bytes held for a reader that falls behind (the destination's).
    ///   - url: the URL errors name.
    ///   - transport: the transport, kept alive while the body is read.
    public static func makeStream(bufferSize: Int, url: URL?, transport: (any Transport)? = nil) -> (stream: ResponseBodyStream, writer: ResponseBodyWriter) {
        let channel = ResponseBodyChannel(capacity: bufferSize)
        return (ResponseBodyStream(channel: channel, url: url, transport: transport), ResponseBodyWriter(channel: channel, url: url))
    }
}
