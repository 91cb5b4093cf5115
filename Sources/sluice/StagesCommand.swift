import ArgumentParser
import Foundation
import Sluice

/// `sluice stages`: every stage a pipeline can name, with its options.
struct StagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stages",
        abstract: "Lists every stage, built-in and plugin, with its options.",
        discussion: "--schema prints the pipeline format's JSON Schema instead, generated from the same list (pipelines/schema.json holds it)."
    )

    @Flag(help: "Print the JSON Schema of pipeline files.")
    var schema = false

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp("A stage module built as a shared library, whose stages to list too (repeatable).", valueName: "PATH"),
        completion: .file(extensions: ["so"])
    )
    var plugins: [String] = []

    func run() throws {
        var registry = try StageCatalog.registry()
        for path in plugins {
            do {
                for descriptor in try StageModuleLoader.load(path: path) {
                    try registry.register(descriptor)
                }
            } catch let failure as StageModuleLoader.Failure {
                throw ValidationError("--plugin \(path): \(failure.message)")
            }
        }
        if schema {
            Terminal.write(try JSONWriter(prettyPrinted: true).string(from: PipelineSchema.schema(for: registry)) + "\n")
            return
        }
        var text = ""
        for descriptor in registry.descriptors {
            text += "\(descriptor.name)\n    \(descriptor.summary)\n"
            text += lines(for: descriptor.options, indent: "    ")
            text += "\n"
        }
        Terminal.write(text)
    }

    private func lines(for options: [OptionDescriptor], indent: String) -> String {
        var text = ""
        for option in options {
            var traits: [String] = []
            if option.isRequired { traits.append("required") }
            if let value = option.defaultValue { traits.append("default \(value)") }
            if option.isSecret { traits.append("secret") }
            let type: String
            if case .object = option.type { type = "mapping" } else { type = option.type.summary }
            text += "\(indent)\(option.name): \(type)\(traits.isEmpty ? "" : " (" + traits.joined(separator: ", ") + ")")\n"
            text += "\(indent)    \(option.summary)\n"
            if case .object(let nested) = option.type {
                text += lines(for: nested, indent: indent + "    ")
            }
        }
        return text
    }
}
