import SluiceCore

/// What a pipeline run tells the stages of each of its tasks, through the task's storage.
///
/// The runner puts it under ``Key`` before the first stage runs. A stage that sends requests of
/// its own (a token fetch) sends none in a dry run; a stage that writes exchanges out (a HAR
/// file) hides what the run's redactor hides.
///
/// ```swift
/// if context.storage[RunInfo.Key.self]?.isDryRun == true {
///     return try await next(request, context)   // a dry run: no token fetched
/// }
/// ```
public struct RunInfo: Sendable {
    /// The task storage key the runner sets.
    public enum Key: TaskStorageKey {
        /// The run's information.
        public typealias Value = RunInfo
    }

    // The redactor first and the flag after it: 18 bytes, within the 24 an existential holds
    // inline, so that storing it in each task's storage allocates nothing.
    /// The pipeline file's secrets, and credential headers, to hide in anything written out.
    public var redactor: Redactor
    /// Whether the run is a dry run: nothing may be sent.
    public var isDryRun: Bool

    /// Creates the information.
    public init(isDryRun: Bool, redactor: Redactor) {
        self.isDryRun = isDryRun
        self.redactor = redactor
    }
}
