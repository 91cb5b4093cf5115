import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `sluice stages`: every stage a pipeline can name, with its options.
struct StagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stages",
        abstract: "Lists every stage, built-in and plugin, in the order a chain runs them, with its level, rank and options.",
        discussion: """
            A call stage sees each request once and its final response; a hop stage sees every exchange (each redirect hop, each retry). A pipeline runs its stages by level, then rank, whatever order the file lists them in.

            --schema prints the pipeline format's JSON Schema instead, generated from the same list (pipelines/schema.json holds it); --keys lists the keys of a pipeline file, a request and a group, from the descriptions the schema is generated from.
            """
    )

    @Flag(help: "Print the JSON Schema of pipeline files.")
    var schema = false

    @Flag(help: "List the keys of a pipeline file, of a request and of a group instead of the stages.")
    var keys = false

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
        if keys {
            for section in PipelineKeys.sections {
                text += "\(section.owner)\n" + lines(for: section.keys, indent: "    ") + "\n"
            }
            Terminal.write(text)
            return
        }
        let ordered = registry.descriptors.enumerated().sorted { ($0.element.placement, $0.offset) < ($1.element.placement, $1.offset) }.map(\.element)
        for descriptor in ordered {
            text += "\(descriptor.name)\n    \(descriptor.summary)\n    runs as: a \(descriptor.placement.level) stage, rank \(descriptor.placement.rank)\n"
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
