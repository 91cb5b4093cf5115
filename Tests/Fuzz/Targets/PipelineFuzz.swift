import Foundation
import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// Pipeline files: YAML syntax, the decoder's shape checks, the loader's stage and variable
/// checks, then each request rendered as `sluice run` would render it.
enum PipelineFuzz {
    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let file: PipelineFile
        do {
            file = try PipelineFile.load(text: text, path: "fuzz.yaml", variables: ["base": "http://127.0.0.1:1"], environment: ["TOKEN": "t"])
        } catch {
            require(!error.diagnostics.isEmpty, "a load error with no diagnostic")
            for diagnostic in error.diagnostics {
                require(diagnostic.mark.line >= 1 && diagnostic.mark.column >= 1, "a diagnostic at \(diagnostic.mark)")
                require(!diagnostic.message.isEmpty, "a diagnostic with no message")
            }
            return
        }
        require(Set(file.spec.requests.map(\.name)).count == file.spec.requests.count, "two requests share a name")
        for request in file.spec.requests {
            _ = try? request.makeRequest(scope: file.scope, directory: URL(fileURLWithPath: "/nonexistent"))
        }
    }
}
