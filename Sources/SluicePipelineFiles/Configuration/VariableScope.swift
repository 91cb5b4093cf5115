import SluiceCore
import SluiceJSONPath
import SluiceStageRegistry

/// The values `${NAME}` and `${env.NAME}` take while a pipeline runs, and which of them are
/// secrets.
///
/// A name's value is, in order of precedence, a capture from an earlier request, a `--var`, or
/// the pipeline's `variables:`. Values read from the environment, and variables computed from
/// them, are secrets.
///
/// Every value has a text, which `${NAME}` inside a longer string renders. A value from a typed
/// source keeps its JSON type too (a capture: what a JSONPath selected; `variables:`, a YAML vars
/// file, a JSON or inline `for-each` row: what YAML or JSON says), in ``typedValues``: a scalar
/// that is exactly `${NAME}` (quoted or not) in an expected value or in `parameters` stands for
/// the value itself, so a captured `2` is compared with and sent as `2`, never `"2"`, as Hurl
/// keeps a captured number a number, and `id: "007"` stays the string `"007"`.
public struct VariableScope: Sendable {
    /// The variables' text, by name.
    public var values: [String: String]
    /// The JSON values of the variables that were set with one, by name: captures, `variables:`,
    /// a YAML vars file, a JSON or inline `for-each` row. A variable from a text source (`--var`, a
    /// dotenv file, `SLUICE_VAR_NAME`, a CSV row) has none, and `${NAME}` alone reads its text as
    /// YAML reads a plain scalar (`2` a number, `true` a Boolean, else a string), as Hurl types
    /// its `--variable` values.
    public private(set) var typedValues: [String: JSONValue] = [:]
    /// The kind JSON has no word for of a captured value that is one: a date (its text RFC 3339)
    /// or bytes (its text lower-case hex). A `variable:` check reads such a variable back as what
    /// it was, as Hurl keeps a captured date a date.
    public private(set) var kinds: [String: Kind] = [:]

    /// A kind of value JSON has no word for, kept beside its text.
    public enum Kind: Sendable, Hashable {
        /// A point in time; the text is RFC 3339.
        case date
        /// Bytes; the text is lower-case hex.
        case bytes
    }
    /// The names whose value a server sent: captures, and request `variables:` computed from one.
    /// A file path never takes its folder from one (``receivedPathProblem(in:source:)``).
    public private(set) var receivedNames: Set<String> = []
    /// The environment, for `${env.NAME}`.
    public var environment: [String: String]
    /// The names whose values are secrets.
    public var secretNames: Set<String>
    /// The names whose value stands in for one not known yet: a dry run's captures, whose value
    /// is ``standIn(for:)`` of the name. A function of one renders as the stand-in of the call.
    public var standIns: Set<String> = []

    /// What stands in for the value of `expression` (a capture's name, or a call of a function
    /// of one) where only a run can give it: `<expression>`.
    public static func standIn(for expression: String) -> String {
        "<\(expression)>"
    }

    /// Creates a scope.
    public init(values: [String: String] = [:], environment: [String: String] = [:], secretNames: Set<String> = []) {
        self.values = values
        self.environment = environment
        self.secretNames = secretNames
    }

    /// The scope with a `for-each` row's values, which win over every other source: typed for a
    /// row that has types (a JSON file's, a list in the pipeline), text for a CSV row.
    public func adding(_ row: ForEachRow?) -> VariableScope {
        guard let row else { return self }
        var scope = self
        for pair in row.values {
            scope.values[pair.name] = pair.value
            if let typed = pair.typed {
                scope.typedValues[pair.name] = typed
            } else {
                scope.typedValues.removeValue(forKey: pair.name)
            }
            scope.kinds.removeValue(forKey: pair.name)
            scope.receivedNames.remove(pair.name)
        }
        return scope
    }

    /// Sets a variable to a JSON value (a capture): its text is a string as it is, any other
    /// value as compact JSON; a template that is exactly `${NAME}` stands for the value itself,
    /// so a captured string `"2"` stays a string and a captured `2` a number.
    /// - Parameters:
    ///   - name: the variable.
    ///   - value: its value.
    ///   - kind: what the value stands for when JSON has no word for it (a date, bytes).
    ///   - received: whether a server sent the value (a capture, or a variable computed from
    ///     one: ``readsReceivedValue(_:)``).
    public mutating func assign(_ name: String, _ value: JSONValue, kind: Kind? = nil, received: Bool = false) {
        values[name] = VariableScope.text(of: value)
        typedValues[name] = value
        if kind != nil || !kinds.isEmpty { kinds[name] = kind }
        if received {
            receivedNames.insert(name)
        } else if !receivedNames.isEmpty {
            receivedNames.remove(name)
        }
    }

    /// Whether a value written as `node` reads one a server sent (``receivedNames``), directly or
    /// through a function.
    public func readsReceivedValue(_ node: YAMLNode) -> Bool {
        !receivedNames.isEmpty && node.templates.contains { template in
            template.parts.contains { part in
                switch part {
                case .variable(let name): receivedNames.contains(name)
                case .function(let function): function.refers(toAnyOf: receivedNames)
                case .literal, .environment: false
                }
            }
        }
    }

    /// Why the request path written as `text` cannot be sent once filled in: a variable's value
    /// that holds a `#` inside a longer path (`search?q=${term}` with `C#`, `items/${id}/tags`)
    /// would end the URL there, and a fragment is never sent, so what follows it, the value's or
    /// the file's own text, would be dropped without a word. `nil` when no value holds one, or
    /// when the path is one variable alone (`${url}`, a whole URL, whose fragment is left off as
    /// curl leaves it off).
    /// - Parameters:
    ///   - text: the path as written.
    ///   - source: the file it is written in, whose spelling of a variable the message uses.
    public func fragmentProblem(inPath text: String, source: PipelineSource) -> String? {
        guard text.utf8.contains(UInt8(ascii: "$")), let template = try? TemplateString(parsing: text), template.parts.count > 1 else { return nil }
        let names = Set(template.variables)
        guard let pieces = try? template.renderedParts(variables: values, environment: environment, standIns: standIns, tainted: names) else { return nil }
        for (index, piece) in pieces.enumerated() where piece.isTainted && piece.text.utf8.contains(UInt8(ascii: "#")) {
            var name = "a value", encoded = "percent-encode the value"
            if case .variable(let variable) = template.parts[index] {
                name = source.spelling(ofVariable: variable)
                if !source.isHurl { encoded = "encode the value (${urlencode(\(variable))})" }
            }
            return "\(name) holds '#' ('\(VariableScope.excerpt(piece.text))'), which would end the URL there: what follows it would be dropped, as a fragment is never sent; "
                + "\(encoded), or leave the '#' out"
        }
        return nil
    }

    /// A value as a message quotes it: its first 100 bytes, and `…` when there is more.
    private static func excerpt(_ value: String) -> String {
        value.utf8.count > 100 ? String(decoding: value.utf8.prefix(100), as: UTF8.self) + "…" : value
    }

    /// Why the file path written as `text` cannot be used once filled in: a value a server sent
    /// (``receivedNames``) that holds a `/` or a NUL, or that makes a `.` or `..` segment, would
    /// let the server choose the folder the file is read from or written to, as curl's `-O` and
    /// `-J` take only a file name for the same reason. `nil` when the server's values name at
    /// most a file in a folder the pipeline chose.
    /// - Parameters:
    ///   - text: the path as written.
    ///   - source: the file it is written in, whose spelling of a variable the message uses.
    public func receivedPathProblem(in text: String, source: PipelineSource) -> String? {
        guard !receivedNames.isEmpty, let template = try? TemplateString(parsing: text),
            let pieces = try? template.renderedParts(variables: values, environment: environment, standIns: standIns, tainted: receivedNames),
            pieces.contains(where: \.isTainted)
        else { return nil }
        var names: [String] = []
        for name in template.variables where receivedNames.contains(name) && !names.contains(name) { names.append(name) }
        let served = "a value the server sent (\(names.map(source.spelling(ofVariable:)).joined(separator: " or ")))"
        for piece in pieces where piece.isTainted {
            for (byte, spelling) in [(UInt8(ascii: "/"), "'/'"), (0, "a NUL byte")] where piece.text.utf8.contains(byte) {
                return "\(served) holds \(spelling) ('\(VariableScope.excerpt(piece.text))'): a server never chooses a file's folder, as curl's -O and -J "
                    + "take only a file name; capture the file name alone, or write the folder yourself"
            }
        }
        // Without a '/' in a server's value, each segment is made of whole pieces and parts of the
        // pipeline's own text: one that reads a server's value must not be '.' or '..'.
        // By code point: a '/' that a combining mark follows is a '/' to the file system, where
        // as a Character it is another one.
        var segment = "", readsServer = false
        for piece in pieces + [(text: "/", isTainted: false)] {
            var rest = Substring(piece.text).unicodeScalars
            while let slash = piece.isTainted ? nil : rest.firstIndex(of: "/") {
                segment.unicodeScalars += rest[..<slash]
                if readsServer, segment.utf8.elementsEqual(".".utf8) || segment.utf8.elementsEqual("..".utf8) {
                    return "\(served) makes the path segment '\(segment)': a server never chooses a file's folder, as curl's -O and -J "
                        + "take only a file name; capture the file name alone, or write the folder yourself"
                }
                segment = ""
                readsServer = false
                rest = rest[rest.index(after: slash)...]
            }
            segment.unicodeScalars += rest
            readsServer = readsServer || piece.isTainted
        }
        return nil
    }

    /// The text `${NAME}` renders for a value: a string as it is, anything else as compact JSON.
    public static func text(of value: JSONValue) -> String {
        value.stringValue ?? (try? JSONWriter().string(from: value)) ?? ""
    }

    /// The node as a JSON value, its references filled in. A scalar that is exactly one `${NAME}`,
    /// quoted or not, is the variable's value: its typed value when it has one, else its text
    /// typed as Hurl types its `--variable` values (``typedText(_:)``: `2` a number, `true` a
    /// Boolean, else a string). Any other scalar is rendered as text, then read by the YAML core
    /// schema (a quoted one stays a string), as `YAMLNode/jsonValue()` reads it.
    /// - Throws: what ``render(_:)-(YAMLNode)`` throws, with the scalar's mark.
    public func jsonValue(of node: YAMLNode) throws(YAMLReader.SyntaxError) -> JSONValue {
        try node.jsonValue { text, _, scalar throws(YAMLReader.SyntaxError) in
            if let name = VariableScope.soleVariable(in: text) {
                if let typed = typedValues[name] { return typed }
                if let value = values[name] { return VariableScope.typedText(value) }
            }
            return try render(scalar).jsonValue()
        }
    }

    /// The name when `text` is exactly one `${NAME}` and nothing else.
    private static func soleVariable(in text: String) -> String? {
        guard text.hasPrefix("${"), let template = try? TemplateString(parsing: text), template.parts.count == 1,
            case .variable(let name) = template.parts[0]
        else { return nil }
        return name
    }

    /// The string with its references filled in.
    /// - Throws: `TemplateString.SyntaxError` or `TemplateString.UndefinedVariable`.
    public func render(_ text: String) throws -> String {
        try TemplateString(parsing: text).render(variables: values, environment: environment, standIns: standIns)
    }

    /// The node with the references in every scalar filled in; keys stay as written.
    /// - Throws: what ``render(_:)-swift.method`` throws, with the scalar's mark.
    public func render(_ node: YAMLNode) throws(YAMLReader.SyntaxError) -> YAMLNode {
        var node = node
        switch node.content {
        case .scalar(let text, let quoted):
            guard text.utf8.contains(UInt8(ascii: "$")) else { return node }
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
        template.environmentVariables.compactMap { environment[$0] }.filter(VariableScope.isHideable)
            + template.variables.filter { secretNames.contains($0) }.compactMap { values[$0] }
    }

    /// The fewest UTF-8 bytes of a value read from the environment that output hides. A shorter
    /// one (`1`, `20`, `yes`) is no credential, and hiding it would hide every match of it (a `1`
    /// in every status and date), so it is shown, with a warning; a value under a secret option
    /// (`authorization`) is hidden whatever its length.
    public static let shortestHiddenValue = 4

    /// Whether an environment value is long enough to hide (``shortestHiddenValue``).
    static func isHideable(_ value: String) -> Bool {
        value.utf8.count >= shortestHiddenValue
    }

    /// Whether a template refers to a secret.
    public func isSecret(_ template: TemplateString) -> Bool {
        template.environmentVariables.contains { environment[$0].map(VariableScope.isHideable) ?? true }
            || template.variables.contains { secretNames.contains($0) }
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
    /// The templates of this node's scalars, however deep (a mapping's keys and values, a list's
    /// elements): the scalars that hold a `${...}`.
    package var templates: [TemplateString] {
        switch content {
        case .scalar(let text, _):
            guard text.utf8.contains(UInt8(ascii: "$")), let template = try? TemplateString(parsing: text) else { return [] }
            return [template]
        case .sequence(let elements):
            return elements.flatMap(\.templates)
        case .mapping(let pairs):
            return pairs.flatMap { $0.key.templates + $0.value.templates }
        }
    }

    /// Every reference in this node's scalars, and every malformed `${` as a diagnostic message.
    package func references() -> (references: [VariableReference], problems: [(mark: YAMLNode.Mark, message: String)]) {
        switch content {
        case .scalar(let text, _):
            guard text.utf8.contains(UInt8(ascii: "$")) else { return ([], []) }
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
