/// A line of an `[Asserts]` section: `query filters... [not] predicate`.
public struct HurlAssert: Sendable, Hashable {
    /// Where the query starts.
    public var position: HurlSourcePosition
    /// What to read from the response.
    public var query: HurlQuery
    /// The filters applied to the query's result, in order.
    public var filters: [HurlFilter]
    /// The check applied to the filtered value.
    public var predicate: HurlPredicate

    /// Creates an assert.
    public init(position: HurlSourcePosition, query: HurlQuery, filters: [HurlFilter], predicate: HurlPredicate) {
        self.position = position
        self.query = query
        self.filters = filters
        self.predicate = predicate
    }
}
