extension Request {
    private enum RecordsSentHead: StageValueKey { typealias Value = Bool }

    /// Whether the transport keeps the request head as it wrote it to the wire, in the
    /// response's ``TransferMetrics/sentHead``: what `sluice send -v` shows, libcurl's own fields
    /// included. Off by default: keeping it costs a copy of the head on every request.
    public var recordsSentHead: Bool {
        get { stageValues[RecordsSentHead.self] ?? false }
        set { stageValues[RecordsSentHead.self] = newValue ? true : nil }
    }
}
