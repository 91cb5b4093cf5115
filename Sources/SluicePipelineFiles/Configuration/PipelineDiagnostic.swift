import SluiceCore
import SluiceStageRegistry

/// One problem in a pipeline file, with where it is: printed as compilers print errors,
/// `FILE:LINE:COLUMN: error: MESSAGE`, so editors and CI logs link to the line.
public struct PipelineDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The file as it was named (the path given on the command line).
    public var file: String
    /// The line and column, both from 1.
    public var mark: YAMLNode.Mark
    /// What is wrong.
    public var message: String

    /// Creates a diagnostic.
    public init(file: String, mark: YAMLNode.Mark, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
    }

    /// `FILE:LINE:COLUMN: error: MESSAGE`.
    public var description: String { "\(file):\(mark.line):\(mark.column): error: \(message)" }
}

/// Why a pipeline file cannot run: every problem found in it, in file order.
public struct PipelineFileError: Error, Sendable, CustomStringConvertible {
    /// The problems, sorted by line and column.
    public var diagnostics: [PipelineDiagnostic]

    /// Creates the error from diagnostics in any order; a diagnostic found twice (in two rows of
    /// a `for-each`, say) is kept once.
    public init(_ diagnostics: [PipelineDiagnostic]) {
        self.diagnostics = Array(Set(diagnostics)).sorted { ($0.file, $0.mark.line, $0.mark.column, $0.message) < ($1.file, $1.mark.line, $1.mark.column, $1.message) }
    }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
