import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// The top stage of a runner's pipeline: it puts the run's ``RunInfo`` in each task's storage,
/// with the redactor as it stands when the task starts (a run adds captured secrets as it goes).
struct RunInfoStage: SynchronousRequestStage {
    let isDryRun: Bool
    let redactor: Locked<Redactor>

    var name: String { RunInfoStage.stageName }

    /// Above every other stage, the call observers included.
    static var placement: StagePlacement { StagePlacement(.call, rank: .min) }

    /// `runner`: the name of the runner's own stages (this one and the recorder at the bottom).
    static let stageName = "runner"

    func prepare(_ request: Request, context: TaskContext) -> Request {
        context.storage[RunInfo.Key.self] = RunInfo(isDryRun: isDryRun, redactor: redactor.withLock { $0 })
        return request
    }
}
