import SluiceCore
import SluiceStageRegistry

/// One stage of a pipeline file's chain, arranged once when the file is loaded: what
/// `--verbose` shows of it, and how a run gets it (made anew, when it holds a run's state).
///
/// Loading makes each stage once to check it; the blueprint keeps the checked arrangement, so
/// the chain shown, the chain checked and the chain each run sends through are one.
struct StageBlueprint: Sendable {
    /// The stage's name, placement, and where it is listed or why it is added.
    var link: ChainLink
    /// The stage for one run: a new one, or the one made at load.
    var make: @Sendable () throws -> any Stage

    /// The stage for one run.
    /// - Throws: `.configuration` when it can no longer be made (a file it reads has gone).
    func stage() throws(SluiceError) -> any Stage {
        do {
            return try make()
        } catch let error as SluiceError {
            throw SluiceError(kind: .configuration, stage: link.name, message: "stage '\(link.name)': \(error.message)")
        } catch {
            throw SluiceError(kind: .configuration, stage: link.name, message: "stage '\(link.name)': \(error)")
        }
    }
}
