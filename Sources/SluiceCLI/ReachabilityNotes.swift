import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// Says on standard error, as it happens, that `sluice send` is waiting for a route and when one
/// came: a person at a terminal then knows why nothing arrives yet.
final class ReachabilityNotes: EventMonitor {
    func receive(_ event: TaskEvent) {
        guard case .note(let note) = event.kind, note.stage == "reachability", ["waiting", "connected"].contains(note.name) else { return }
        Terminal.writeError("sluice: \(note.detail)\n")
    }
}
