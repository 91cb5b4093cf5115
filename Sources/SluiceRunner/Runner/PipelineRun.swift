import SluiceCore
import SluicePipelineFiles

/// The state of one run of a pipeline file: its stages, those that hold a run's state made for
/// it, and so a cookie jar and an HSTS store of its own, read from the files the pipeline names
/// and written back after the run.
///
/// A ``PipelineRunner`` makes one; a `PipelineFile` describes the file and holds no state, so
/// two runs of one file, or of the same file loaded twice, share no cookie and no HSTS entry.
public struct PipelineRun: Sendable {
    /// The run's stages, top to bottom (see `PipelineFile.makeStages()`).
    public let stages: [any Stage]
    /// The run's `cookies` stage: the one the file lists, or the one every run adds, its jar
    /// holding the cookie file's cookies when the file names one.
    public let cookies: CookieHandling
    /// The run's `hsts` stage: the one the file lists, or the one every run adds, held in memory.
    public let hsts: StrictTransportSecurity

    /// Gets the stages of a run of `file`, making those that hold a run's state.
    /// - Throws: `.configuration` when a stage can no longer be made (a file it reads has gone
    ///   since the file was loaded).
    public init(file: PipelineFile) throws(SluiceError) {
        stages = try file.makeStages()
        cookies = stages.lazy.compactMap { $0 as? CookieHandling }.first ?? CookieHandling()
        hsts = stages.lazy.compactMap { $0 as? StrictTransportSecurity }.first ?? StrictTransportSecurity()
    }

    /// Writes the cookie file of the run's `cookies` stage (`cookie-file:`, or the stage's
    /// `file:`), when it has one: the run's cookies for the next run, or for curl `-b`.
    public func saveCookies() throws {
        try cookies.save()
    }

    /// Writes the HSTS file of the run's `hsts` stage, when it names one: the hosts learned, for
    /// the next run or for curl `--hsts`.
    public func saveHSTS() throws {
        try hsts.store.save()
    }
}
