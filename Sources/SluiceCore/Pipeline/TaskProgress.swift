/// How far one direction of a transfer has come.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes moved so far.
    public var completed: Int64
    /// Bytes expected in all, when known (a `Content-Length`, the size of an upload); `nil`
    /// otherwise, for example for a chunked response.
    public var expected: Int64?

    /// Creates progress.
    public init(completed: Int64 = 0, expected: Int64? = nil) {
        self.completed = completed
        self.expected = expected
    }

    /// `completed / expected` between 0 and 1, when the expected size is known and not zero.
    public var fractionCompleted: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(1, Double(completed) / Double(expected))
    }
}

/// How far a task's upload and download have come.
public struct TaskProgress: Sendable, Hashable {
    /// The request body going out.
    public var upload: TransferProgress
    /// The response body coming in.
    public var download: TransferProgress

    /// Creates progress.
    public init(upload: TransferProgress = TransferProgress(), download: TransferProgress = TransferProgress()) {
        self.upload = upload
        self.download = download
    }
}
