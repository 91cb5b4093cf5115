/// Something a stage reports about a task beyond its own timing: a retry and why, a token
/// fetched or refreshed.
///
/// A stage adds one with ``TaskContext/note(_:_:stage:)``; it lands in the task's
/// ``TaskMetrics/notes`` and reaches event monitors as ``TaskEvent/Kind/note(_:)``.
public struct StageNote: Sendable, Hashable {
    /// The stage that reported it, by its pipeline-file name (`retry`).
    public var stage: String
    /// A short name for what happened, the same for every note of its kind (`attempt`).
    public var name: String
    /// A sentence for people (`attempt 2 of 3 after status 503, waited 120 ms`).
    public var detail: String
    /// When it happened.
    public var time: ContinuousClock.Instant

    /// Creates a note.
    public init(stage: String, name: String, detail: String, time: ContinuousClock.Instant = .now) {
        self.stage = stage
        self.name = name
        self.detail = detail
        self.time = time
    }
}
