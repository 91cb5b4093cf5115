import SluiceCore

/// A pipeline string with `${NAME}` variables: `${NAME}` takes a capture, a `--var` or a
/// `variables:` entry; `${env.NAME}` reads the environment; `${uuid}`, `${now}` and the other
/// ``TemplateFunction``s compute a value; `$${` writes a literal `${`.
///
/// Parsing finds every reference up front, so a pipeline can check statically that each one has a
/// source before anything is sent.
public struct TemplateString: Sendable, Hashable, CustomStringConvertible {
    /// A piece of the string.
    public enum Part: Sendable, Hashable {
        /// Text as written (with `$${` already turned into `${`).
        case literal(String)
        /// `${NAME}`.
        case variable(String)
        /// `${env.NAME}`.
        case environment(String)
        /// `${FUNCTION(ARGUMENTS)}`.
        case function(TemplateFunction)
    }

    /// Why a string's `${` is malformed, and where.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// The offset of the `${`, in Unicode code points from 0.
        public var offset: Int

        /// The message.
        public var description: String { message }
    }

    /// A reference that nothing supplies.
    public struct UndefinedVariable: Error, Sendable, Hashable, CustomStringConvertible {
        /// The name, `env.` included for the environment.
        public var name: String

        /// `undefined variable ${NAME}`.
        public var description: String { "undefined variable ${\(name)}" }
    }

    /// The pieces, in order.
    public let parts: [Part]
    /// The string as written.
    public let text: String

    /// Parses a string.
    /// - Throws: `SyntaxError` for an unterminated `${` or an invalid name.
    public init(parsing text: String) throws(SyntaxError) {
        self.text = text
        // Most strings hold no reference: no `$`, one literal part, nothing to scan.
        guard text.utf8.contains(UInt8(ascii: "$")) else {
            parts = text.isEmpty ? [] : [.literal(text)]
            return
        }
        var parts: [Part] = []
        var literal = ""
        // Code points, not `Character`s: a combining mark after `}` would otherwise hide the `}`.
        let characters = Array(text.unicodeScalars)
        var index = 0
        while index < characters.count {
            if characters[index] == "$", index + 2 < characters.count, characters[index + 1] == "$", characters[index + 2] == "{" {
                literal += "${"
                index += 3
            } else if characters[index] == "$", index + 1 < characters.count, characters[index + 1] == "{" {
                guard let close = characters[(index + 2)...].firstIndex(of: "}") else {
                    throw SyntaxError(message: "'${' has no closing '}' (write $${ for a literal ${)", offset: index)
                }
                var name = ""
                name.unicodeScalars.append(contentsOf: characters[(index + 2)..<close])
                if TemplateFunction.isCall(name) {
                    let function: TemplateFunction
                    do {
                        function = try TemplateFunction(parsing: name)
                    } catch {
                        throw SyntaxError(message: error.message, offset: index)
                    }
                    if !literal.isEmpty { parts.append(.literal(literal)) }
                    literal = ""
                    parts.append(.function(function))
                    index = close + 1
                    continue
                }
                guard TemplateString.isValidName(name) else {
                    throw SyntaxError(message: "'${\(name)}' is not a variable name (letters, digits, '_', '-', '.')", offset: index)
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(name.hasPrefix("env.") ? .environment(String(name.dropFirst(4))) : .variable(name))
                index = close + 1
            } else {
                literal.unicodeScalars.append(characters[index])
                index += 1
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// Why `name` cannot name a variable, a capture, a vars file's entry or a for-each column: it
    /// is malformed, reads the environment (`env.`), or is a template function written bare
    /// (`now`); `nil` when it can.
    package static func problem(naming name: String) -> String? {
        if !isValidName(name) || name.hasPrefix("env.") {
            return "'\(name)' is not a variable name (letters, digits, '_', '-', '.'; not env.)"
        }
        if TemplateFunction.bareNames.contains(name) {
            return "'\(name)' is the name of a template function (${\(name)}); choose another name"
        }
        return nil
    }

    /// Whether `name` is an ASCII letter or `_`, then ASCII letters, digits, `_`, `-` and `.`,
    /// after an `env.` prefix if there is one; judged by its bytes.
    static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        let bare = bytes.starts(with: "env.".utf8) ? bytes.dropFirst(4) : bytes[...]
        guard let first = bare.first, first.isASCIILetter || first == UInt8(ascii: "_") else { return false }
        return bare.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || "_-.".utf8.contains($0) }
    }

    /// The `${NAME}` names referenced, in order, function arguments (however deeply nested)
    /// included.
    public var variables: [String] {
        parts.flatMap { part -> [String] in
            switch part {
            case .variable(let name): [name]
            case .function(let function): function.variables
            default: []
            }
        }
    }

    /// The `${env.NAME}` names referenced, in order, function arguments (however deeply nested)
    /// included.
    public var environmentVariables: [String] {
        parts.flatMap { part -> [String] in
            switch part {
            case .environment(let name): [name]
            case .function(let function): function.environmentVariables
            default: []
            }
        }
    }

    /// Whether the string is plain text, with no reference.
    public var isLiteral: Bool {
        parts.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    /// The string with every reference replaced.
    /// - Parameters:
    ///   - variables: the variables' text, by name.
    ///   - environment: the environment, for `${env.NAME}`.
    ///   - standIns: names whose value stands in for one not known yet (a dry run's capture): a
    ///     function of one renders as the stand-in of the call (``VariableScope/standIn(for:)``).
    /// - Throws: `UndefinedVariable` for a reference `variables` or `environment` does not supply.
    public func render(variables: [String: String], environment: [String: String], standIns: Set<String> = []) throws(UndefinedVariable) -> String {
        var output = ""
        for part in parts {
            output += try TemplateString.render(part, variables: variables, environment: environment, standIns: standIns)
        }
        return output
    }

    /// Each part's text once filled in, in order, and whether it is made of a variable named in
    /// `tainted` (the variable itself, or a function of it), as ``render(variables:environment:standIns:)``
    /// renders them.
    /// - Throws: `UndefinedVariable` for a reference `variables` or `environment` does not supply.
    public func renderedParts(
        variables: [String: String], environment: [String: String], standIns: Set<String> = [], tainted: Set<String>
    ) throws(UndefinedVariable) -> [(text: String, isTainted: Bool)] {
        var pieces: [(text: String, isTainted: Bool)] = []
        for part in parts {
            let isTainted = switch part {
            case .variable(let name): tainted.contains(name)
            case .function(let function): function.refers(toAnyOf: tainted)
            case .literal, .environment: false
            }
            pieces.append((try TemplateString.render(part, variables: variables, environment: environment, standIns: standIns), isTainted))
        }
        return pieces
    }

    /// One part's text once filled in.
    private static func render(
        _ part: Part, variables: [String: String], environment: [String: String], standIns: Set<String>
    ) throws(UndefinedVariable) -> String {
        switch part {
        case .literal(let text):
            return text
        case .variable(let name):
            guard let value = variables[name] else { throw UndefinedVariable(name: name) }
            return value
        case .environment(let name):
            guard let value = environment[name] else { throw UndefinedVariable(name: "env." + name) }
            return value
        case .function(let function):
            return try function.evaluate(variables: variables, environment: environment, standIns: standIns)
        }
    }

    /// The string as written.
    public var description: String { text }
}
