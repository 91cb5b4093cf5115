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
    /// What a ``ResponseCaching`` stage did for each exchange it handled (one per redirect hop),
    /// in order.
    public var cacheOutcomes: [CacheOutcome]
    /// How long the task waited for a route to its host before sending (the `reachability`
    /// stage with `waits-for-connectivity`); zero when it did not wait.
    public var connectivityWait: Duration = .zero
    /// When the task was created.
    public var created: ContinuousClock.Instant
    /// When the task ended, if it has.
    public var finished: ContinuousClock.Instant?

    /// Creates metrics for a task created now whose pipeline has these stages.
    public init(stageNames: [String], created: ContinuousClock.Instant = .now) {
        stages = stageNames.map { StageTiming(name: $0) }
        transfers = []
        notes = []
        cacheOutcomes = []
        self.created = created
        finished = nil
    }

    /// The task's whole duration, once it has ended.
    public var duration: Duration? {
        finished.map { $0 - created }
    }
}
