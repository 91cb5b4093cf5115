import SluiceCore
import SluiceStageRegistry

extension YAMLReader {
    /// The one document of a file Sluice reads (a pipeline, an included file, a vars file); `nil`
    /// for a file with none.
    /// - Parameters:
    ///   - text: the file's text.
    ///   - path: the name diagnostics use.
    ///   - secondDocument: what a second document is told, at its line.
    /// - Throws: ``PipelineFileError`` for a syntax error, or for a second document.
    func singleDocument(from text: String, path: String, secondDocument: String) throws(PipelineFileError) -> YAMLNode? {
        let documents: [YAMLNode]
        do {
            documents = try self.documents(from: text)
        } catch {
            throw PipelineFileError([PipelineDiagnostic(file: path, mark: error.mark, message: error.message)])
        }
        guard documents.count <= 1 else {
            throw PipelineFileError([PipelineDiagnostic(file: path, mark: documents[1].mark, message: secondDocument)])
        }
        return documents.first
    }
}
