import Foundation
import SluiceCore
import SluicePipelineFiles
import SluiceStageRegistry

/// A `.hurl` file loaded as a pipeline file: read by Hurl's grammar, converted, then checked by
/// the same loader as a YAML file, every diagnostic at the `.hurl` file's line and column.
public enum HurlPipelineFile {
    /// Reads, converts and checks a Hurl file.
    /// - Parameters:
    ///   - path: the `.hurl` file.
    ///   - variables: `--var` values (Hurl's `--variable`): text, typed as Hurl types them.
    ///   - typedVariables: values that keep their JSON type.
    ///   - environment: what `${env.NAME}` reads.
    ///   - registry: the stages the document may name.
    ///   - defaults: what Hurl's command line sets for every entry.
    /// - Throws: `PipelineFileError` with every problem: a syntax error, each construct with no
    ///   pipeline spelling, each problem the loader finds (its variables written `{{NAME}}`, as
    ///   the loader writes them for a `.hurl` file).
    public static func load(
        path: String,
        defaults: HurlDefaults = HurlDefaults(),
        variables: [String: String] = [:],
        typedVariables: [String: JSONValue] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        registry: StageRegistry = .builtIn
    ) throws(PipelineFileError) -> PipelineFile {
        let root = try document(path: path, defaults: defaults)
        return try PipelineFile.load(
            root: root, path: path, directory: URL(fileURLWithPath: path).deletingLastPathComponent(),
            variables: variables, typedVariables: typedVariables, environment: environment, registry: registry
        )
    }

    /// The pipeline document a Hurl file becomes, as YAML text: what `sluice convert` prints.
    /// - Throws: `PipelineFileError` for a syntax error or a construct with no pipeline spelling.
    public static func yamlText(path: String, defaults: HurlDefaults = HurlDefaults()) throws(PipelineFileError) -> String {
        "# Converted from \(URL(fileURLWithPath: path).lastPathComponent) by sluice convert.\n" + YAMLWriter().text(of: try document(path: path, defaults: defaults))
    }

    /// The pipeline document of the file at `path`.
    private static func document(path: String, defaults: HurlDefaults) throws(PipelineFileError) -> YAMLNode {
        func failure(_ line: Int, _ column: Int, _ message: String) -> PipelineDiagnostic {
            PipelineDiagnostic(file: path, mark: YAMLNode.Mark(line: line, column: column), message: message)
        }
        let text: String
        do {
            text = try InputFile.text(at: path, role: "the Hurl file")
        } catch {
            throw PipelineFileError([failure(1, 1, "cannot read the file: \(error.reason)")])
        }
        let file: HurlFile
        do {
            file = try HurlFile.parse(text)
        } catch {
            throw PipelineFileError([failure(error.line, error.column, error.message)])
        }
        do {
            return try HurlConversion.pipelineDocument(of: file, directory: URL(fileURLWithPath: path).deletingLastPathComponent(), defaults: defaults)
        } catch {
            throw PipelineFileError(error.problems.map { failure($0.position.line, $0.position.column, $0.message) })
        }
    }
}
