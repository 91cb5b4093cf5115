import SluiceCore

extension Pipeline {
    /// Creates a pipeline from a list of stages, in front of the shared libcurl transport
    /// (``CurlTransport/shared``).
    ///
    /// The same as `Pipeline(stages:transport:...)` of the core with `transport: CurlTransport.shared`.
    /// - Throws: `.configuration` when two stages claim the same thing (naming both), or when a
    ///   `ChainValidating` stage cannot work in this chain.
    public init(
        stages: [any Stage] = [],
        timeouts: Timeouts = .default,
        redirects: Redirection? = Redirection(),
        maxResponseSize: Int64? = nil,
        maxInMemoryResponseSize: Int64? = Pipeline.defaultMaxInMemoryResponseSize
    ) throws(SluiceError) {
        try self.init(
            stages: stages, transport: CurlTransport.shared, timeouts: timeouts, redirects: redirects,
            maxResponseSize: maxResponseSize, maxInMemoryResponseSize: maxInMemoryResponseSize
        )
    }

    /// Creates a pipeline from a block of stages, in front of the shared libcurl transport.
    /// - Throws: what the block throws, and `.configuration` as the list form does.
    public init(
        timeouts: Timeouts = .default,
        redirects: Redirection? = Redirection(),
        maxResponseSize: Int64? = nil,
        maxInMemoryResponseSize: Int64? = Pipeline.defaultMaxInMemoryResponseSize,
        @StageBuilder _ stages: () throws -> [any Stage]
    ) throws {
        try self.init(
            transport: CurlTransport.shared, timeouts: timeouts, redirects: redirects, maxResponseSize: maxResponseSize,
            maxInMemoryResponseSize: maxInMemoryResponseSize, stages
        )
    }
}
