extension Response {
    private enum BodyFileByteCount: StageValueKey { typealias Value = Int64 }

    /// How many bytes of the body went to ``bodyFile`` when it is a device or a FIFO, whose own
    /// size says nothing of them (a pipe's is what waits unread); `nil` for a regular file,
    /// whose size is the body's.
    public var bodyFileByteCount: Int64? {
        get { stageValues[BodyFileByteCount.self] }
        set { stageValues[BodyFileByteCount.self] = newValue }
    }
}
