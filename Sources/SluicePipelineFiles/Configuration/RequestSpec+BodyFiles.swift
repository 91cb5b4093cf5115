import Foundation
import SluiceStageRegistry

extension RequestSpec {
    /// The files the request sends (`body-file`, the `file` of a part) whose path holds no
    /// variable and that cannot be sent as they are now: each with where it is written and what
    /// is wrong, as the end of a sentence that starts "the request sends". A run fails such a
    /// request unless the file is there by then (an earlier request's `output` may write it), so
    /// `sluice validate` warns rather than refuses.
    public func unsendableFiles() -> [(mark: YAMLNode.Mark, problem: String)] {
        let written = ([bodyFile] + parts.map(\.file)).compactMap { $0 }
        return written.compactMap { node in
            guard let path = node.scalar, !path.contains("${") else { return nil }
            let resolved = StageOptions.resolve(path, against: source.directory)
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) {
                return (node.mark, "\(path), which does not exist (\(resolved)): a run fails the request unless the file is there by then")
            }
            if isDirectory.boolValue { return (node.mark, "\(path), a directory, not a file: a run fails the request") }
            if !FileManager.default.isReadableFile(atPath: resolved) { return (node.mark, "\(path), which cannot be read: a run fails the request") }
            return nil
        }
    }
}
