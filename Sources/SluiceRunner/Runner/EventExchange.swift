import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

extension PipelineRunner {
    /// Reads a request's `events:`: server-sent events until the count is reached or the time
    /// has passed, through a ``ServerSentEventSource`` (so a dropped connection is resumed with
    /// `Last-Event-ID`). The response returned carries the last connection's head and, as its
    /// body, the events as a JSON array (see ``EventReading``), which the expectations read.
    /// Running out of time is no error: the expectations say whether enough arrived.
    static func readEvents(_ reading: EventReading, request: Request, manager: SessionManager) async -> Result<Response, SluiceError> {
        var request = request
        let within = reading.within ?? request.timeouts.total ?? EventReading.defaultWithin
        // The reading's own deadline bounds the exchange; libcurl's total timeout would cut the
        // stream and count as a failure.
        request.timeouts.total = nil
        let events = Locked<[ServerSentEvent]>([])
        // The library's reconnection wait (3 s until the stream sets one, as browsers), as
        // `sluice send --events` and ServerSentEventSource use it.
        let source = manager.events(request, options: .init(maxReconnects: 3))
        let head: Response?
        do {
            head = try await source.read(upTo: reading.count, within: within) { event, _ in
                events.withLock { $0.append(event) }
            }
        } catch {
            return .failure(error)
        }
        guard var response = head else {
            return .failure(SluiceError(
                kind: .timeout, stage: "server-sent-events", url: request.url,
                message: "no response within \(Expectation.format(within))"
            ))
        }
        let array = JSONValue.array(events.withLock { $0 }.map(eventJSON))
        response.body = Data((try? JSONWriter().data(from: array)) ?? [])
        response.decoded = .json(array)
        return .success(response)
    }

    /// One event as the expectations see it.
    private static func eventJSON(_ event: ServerSentEvent) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("type", .string(event.type)), ("data", .string(event.data)), ("id", .string(event.lastEventID)),
        ]
        if let parsed = try? JSONReader().value(from: Data(event.data.utf8)) {
            fields.append(("json", parsed))
        }
        return .object(JSONObject(fields))
    }
}
