import Foundation
internal import SwiftCSV
import SluiceCore
import SluiceStageRegistry

/// A `for-each:` as written: the rows a request, or a group of requests, runs once for.
///
/// ```yaml
/// for-each: [alice, bob]                            # ${item}
/// for-each: [{user: alice, role: admin}, {user: bob}]
/// for-each: {csv: data/users.csv}                   # the header row names the variables
/// for-each: {json: data/users.json}                 # an array of objects, or of scalars (${item})
/// ```
public struct ForEachSpec: Sendable {
    /// Where the rows come from.
    public enum Source: Sendable {
        /// A YAML list in the file.
        case list(YAMLNode)
        /// A CSV file (RFC 4180, comma-separated, a header row), relative to the pipeline file.
        case csv(YAMLNode)
        /// A JSON file holding an array, relative to the pipeline file.
        case json(YAMLNode)
    }

    /// The source.
    public var source: Source
    /// Where `for-each:` is written.
    public var mark: YAMLNode.Mark

    /// The variable a row that is a single value (not a mapping) binds: `${item}`.
    public static let itemName = "item"
    /// The most rows one `for-each` may produce: a guard against a runaway data file.
    public static let maximumRows = 100_000

    /// Why rows cannot be read, and where.
    struct Problem: Error {
        var mark: YAMLNode.Mark
        var message: String
    }

    /// The rows, in order.
    /// - Parameter directory: the folder relative file paths are resolved against.
    func rows(directory: URL?) throws(Problem) -> [ForEachRow] {
        let rows: [ForEachRow]
        switch source {
        case .list(let node): rows = try listRows(node)
        case .csv(let path): rows = try csvRows(try read(path, directory: directory), at: path.mark)
        case .json(let path): rows = try jsonRows(try read(path, directory: directory), at: path.mark)
        }
        guard !rows.isEmpty else { throw Problem(mark: mark, message: "for-each has no rows; a request that runs for none of them is most likely a mistake") }
        guard rows.count <= ForEachSpec.maximumRows else {
            throw Problem(mark: mark, message: "for-each has \(rows.count) rows, more than the \(ForEachSpec.maximumRows) a run takes")
        }
        return rows
    }

    private func read(_ path: YAMLNode, directory: URL?) throws(Problem) -> String {
        guard let text = path.scalar else { throw Problem(mark: path.mark, message: "a for-each file is a path") }
        let resolved = StageOptions.resolve(text, against: directory)
        do {
            return try InputFile.text(at: resolved, role: "the for-each file")
        } catch {
            throw Problem(mark: path.mark, message: "cannot read '\(text)' (\(resolved)): \(error.reason)")
        }
    }

    private func listRows(_ node: YAMLNode) throws(Problem) -> [ForEachRow] {
        guard let elements = node.elements else { throw Problem(mark: node.mark, message: "for-each is a list, {csv: PATH} or {json: PATH}") }
        // Every row one shape: a request reads ${item} of a value or the keys of a mapping, and
        // a list of both fails the rows of the other shape.
        if let first = elements.first, let other = elements.first(where: { ($0.scalar != nil) != (first.scalar != nil) && ($0.scalar != nil || $0.pairs != nil) }) {
            let (values, mapping) = first.scalar != nil ? (first, other) : (other, first)
            throw Problem(
                mark: other.mark,
                message: "for-each mixes single values (${\(ForEachSpec.itemName)}, line \(values.mark.line)) and mappings of variables (line \(mapping.mark.line)): give every row the same shape"
            )
        }
        var rows: [ForEachRow] = []
        for element in elements {
            if element.scalar != nil {
                rows.append(ForEachRow(typed: [(ForEachSpec.itemName, try ForEachSpec.value(of: element))]))
            } else if let pairs = element.pairs {
                var values: [(String, JSONValue)] = []
                for pair in pairs {
                    guard let name = pair.key.scalar else {
                        throw Problem(mark: pair.key.mark, message: "a for-each row maps variable names to values")
                    }
                    values.append((name, try ForEachSpec.value(of: pair.value)))
                }
                let row = try ForEachRow(checking: values, at: element.mark)
                if let first = rows.first, let problem = row.namesProblem(against: first, named: "the first row (line \(elements[0].mark.line))") {
                    throw Problem(mark: element.mark, message: "this for-each row \(problem)")
                }
                rows.append(row)
            } else {
                throw Problem(mark: element.mark, message: "a for-each row is a value (${item}) or a mapping of variables")
            }
        }
        return rows
    }

    /// A value written in the pipeline, typed as YAML reads it; a scalar keeps its text as written
    /// (`1.50` renders as `1.50` inside a longer string).
    private static func value(of node: YAMLNode) throws(Problem) -> JSONValue {
        do {
            return try node.jsonValue()
        } catch {
            throw Problem(mark: error.mark, message: error.message)
        }
    }

    private func csvRows(_ text: String, at mark: YAMLNode.Mark) throws(Problem) -> [ForEachRow] {
        if let problem = ForEachSpec.quoteProblem(in: text) {
            throw Problem(mark: mark, message: "the CSV file cannot be read: \(problem)")
        }
        let csv: EnumeratedCSV
        // The rows as the file has them: EnumeratedCSV's own pads short ones with empty cells.
        var read: [[String]] = []
        do {
            csv = try EnumeratedCSV(string: text, delimiter: .comma, loadColumns: false)
            try csv.enumerateAsArray(startAt: 1, rowLimit: nil) { read.append($0) }
        } catch {
            throw Problem(mark: mark, message: "the CSV file cannot be read: \(error)")
        }
        guard !csv.header.isEmpty else { throw Problem(mark: mark, message: "the CSV file has no header row naming its columns") }
        var rows: [ForEachRow] = []
        for (index, cells) in read.enumerated() {
            // A blank line holds one empty cell: not a row.
            if cells.allSatisfy(\.isEmpty) { continue }
            guard cells.count == csv.header.count else {
                let missing = cells.count < csv.header.count ? ": \(csv.header[cells.count...].joined(separator: ", ")) would have no value (an empty cell is written, as `1,`)" : ""
                throw Problem(mark: mark, message: "row \(index + 1) of the CSV file has \(cells.count) cell\(cells.count == 1 ? "" : "s"), but the header names \(csv.header.count) columns\(missing)")
            }
            rows.append(try ForEachRow(checking: Array(zip(csv.header, cells)), at: mark))
        }
        return rows
    }

    /// What RFC 4180 finds wrong with a CSV file's quotes, `nil` when nothing: a quoted field
    /// never closed (Python's `csv` module in strict mode says `unexpected end of data`), or a
    /// quote inside a field that does not start with one (which SwiftCSV refuses with words of
    /// its own). A field that starts with `"` runs to the next `"` not doubled.
    static func quoteProblem(in text: String) -> String? {
        var line = 1, opened = 0
        var quoted = false, atFieldStart = true
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if bytes.first == UInt8(ascii: "\"") { bytes.removeFirst() } else { quoted = false }
                } else if byte == UInt8(ascii: "\n") {
                    line += 1
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard atFieldStart else {
                    return "line \(line) has a quote inside a field that does not start with one; quote the whole field, the quote written twice (\"ab\"\"c\")"
                }
                quoted = true
                opened = line
                atFieldStart = false
            case UInt8(ascii: ","):
                atFieldStart = true
            case UInt8(ascii: "\n"):
                line += 1
                atFieldStart = true
            case UInt8(ascii: "\r"):
                break
            default:
                atFieldStart = false
            }
        }
        return quoted ? "the quoted field that starts on line \(opened) is never closed (a quote inside a quoted field is written twice: \"\")" : nil
    }

    private func jsonRows(_ text: String, at mark: YAMLNode.Mark) throws(Problem) -> [ForEachRow] {
        let value: JSONValue
        do {
            value = try JSONReader().value(from: text)
        } catch {
            throw Problem(mark: mark, message: "the JSON file cannot be read: \(error)")
        }
        guard case .array(let elements) = value else { throw Problem(mark: mark, message: "the JSON file holds \(Expectation.typeName(of: value)), not an array of rows") }
        var rows: [ForEachRow] = []
        for (index, element) in elements.enumerated() {
            let row: ForEachRow
            switch element {
            case .object(let object):
                row = try ForEachRow(checking: object.map { ($0.key, $0.value) }, at: mark)
            case .array:
                throw Problem(mark: mark, message: "row \(index + 1) of the JSON file is an array; a row is an object or a single value")
            default:
                row = ForEachRow(typed: [(ForEachSpec.itemName, element)])
            }
            if index > 0, Self.isObject(elements[0]) != Self.isObject(element) {
                let (shape, firstShape) = Self.isObject(element) ? ("an object", "a single value") : ("a single value", "an object")
                throw Problem(mark: mark, message: "row \(index + 1) of the JSON file is \(shape), where row 1 is \(firstShape): give every row the same shape")
            } else if index > 0, let problem = row.namesProblem(against: rows[0], named: "row 1") {
                throw Problem(mark: mark, message: "row \(index + 1) of the JSON file \(problem)")
            }
            rows.append(row)
        }
        return rows
    }

    private static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }
}

/// One row of a `for-each`: variable names and values, in their order.
public struct ForEachRow: Sendable, Hashable {
    /// The values, in the row's order.
    public var values: [Pair]
    /// Whether the row stands in for those of a `for-each` that could not be read (malformed,
    /// or its data file missing or malformed): its names are unknown, so what its requests read
    /// is not judged. That `for-each` is a load error, so no run sees this row.
    private(set) var isUnread = false

    /// The row given to the requests of a `for-each` that could not be read, so that they and
    /// the rest of the file are still checked.
    static let unread = { var row = ForEachRow(values: []); row.isUnread = true; return row }()

    /// A name and its value.
    public struct Pair: Sendable, Hashable {
        /// The variable's name.
        public var name: String
        /// Its value's text.
        public var value: String
        /// Its JSON value, for a row that has types (a JSON file's, a list written in the
        /// pipeline); `nil` for a CSV cell, which is text.
        public var typed: JSONValue?
    }

    init(values: [(String, String)]) {
        self.values = values.map { Pair(name: $0.0, value: $0.1) }
    }

    init(typed values: [(String, JSONValue)]) {
        self.values = values.map { Pair(name: $0.0, value: VariableScope.text(of: $0.1), typed: $0.1) }
    }

    init(checking values: [(String, JSONValue)], at mark: YAMLNode.Mark) throws(ForEachSpec.Problem) {
        try self.init(checking: values.map { ($0.0, VariableScope.text(of: $0.1)) }, at: mark)
        self = ForEachRow(typed: values)
    }

    init(checking values: [(String, String)], at mark: YAMLNode.Mark) throws(ForEachSpec.Problem) {
        var seen = Set<CodePointKey>()
        for (name, _) in values {
            if let problem = TemplateString.problem(naming: name) {
                throw ForEachSpec.Problem(mark: mark, message: "\(problem), so it cannot name a for-each column")
            }
            guard seen.insert(CodePointKey(name)).inserted else {
                throw ForEachSpec.Problem(mark: mark, message: "the for-each column '\(name)' is named twice")
            }
        }
        self.init(values: values)
    }

    /// What sets this row's names apart from `first`'s (which `firstName` names), as words that
    /// follow "this row": the names it lacks and those it adds, each compared code point by code
    /// point; `nil` when the two name the same variables, in any order. A row that lacks a name
    /// would leave a request reading it undefined, or reading the pipeline's own value of that
    /// name, for that row alone.
    func namesProblem(against first: ForEachRow, named firstName: String) -> String? {
        let expected = Set(first.values.map { CodePointKey($0.name) })
        let own = Set(values.map { CodePointKey($0.name) })
        guard own != expected else { return nil }
        let missing = first.values.map(\.name).filter { !own.contains(CodePointKey($0)) }
        let added = values.map(\.name).filter { !expected.contains(CodePointKey($0)) }
        var differences: [String] = []
        if !missing.isEmpty { differences.append("lacks \(missing.joined(separator: ", ")), which \(firstName) has") }
        if !added.isEmpty { differences.append("has \(added.joined(separator: ", ")), which \(firstName) has not") }
        return differences.joined(separator: ", and ") + ": give every row the same names (null or \"\" for a value it has not)"
    }

    /// The row's values as variables.
    public var variables: [String: String] {
        Dictionary(values.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// How results name the row: `alice` for a single value, `user=alice, role=admin` for a
    /// mapping. A string that reads as another type is quoted (`"1"` beside `1`), so that rows of
    /// `[1, "1"]` are told apart.
    public var label: String {
        if values.count == 1, values[0].name == ForEachSpec.itemName { return ForEachRow.shown(values[0]) }
        return values.map { "\($0.name)=\(ForEachRow.shown($0))" }.joined(separator: ", ")
    }

    /// A value's text, quoted when it is a string that would read as a number, a Boolean or null.
    private static func shown(_ pair: Pair) -> String {
        guard case .string(let text)? = pair.typed, VariableScope.typedText(text) != .string(text) else { return pair.value }
        return "\"\(text)\""
    }

    /// The row with another's values added, the other's winning: for nested `for-each`.
    func merged(with inner: ForEachRow) -> ForEachRow {
        let innerNames = Set(inner.values.map { CodePointKey($0.name) })
        var row = self
        row.values = values.filter { !innerNames.contains(CodePointKey($0.name)) } + inner.values
        row.isUnread = isUnread || inner.isUnread
        return row
    }
}
