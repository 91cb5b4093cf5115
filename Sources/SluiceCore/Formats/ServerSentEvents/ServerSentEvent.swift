/// One event of a `text/event-stream` response, as the HTML standard's EventSource dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: its `event` field, `message` when there was none or it was empty.
    public var type: String
    /// The event's data: its `data` fields joined with line feeds.
    public var data: String
    /// The last event ID when the event was dispatched: the latest `id` field of the stream so
    /// far (an `id` field persists across events), empty when none was given. This is what a
    /// reconnection sends as `Last-Event-ID`.
    public var lastEventID: String
    /// The reconnection time a `retry` field within this event's block set, if one did.
    public var retry: Duration?

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "", retry: Duration? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.retry = retry
    }
}
