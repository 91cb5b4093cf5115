extension Request {
    private enum MaxTransferRate: StageValueKey { typealias Value = Int64 }

    /// The most bytes a second the exchange moves each way, body and head (curl's
    /// `--limit-rate`): the transport pauses to stay under it, averaged over the transfer.
    /// `nil` (the default) sets no limit.
    ///
    /// ```swift
    /// var request = Request("https://example.test/big.iso")
    /// request.maxTransferRate = 512 * 1024
    /// ```
    public var maxTransferRate: Int64? {
        get { stageValues[MaxTransferRate.self] }
        set { stageValues[MaxTransferRate.self] = newValue }
    }
}
