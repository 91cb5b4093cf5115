import SluiceCore
import SluiceStageRegistry

/// A request's `events:`: read a `text/event-stream` response as server-sent events until
/// `count` have arrived or `within` has passed, whichever comes first, reconnecting as an
/// EventSource does in between.
///
/// The body the expectations and captures see is then a JSON array, one object per event:
/// `{"type", "data", "id"}`, plus `"json"` holding the data parsed when it is JSON. So
/// `expect.body` reads `$[0].data`, `$[*].json.price`, or `{$: {count: 3}}`.
public struct EventReading: Sendable {
    /// The events to read; `nil` reads until `within` passes.
    public var count: Int?
    /// The most time to read for: `within:`, else the request's `timeout:`, else
    /// ``defaultWithin``.
    public var within: Duration?
    /// Where `events:` is written.
    public var mark: YAMLNode.Mark

    /// 30 s: how long a request with `events: {count: N}` and no time limit reads at most.
    public static let defaultWithin: Duration = .seconds(30)
}
