import SluiceStageRegistry

extension PipelineFile {
    /// The variable names the file reads: its `variables:` (which a value given for one
    /// overrides), and every `${NAME}`, `variable:` query and condition of its variables, stages
    /// and requests (their own stages and `variables:` included). A name given on the command
    /// line that is none of these is read by nothing.
    public var readVariableNames: Set<String> {
        var names = Set(spec.variables.compactMap(\.value.key.scalar))
        var nodes = spec.variables.map(\.value.value) + spec.stages.flatMap { $0.options.map(\.value) }
        nodes += [spec.cookieFile?.value].compactMap { $0 } + spec.plugins.map(\.value)
        for request in spec.requests {
            names.formUnion(request.referencedVariableNames)
            names.formUnion(request.conditions.flatMap(\.variables))
            nodes += request.stages.flatMap { $0.options.map(\.value) }
        }
        names.formUnion(nodes.flatMap { $0.references().references }.filter { !$0.isEnvironment }.map(\.name))
        return names
    }

    /// For each variable given on the command line that no file reads, a warning that says so,
    /// with the nearest name a file reads when one is close (`bsae` for `base`); none for a name
    /// one reads. The names the files read are gathered once, however many are given. Hurl files
    /// alone are answered in their words: `--variable` and `{{NAME}}`.
    public static func unreadVariableWarnings(_ names: [String], files: [PipelineFile]) -> [String] {
        let read = files.reduce(into: Set<String>()) { $0.formUnion($1.readVariableNames) }
        let candidates = read.sorted()
        let where_ = files.count == 1 ? files[0].path : "the \(files.count) files"
        let isHurl = !files.isEmpty && files.allSatisfy { $0.spec.files.first?.isHurl == true }
        let option = isHurl ? "--variable" : "--var"
        return names.filter { !read.contains($0) }.map { name in
            let near = OptionDescriptor.nearest(to: name, in: candidates).map { "; did you mean \($0)?" } ?? ""
            return "warning: \(option) \(name): nothing in \(where_) reads \(PipelineSource.spelling(ofVariable: name, hurl: isHurl))\(near)"
        }
    }
}
