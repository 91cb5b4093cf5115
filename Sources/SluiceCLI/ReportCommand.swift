import ArgumentParser
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `sluice report`: works on reports that runs wrote.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Works on reports that runs wrote.",
        subcommands: [ReportMergeCommand.self]
    )
}
