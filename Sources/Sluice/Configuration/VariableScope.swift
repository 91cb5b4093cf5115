/// The values `${NAME}` and `${env.NAME}` take while a pipeline runs, and which of them are
/// secrets.
///
/// A name's value is, in order of precedence, a capture from an earlier request, a `--var`, or
/// the pipeline's `variables:`. Values read from the environment, and variables computed from
/// them, are secrets.
public struct VariableScope: Sendable {
    /// The variables by name.
    public var values: [String: String]
    /// The environment, for `${env.NAME}`.
    public var environment: [String: String]
    /// The names whose values are secrets.
    public var secretNames: Set<String>

    /// Creates a scope.
    public init(values: [String: String] = [:], environment: [String: String] = [:], secretNames: Set<String> = []) {
        self.values = values
        self.environment = environment
        self.secretNames = secretNames
    }

    /// The scope with a `for-each` row's values, which win over every other source.
    public func adding(_ row: ForEachRow?) -> VariableScope {
        guard let row else { return self }
        var scope = self
        for pair in row.values { scope.values[pair.name] = pair.value }
        return scope
    }

    /// The string with its references filled in.
    /// - Throws: `TemplateString.SyntaxError` or `TemplateString.UndefinedVariable`.
    public func render(_ text: String) throws -> String {
        try TemplateString(parsing: text).render(variables: values, environment: environment)
    }

    /// The node with the references in every scalar filled in; keys stay as written.
    /// - Throws: what ``render(_:)-swift.method`` throws, with the scalar's mark.
    public func render(_ node: YAMLNode) throws(YAMLReader.SyntaxError) -> YAMLNode {
        var node = node
        switch node.content {
        case .scalar(let text, let quoted):
            guard text.contains("$") else { return node }
            do {
                node.content = .scalar(try render(text), quoted: quoted)
            } catch {
                throw YAMLReader.SyntaxError(message: "\(error)", mark: node.mark)
            }
        case .sequence(let elements):
            var rendered: [YAMLNode] = []
            for element in elements { rendered.append(try render(element)) }
            node.content = .sequence(rendered)
        case .mapping(let pairs):
            var rendered: [YAMLNode.Pair] = []
            for pair in pairs { rendered.append(YAMLNode.Pair(key: pair.key, value: try render(pair.value))) }
            node.content = .mapping(rendered)
        }
        return node
    }

    /// The values of the secrets a template refers to, directly or through secret variables.
    public func secrets(in template: TemplateString) -> [String] {
        template.environmentVariables.compactMap { environment[$0] }
            + template.variables.filter { secretNames.contains($0) }.compactMap { values[$0] }
    }

    /// Whether a template refers to a secret.
    public func isSecret(_ template: TemplateString) -> Bool {
        !template.environmentVariables.isEmpty || template.variables.contains { secretNames.contains($0) }
    }
}

/// A `${...}` reference found in a pipeline file, for the load-time checks.
public struct VariableReference: Sendable, Hashable {
    /// The name, without `env.`.
    public var name: String
    /// Whether it is `${env.NAME}`.
    public var isEnvironment: Bool
    /// The scalar it is written in.
    public var mark: YAMLNode.Mark
}

extension YAMLNode {
    /// Every reference in this node's scalars, and every malformed `${` as a diagnostic message.
    func references() -> (references: [VariableReference], problems: [(mark: YAMLNode.Mark, message: String)]) {
        switch content {
        case .scalar(let text, _):
            guard text.contains("$") else { return ([], []) }
            do {
                let template = try TemplateString(parsing: text)
                return (
                    template.variables.map { VariableReference(name: $0, isEnvironment: false, mark: mark) }
                        + template.environmentVariables.map { VariableReference(name: $0, isEnvironment: true, mark: mark) },
                    []
                )
            } catch {
                return ([], [(mark, error.message)])
            }
        case .sequence(let elements):
            let found = elements.map { $0.references() }
            return (found.flatMap(\.references), found.flatMap(\.problems))
        case .mapping(let pairs):
            let found = pairs.map { $0.value.references() }
            return (found.flatMap(\.references), found.flatMap(\.problems))
        }
    }
}
