import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `sluice validate`: checks pipeline files without sending anything.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks pipeline files without sending anything.",
        discussion: """
            Every problem of every file is reported at once, as FILE:LINE:COLUMN: error: MESSAGE: YAML syntax, unknown stages and options, wrong types, missing options, trust policies that cannot work, undefined variables, invalid JSONPath (with the position of the error). A file the pipeline sends (body-file, a part's file) that is not there or cannot be read is a warning: a request before it may write it. A path with variables is checked once filled in from variables:, --var, the environment and its for-each row; one that names a capture or a function (${uuid}) is not.

            --verbose also shows each file's chain as it will run, top to bottom: each stage's level and rank, and where the file lists it or why a run adds it. A pipeline runs its stages by level, then rank, whatever order the file lists them in.

            Exit status: 0 when every file is valid, 2 otherwise.
            """
    )

    @OptionGroup var pipeline: PipelineArguments

    @Flag(name: [.short, .long], help: "Show each file's chain of stages as it will run.")
    var verbose = false

    func run() throws {
        for file in try pipeline.load() {
            var stages = file.stages.count == 1 ? "1 stage" : "\(file.stages.count) stages"
            // A run adds stages of its own (redirects, cookies, ...): said, so that the chain
            // --verbose lists is not longer than the count without a word.
            if file.chain.count != file.stages.count {
                stages += " listed, \(file.chain.count) in the chain"
            }
            let requests = file.spec.requests.count == 1 ? "1 request" : "\(file.spec.requests.count) requests"
            // What a run knows before it sends anything; a capture, which an earlier request
            // gives, wins over a variable of its name, so a path that names one is not checked.
            var known = file.scope
            for capture in file.spec.requests.flatMap(\.captures) {
                known.values[capture.name] = nil
            }
            for request in file.spec.requests {
                for (mark, problem) in request.unsendableFiles(scope: known.adding(request.row)) {
                    Terminal.writeError("\(request.source.location(mark)): warning: request \(request.displayName) sends \(problem)\n")
                }
            }
            Terminal.write("\(file.path): ok (\(stages), \(requests))\n")
            if verbose {
                Terminal.write("  the chain, top to bottom (a request goes down it, its response comes back up):\n" + ChainLink.lines(file.chain, indent: "    "))
            }
        }
    }
}
