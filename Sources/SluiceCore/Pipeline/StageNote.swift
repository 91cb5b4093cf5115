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
    /// What the note says in typed form, for monitors that measure it (a reachability wait's
    /// `connectivityWait`); read through the reporting stage's own properties.
    public var stageValues = StageValues()

    /// Creates a note.
    public init(stage: String, name: String, detail: String, time: ContinuousClock.Instant = .now, stageValues: StageValues = StageValues()) {
        self.stage = stage
        self.name = name
        self.detail = detail
        self.time = time
        self.stageValues = stageValues
    }

    /// Notes are equal when stage, name, detail and time are: the typed values restate the detail.
    public static func == (lhs: StageNote, rhs: StageNote) -> Bool {
        (lhs.stage, lhs.name, lhs.detail, lhs.time) == (rhs.stage, rhs.name, rhs.detail, rhs.time)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(stage)
        hasher.combine(name)
        hasher.combine(detail)
        hasher.combine(time)
    }
}
