import ArgumentParser
import Foundation
import Sluice

/// The arguments every pipeline command shares: the files and `--var`.
struct PipelineArguments: ParsableArguments {
    @Argument(help: "Pipeline files (YAML).", completion: .file(extensions: ["yaml", "yml"]))
    var files: [String]

    @Option(name: .customLong("var"), help: ArgumentHelp("A variable, overriding the file's variables: (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one pipeline file") }
        _ = try variableValues()
    }

    /// `--var` values by name.
    func variableValues() throws -> [String: String] {
        var values: [String: String] = [:]
        for variable in variables {
            guard let equals = variable.firstIndex(of: "="), equals != variable.startIndex else {
                throw ValidationError("--var '\(variable)' is not of the form NAME=VALUE")
            }
            values[String(variable[..<equals])] = String(variable[variable.index(after: equals)...])
        }
        return values
    }

    /// Every file loaded, or every problem of every file reported at once.
    func load() throws -> [PipelineFile] {
        let values = try variableValues()
        let registry = try StageCatalog.registry()
        var files: [PipelineFile] = []
        var diagnostics: [PipelineDiagnostic] = []
        for path in self.files {
            do {
                files.append(try PipelineFile.load(path: path, variables: values, registry: registry))
            } catch {
                diagnostics += error.diagnostics
            }
        }
        if !diagnostics.isEmpty { throw PipelineFileError(diagnostics) }
        for warning in files.flatMap(\.warnings) {
            Terminal.writeError(warning + "\n")
        }
        return files
    }
}
