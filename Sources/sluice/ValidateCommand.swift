import ArgumentParser
import Foundation
import Sluice

/// `sluice validate`: checks pipeline files without sending anything.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks pipeline files without sending anything.",
        discussion: """
            Every problem of every file is reported at once, as FILE:LINE:COLUMN: error: MESSAGE: YAML syntax, unknown stages and options, wrong types, missing options, trust policies that cannot work, undefined variables, invalid JSONPath (with the position of the error).

            Exit status: 0 when every file is valid, 2 otherwise.
            """
    )

    @OptionGroup var pipeline: PipelineArguments

    func run() throws {
        for file in try pipeline.load() {
            Terminal.write("\(file.path): ok (\(file.stages.count) stages, \(file.spec.requests.count) requests)\n")
        }
    }
}
