/// What a task measured: the time spent inside each stage and every exchange's wire metrics.
public struct TaskMetrics: Sendable {
    /// The time one stage spent on a task.
    public struct StageTiming: Sendable, Hashable {
        /// The stage's name.
        public var name: String
        /// Time spent inside the stage itself, not counting the stages below it and the transport.
        public var duration: Duration
        /// How many times the stage ran for the task (more than once when an outer stage sent again).
        public var invocations: Int

        /// Creates a timing.
        public init(name: String, duration: Duration = .zero, invocations: Int = 0) {
            self.name = name
            self.duration = duration
            self.invocations = invocations
        }
    }

    /// One timing per stage of the pipeline, in pipeline order.
    public var stages: [StageTiming]
    /// The wire metrics of every exchange the transport made for the task, in order.
    public var transfers: [TransferMetrics]
    /// What the stages reported about the task (each retry, each token refresh), in order.
    public var notes: [StageNote]
    /// What only some stages measure (``cacheOutcomes``, `connectivityWait`, a stage's own),
    /// kept off the metrics' fields.
    public var stageValues = StageValues()
    /// When the task was created.
    public var created: ContinuousClock.Instant
    /// When the task ended, if it has.
    public var finished: ContinuousClock.Instant?

    /// Creates metrics for a task created now whose pipeline has these stages.
    public init(stageNames: [String], created: ContinuousClock.Instant = .now) {
        stages = stageNames.map { StageTiming(name: $0) }
        transfers = []
        notes = []
        self.created = created
        finished = nil
    }

    /// The task's whole duration, once it has ended.
    public var duration: Duration? {
        finished.map { $0 - created }
    }
}
