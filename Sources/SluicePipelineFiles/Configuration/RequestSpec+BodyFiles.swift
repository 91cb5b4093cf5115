import Foundation
import SluiceStageRegistry

extension RequestSpec {
    /// The files the request sends (`body-file`, the `file` of a part) that cannot be sent as
    /// they are now: each with where it is written and what is wrong, as the end of a sentence
    /// that starts "the request sends". A run fails such a request unless the file is there by
    /// then (an earlier request's `output` may write it), so `sluice validate` warns rather than
    /// refuses.
    ///
    /// A path with variables is filled in from `scope` (the file's `variables:`, `--var`, the
    /// environment, the request's `for-each` row) and checked too; one that refers to a value
    /// only a run gives (a capture: leave it out of `scope`) or to a function (`${uuid}`) is not.
    /// A path filled in from a secret is named as written, never as filled in.
    /// - Parameter scope: the values known before anything is sent; `nil` checks literal paths only.
    public func unsendableFiles(scope: VariableScope? = nil) -> [(mark: YAMLNode.Mark, problem: String)] {
        let written = ([bodyFile] + parts.map(\.file)).compactMap { $0 }
        return written.compactMap { node in
            guard let path = node.scalar else { return nil }
            var filled = path
            var secret = false
            if path.contains("${") {
                guard let scope, let template = try? TemplateString(parsing: path),
                    !template.parts.contains(where: { if case .function = $0 { true } else { false } }),
                    let rendered = try? template.render(variables: scope.values, environment: scope.environment)
                else { return nil }
                filled = rendered
                secret = scope.isSecret(template)
            }
            let resolved = StageOptions.resolve(filled, against: source.directory)
            // A filled-in path shows what it became; a literal one where it leads only when missing.
            let shown = filled == path || secret ? path : "\(path) (\(resolved))"
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) {
                let full = filled == path ? " (\(resolved))" : ""
                return (node.mark, "\(shown), which does not exist\(full): a run fails the request unless the file is there by then")
            }
            if isDirectory.boolValue { return (node.mark, "\(shown), a directory, not a file: a run fails the request") }
            if !FileManager.default.isReadableFile(atPath: resolved) { return (node.mark, "\(shown), which cannot be read: a run fails the request") }
            return nil
        }
    }
}
