import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// Says on standard error, as it happens, why `sluice send` is waiting: for a route to the host
/// and when one came, or before a retry, as curl warns "Will retry in 1 seconds" (not with `-s`,
/// which mutes curl's warnings too). A person at a terminal then knows why nothing arrives yet.
final class WaitNotes: EventMonitor {
    /// Whether `-s` was given: retries are then not announced.
    let silent: Bool

    init(silent: Bool) {
        self.silent = silent
    }

    func receive(_ event: TaskEvent) {
        guard case .note(let note) = event.kind else { return }
        switch (note.stage, note.name) {
        case ("reachability", "waiting"), ("reachability", "connected"):
            Terminal.writeError("sluice: \(note.detail)\n")
        case ("retry", "attempt") where !silent:
            Terminal.writeError("sluice: warning: \(note.detail)\n")
        default:
            break
        }
    }
}
