/// A line of a `[Captures]` section: `name: query filters... [redact]`.
public struct HurlCapture: Sendable, Hashable {
    /// Where the variable name starts.
    public var position: HurlSourcePosition
    /// The name of the variable to set.
    public var name: HurlTemplate
    /// What to read from the response.
    public var query: HurlQuery
    /// The filters applied to the query's result, in order.
    public var filters: [HurlFilter]
    /// Whether `redact` was written, asking that the value be hidden in logs and reports.
    public var isRedacted: Bool

    /// Creates a capture.
    public init(
        position: HurlSourcePosition,
        name: HurlTemplate,
        query: HurlQuery,
        filters: [HurlFilter],
        isRedacted: Bool
    ) {
        self.position = position
        self.name = name
        self.query = query
        self.filters = filters
        self.isRedacted = isRedacted
    }
}
