import Foundation
import SluiceCore
import SluiceStageRegistry

/// A file of variables for `--vars-file`: a YAML mapping (`.yaml`, `.yml`), a JSON object
/// (`.json`, read as strictly as a `for-each` JSON file: RFC 8259, no trailing comma) or a
/// dotenv file (anything else, `.env` for one).
///
/// The dotenv form is the one docker compose and most dotenv libraries read: `NAME=VALUE` lines,
/// `export ` before the name allowed, `#` comment lines and blank lines ignored; a value in single
/// quotes is taken as it is, one in double quotes understands `\n`, `\t`, `\"` and `\\`, an
/// unquoted one is trimmed and ends at ` #`. Values are never expanded (`$OTHER` stays as
/// written), so a file cannot reach into the environment.
public enum VariablesFile {
    /// Reads the variables of a file: a YAML file's keep their types (`port: 8080` is a number,
    /// `id: "007"` a string), a dotenv file's are text, as `--var` values are.
    /// - Returns: the text values (a dotenv file's) and the typed ones (a YAML file's); one of the
    ///   two is empty.
    /// - Throws: ``PipelineFileError`` with the line of each problem.
    public static func load(path: String) throws(PipelineFileError) -> (text: [String: String], typed: [String: JSONValue]) {
        let text: String
        do {
            text = try InputFile.text(at: path, role: "the variables file")
        } catch {
            throw PipelineFileError([PipelineDiagnostic(file: path, mark: YAMLNode.Mark(line: 1, column: 1), message: "cannot read the variables file: \(error.reason)")])
        }
        let lowercased = path.lowercased()
        if lowercased.hasSuffix(".json") { return ([:], try json(text, path: path)) }
        let isYAML = [".yaml", ".yml"].contains { lowercased.hasSuffix($0) }
        return isYAML ? ([:], try yaml(text, path: path)) : try dotenv(text, path: path)
    }

    /// Reads the variables of a JSON object (RFC 8259), each with its JSON type.
    /// - Throws: ``PipelineFileError`` for text that is not JSON, a value that is not an object,
    ///   or a name that is not a variable's.
    static func json(_ text: String, path: String) throws(PipelineFileError) -> [String: JSONValue] {
        func failure(_ message: String, line: Int = 1, column: Int = 1) -> PipelineFileError {
            PipelineFileError([PipelineDiagnostic(file: path, mark: YAMLNode.Mark(line: line, column: column), message: message)])
        }
        let value: JSONValue
        do {
            value = try JSONReader().value(from: text)
        } catch {
            throw failure("the variables file is not JSON: \(error.message)", line: error.line, column: error.column)
        }
        guard case .object(let object) = value else { throw failure("a variables file is an object of names to values, not \(Expectation.typeName(of: value))") }
        var values: [String: JSONValue] = [:]
        for (name, value) in object.map({ ($0.key, $0.value) }) {
            if let problem = TemplateString.problem(naming: name) { throw failure("\(name): \(problem)") }
            values[name] = value
        }
        return values
    }

    /// Reads the variables of a YAML mapping, each with the type YAML gives it (the core schema: a
    /// quoted scalar is a string, `8080` a number, `true` a Boolean, `~` null; a list or a mapping
    /// is an array or an object).
    /// - Parameters:
    ///   - text: the YAML.
    ///   - path: the name diagnostics use.
    /// - Throws: ``PipelineFileError`` with the line of each problem.
    public static func yaml(_ text: String, path: String) throws(PipelineFileError) -> [String: JSONValue] {
        func failure(_ mark: YAMLNode.Mark, _ message: String) -> PipelineFileError {
            PipelineFileError([PipelineDiagnostic(file: path, mark: mark, message: message)])
        }
        let document = try YAMLReader().singleDocument(from: text, path: path, secondDocument: "a variables file holds one mapping; this is a second document")
        guard let root = document, !root.isNull else { return [:] }
        guard let pairs = root.pairs else { throw failure(root.mark, "a variables file is a mapping of names to values") }
        var values: [String: JSONValue] = [:]
        var problems: [PipelineDiagnostic] = []
        for pair in pairs {
            let name = pair.key.scalar ?? ""
            if let problem = TemplateString.problem(naming: name) {
                problems.append(PipelineDiagnostic(file: path, mark: pair.key.mark, message: problem))
                continue
            }
            do {
                values[name] = try pair.value.jsonValue()
            } catch {
                problems.append(PipelineDiagnostic(file: path, mark: error.mark, message: error.message))
            }
        }
        guard problems.isEmpty else { throw PipelineFileError(problems) }
        return values
    }

    /// Reads the variables of a dotenv file.
    /// - Parameters:
    ///   - text: the file's text.
    ///   - path: the name diagnostics use.
    /// - Returns: the bare values as text, typed where they are used as `--var` values are
    ///   (`age=30` is the number 30), and the quoted ones as strings (`id="007"` stays `"007"`, as
    ///   YAML's and Hurl's quotes say).
    /// - Throws: ``PipelineFileError`` with the line of each problem.
    public static func dotenv(_ text: String, path: String) throws(PipelineFileError) -> (text: [String: String], typed: [String: JSONValue]) {
        var values: [String: String] = [:]
        var quoted: [String: JSONValue] = [:]
        var problems: [PipelineDiagnostic] = []
        // CR LF is one `Character`, and a line break like any other.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let mark = YAMLNode.Mark(line: index + 1, column: 1)
            var line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst(7).drop { $0 == " " } }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append(PipelineDiagnostic(file: path, mark: mark, message: "a line of a dotenv file is NAME=VALUE"))
                continue
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            if let problem = TemplateString.problem(naming: name) {
                problems.append(PipelineDiagnostic(file: path, mark: mark, message: problem))
                continue
            }
            do {
                let (value, isQuoted) = try value(line[line.index(after: equals)...])
                // A later line wins, whichever way either is written.
                values[name] = isQuoted ? nil : value
                quoted[name] = isQuoted ? .string(value) : nil
            } catch {
                problems.append(PipelineDiagnostic(file: path, mark: mark, message: error.message))
            }
        }
        guard problems.isEmpty else { throw PipelineFileError(problems) }
        return (values, quoted)
    }

    private struct Problem: Error {
        var message: String
    }

    /// The value after `=`: quoted or bare. Read by code points, not characters: a combining mark
    /// after an escape's letter (`\t` then U+07FD) would otherwise hide the letter (found by
    /// fuzzing).
    private static func value(_ text: Substring) throws(Problem) -> (String, quoted: Bool) {
        let text = text.drop { $0 == " " || $0 == "\t" }
        guard let quote = text.unicodeScalars.first, quote == "'" || quote == "\"" else {
            let bare = text.range(of: " #").map { text[..<$0.lowerBound] } ?? text
            return (bare.trimmingCharacters(in: .whitespaces), false)
        }
        let scalars = Array(text.unicodeScalars.dropFirst())
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == quote {
                var rest = String.UnicodeScalarView()
                rest.append(contentsOf: scalars[(index + 1)...])
                let trailing = String(rest).trimmingCharacters(in: .whitespaces)
                guard trailing.isEmpty || trailing.hasPrefix("#") else { throw Problem(message: "text after the closing \(quote)") }
                return (String(output), true)
            }
            if quote == "\"", scalar == "\\", index + 1 < scalars.count {
                index += 1
                switch scalars[index] {
                case "n": output.append("\n")
                case "t": output.append("\t")
                case "r": output.append("\r")
                default: output.append(scalars[index])
                }
            } else {
                output.append(scalar)
            }
            index += 1
        }
        throw Problem(message: "the value has no closing \(quote)")
    }
}
