import Foundation

/// A `text/event-stream` resource read as a sequence of ``ServerSentEvent``s, reconnecting as the
/// HTML standard's EventSource does.
///
/// Each connection is a streamed request through the manager's pipeline (so trust, signing,
/// retries and every other stage apply), sent with `Accept: text/event-stream`,
/// `Cache-Control: no-cache`, and from the second connection on `Last-Event-ID` with the last ID
/// the stream gave. When a connection ends or breaks, the source waits the reconnection time (the
/// stream's last `retry` field, else ``Options/defaultRetry``) and connects again. It stops for
/// good, as the standard says, on an answer other than 200, on a `Content-Type` other than
/// `text/event-stream`, and on 204 No Content, which ends the sequence without error.
///
/// ```swift
/// for try await event in manager.events(Request(url: url)) {
///     print(event.type, event.data)
/// }
/// ```
public struct ServerSentEventSource: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent
    /// What the iteration throws.
    public typealias Failure = SluiceError

    /// How the source connects and reconnects.
    public struct Options: Sendable {
        /// The wait before reconnecting until the stream sets one with `retry`; 3 s, as browsers.
        public var defaultRetry: Duration
        /// The most reconnections in a row without an event between them; `nil` for no limit.
        /// Past it the last connection's error is thrown (or the sequence ends, if it ended cleanly).
        public var maxReconnects: Int?
        /// The most bytes of one line or of one event's data.
        public var maxEventSize: Int

        /// Creates options.
        public init(defaultRetry: Duration = .seconds(3), maxReconnects: Int? = nil, maxEventSize: Int = ServerSentEventParser.defaultMaxEventSize) {
            self.defaultRetry = defaultRetry
            self.maxReconnects = maxReconnects
            self.maxEventSize = maxEventSize
        }
    }

    let manager: SessionManager
    let request: Request
    let options: Options

    /// The iterator: one connection at a time.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: self)
    }

    /// Reads events, connecting and reconnecting as needed.
    public struct Iterator: AsyncIteratorProtocol {
        let source: ServerSentEventSource
        private var body: ResponseBodyStream.Iterator?
        private var parser: ServerSentEventParser
        private var pending: [ServerSentEvent] = []
        /// The stream's reconnection time, once a `retry` field set it; it outlives connections.
        private var retry: Duration?
        private var failedInARow = 0
        private var finished = false
        /// The wait before the next reconnection: the stream's last `retry`, else
        /// ``Options/defaultRetry``.
        public var reconnectionTime: Duration {
            retry ?? source.options.defaultRetry
        }
        /// The head of the latest connection's response (status, headers, metrics); `nil`
        /// before the first.
        public private(set) var response: Response?

        init(source: ServerSentEventSource) {
            self.source = source
            parser = ServerSentEventParser(maxEventSize: source.options.maxEventSize)
        }

        /// The next event; `nil` once the server answered 204 or the reconnections ran out after
        /// a clean end.
        public mutating func next() async throws(SluiceError) -> ServerSentEvent? {
            while !finished {
                if !pending.isEmpty {
                    failedInARow = 0
                    return pending.removeFirst()
                }
                if body == nil {
                    try await connect()
                    continue
                }
                do {
                    guard let piece = try await body?.next() else {
                        try await reconnect(after: nil)
                        continue
                    }
                    pending = try parser.consume(piece)
                    retry = parser.reconnectionTime ?? retry
                } catch where !Iterator.reconnectable.contains(error.kind) {
                    finished = true
                    body = nil
                    throw error
                } catch {
                    try await reconnect(after: error)
                }
            }
            return nil
        }

        private mutating func connect() async throws(SluiceError) {
            var request = source.request
            request.headers["Accept"] = "text/event-stream"
            if !request.headers.contains("Cache-Control") { request.headers["Cache-Control"] = "no-cache" }
            if !parser.lastEventID.isEmpty { request.headers["Last-Event-ID"] = parser.lastEventID }
            let response: Response
            do {
                response = try await source.manager.stream(request)
            } catch {
                let failure = SluiceError.wrapping(error, stage: nil, url: request.url)
                guard Iterator.reconnectable.contains(failure.kind) else {
                    finished = true
                    throw failure
                }
                try await reconnect(after: failure)
                return
            }
            self.response = response
            self.response?.bodyStream = nil
            if response.status == 204 {
                finished = true
                return
            }
            let mediaType = response.headers["Content-Type"].flatMap(MediaType.init(parsing:))
            guard response.status == 200, mediaType?.essence == "text/event-stream" else {
                finished = true
                let what = response.status == 200
                    ? "its Content-Type is \(response.headers["Content-Type"] ?? "missing"), not text/event-stream"
                    : "it answered \(response.status), not 200"
                throw SluiceError(
                    kind: response.status == 200 ? .unacceptableContentType : .unacceptableStatus, stage: "server-sent-events",
                    url: request.url, message: "the event stream cannot be read: \(what)", response: response
                )
            }
            body = response.bodyStream?.makeAsyncIterator()
            parser = ServerSentEventParser(maxEventSize: source.options.maxEventSize, lastEventID: parser.lastEventID)
        }

        /// The failures of a connection that a new one may not have: the network's, not the
        /// request's, the trust's or the caller's.
        static let reconnectable: Set<SluiceError.Kind> = [.dns, .connect, .connectTimeout, .timeout, .connectionLost, .transport]

        /// Waits the reconnection time, then lets the next call connect; past the limit, ends or
        /// throws `error`.
        private mutating func reconnect(after error: SluiceError?) async throws(SluiceError) {
            body = nil
            failedInARow += 1
            if let limit = source.options.maxReconnects, failedInARow > limit {
                finished = true
                if let error { throw error }
                return
            }
            let wait = reconnectionTime
            do {
                try await Task.sleep(for: wait)
            } catch {
                finished = true
                throw SluiceError.cancelled(url: source.request.url, stage: "server-sent-events")
            }
        }
    }
}

extension SessionManager {
    /// The `text/event-stream` resource at `request` as a sequence of events, reconnecting as
    /// the HTML standard's EventSource does (see ``ServerSentEventSource``). Nothing is sent until
    /// the iteration starts.
    public func events(_ request: Request, options: ServerSentEventSource.Options = .init()) -> ServerSentEventSource {
        ServerSentEventSource(manager: self, request: request, options: options)
    }
}
