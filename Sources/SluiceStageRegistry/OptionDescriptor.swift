import SluiceCore

/// One option of a stage as pipeline files write it: its name, the kind of value it takes, and
/// what it means.
///
/// The loader checks every value against its descriptor before a stage is made, so a factory
/// reads values that are known to be well formed; `sluice stages` lists the descriptors, and the
/// pipeline format's JSON Schema is generated from them.
public struct OptionDescriptor: Sendable {
    /// The kind of value an option takes.
    public indirect enum ValueType: Sendable {
        /// Any scalar, read as text.
        case string
        /// Any scalar, `null` included, kept with its YAML type (a `for-each` row's value).
        case scalar
        /// `true` or `false`.
        case boolean
        /// A whole number.
        case integer
        /// A whole number in a range.
        case integerIn(ClosedRange<Int>)
        /// A size in bytes (`1048576`, `512KiB`, `10MB`), or `none` for no limit.
        case byteCount
        /// A condition, judged when a request is about to run (`env == 'staging' and exists token`).
        case condition
        /// A tag: a word of letters, digits, `-`, `_`, `.`, `:` or `/`.
        case tag
        /// A number and a unit: `500ms`, `30s`, `2m`.
        case duration
        /// One of the given words.
        case choice([String])
        /// An HTTP status code (`200`), a range (`200-299`) or a class (`2xx`).
        case statusCode
        /// A sequence of values of one type; a lone value is read as a list of one.
        case list(ValueType)
        /// A mapping from any names to values of one type, order kept.
        case map(ValueType)
        /// A mapping with the given options and no others.
        case object([OptionDescriptor])
        /// A value of any one of the given types.
        case oneOf([ValueType])
        /// A value whose shape is described once elsewhere in the format, by name (`entry`, a
        /// request or a group of requests; `stage`, a stage entry).
        case reference(String)
        /// Any YAML value, read as JSON.
        case any
    }

    /// The option's name, as written in a pipeline file (`base-url`).
    public var name: String
    /// The kind of value it takes.
    public var type: ValueType
    /// Whether a stage entry must give it.
    public var isRequired: Bool
    /// Whether its values are secrets, redacted as `***` in every output (and so is everything
    /// inside it).
    public var isSecret: Bool
    /// The value used when the option is left out, as text for people (`10`, `[GET, HEAD, DELETE]`);
    /// `nil` when there is none to show.
    public var defaultValue: String?
    /// One sentence saying what the option does.
    public var summary: String

    /// Creates a descriptor.
    public init(
        _ name: String,
        _ type: ValueType,
        required: Bool = false,
        secret: Bool = false,
        default defaultValue: String? = nil,
        summary: String
    ) {
        self.name = name
        self.type = type
        self.isRequired = required
        self.isSecret = secret
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

extension OptionDescriptor.ValueType {
    /// The type in words, as `sluice stages` shows it: `string`, `list of status code`,
    /// `one of form | json`.
    public var summary: String {
        switch self {
        case .string: "string"
        case .scalar: "scalar (string, number, boolean or null)"
        case .boolean: "boolean"
        case .integer: "integer"
        case .integerIn(let range): "integer from \(range.lowerBound)" + (range.upperBound == Int.max ? " up" : " to \(range.upperBound)")
        case .byteCount: "size (1048576, 512KiB, 10MB) or none"
        case .condition: "condition (env == 'staging' and exists token)"
        case .tag: "tag (letters, digits, - _ . : /)"
        case .duration: "duration (500ms, 30s, 2m)"
        case .choice(let words): "one of " + words.joined(separator: " | ")
        case .statusCode: "status code, range or class (200, 200-299, 2xx)"
        case .list(let element): "list of " + element.summary
        case .map(let value): "map of name to " + value.summary
        case .object(let options): "{ " + options.map(\.name).joined(separator: ", ") + " }"
        case .oneOf(let types): types.map(\.summary).joined(separator: " or ")
        case .reference(let name): name
        case .any: "any value"
        }
    }

    /// The problems `node` has as a value of this type, each with where it is; none when it fits.
    public func problems(in node: YAMLNode, option: String) -> [(mark: YAMLNode.Mark, message: String)] {
        switch self {
        case .any, .reference:
            return []
        case .scalar:
            return node.scalar == nil ? [(node.mark, "\(option) must be \(withArticle), not a \(node.elements == nil ? "mapping" : "list")")] : []
        case .oneOf(let types):
            let problems = types.map { $0.problems(in: node, option: option) }
            return problems.contains(where: \.isEmpty) ? [] : [(node.mark, "\(option) must be \(summary)")]
        case .list(let element):
            guard let elements = node.elements else { return element.problems(in: node, option: option) }
            return elements.flatMap { element.problems(in: $0, option: option) }
        case .map(let value):
            guard let pairs = node.pairs else { return [(node.mark, "\(option) must be a mapping of names to values")] }
            return pairs.flatMap { pair in
                pair.key.scalar == nil
                    ? [(pair.key.mark, "\(option) keys must be names")]
                    : value.problems(in: pair.value, option: "\(option).\(pair.key.scalar!)")
            }
        case .object(let options):
            guard let pairs = node.pairs else {
                return [(node.mark, "\(option) must be a mapping with " + options.map(\.name).joined(separator: ", "))]
            }
            return OptionDescriptor.problems(in: pairs, at: node.mark, options: options, owner: option)
        case .string, .boolean, .integer, .integerIn, .byteCount, .condition, .tag, .duration, .choice, .statusCode:
            guard let text = node.scalar else { return [(node.mark, "\(option) must be \(withArticle), not a \(node.elements == nil ? "mapping" : "list")")] }
            guard !node.isNull else { return [(node.mark, "\(option) needs a value: \(summary)")] }
            return accepts(text) ? [] : [(node.mark, "\(option) must be \(withArticle), not '\(text)'")]
        }
    }

    /// The summary with an article: `a string`, `an integer`, `one of a | b`.
    private var withArticle: String {
        switch self {
        case .integer, .integerIn, .any: "an " + summary
        case .choice: summary
        default: "a " + summary
        }
    }

    /// Whether a scalar's text is a value of this scalar type.
    private func accepts(_ text: String) -> Bool {
        switch self {
        case .string, .scalar: true
        case .boolean: ["true", "false", "True", "False", "TRUE", "FALSE"].contains(text)
        case .integer: Int(text) != nil
        case .integerIn(let range): Int(text).map(range.contains) == true
        case .byteCount: text.hasSameCodePoints(as: "none") || ByteCountText.parse(text) != nil
        case .condition: true
        case .tag:
            !text.isEmpty
                && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:/".unicodeScalars.contains($0)) }
        case .duration: DurationText.parse(text) != nil
        case .choice(let words): words.contains(text)
        case .statusCode: StatusCodeSet(parsing: text) != nil
        case .list, .map, .object, .oneOf, .reference, .any: false
        }
    }
}

extension OptionDescriptor {
    /// The problems of a mapping of options: unknown names (with the nearest known one
    /// suggested), missing required ones, and values of the wrong type.
    package static func problems(
        in pairs: [YAMLNode.Pair], at mark: YAMLNode.Mark, options: [OptionDescriptor], owner: String
    ) -> [(mark: YAMLNode.Mark, message: String)] {
        var problems: [(mark: YAMLNode.Mark, message: String)] = []
        for pair in pairs {
            guard let key = pair.key.scalar, let option = options.first(where: { $0.name == key }) else {
                let key = pair.key.scalar ?? "?"
                var message = "unknown option '\(key)' for \(owner)"
                if let near = nearest(to: key, in: options.map(\.name)) { message += "; did you mean '\(near)'?" }
                message += options.isEmpty ? " (it takes no options)" : " (options: " + options.map(\.name).joined(separator: ", ") + ")"
                problems.append((pair.key.mark, message))
                continue
            }
            problems += option.type.problems(in: pair.value, option: key)
        }
        for option in options where option.isRequired && !pairs.contains(where: { $0.key.scalar == option.name }) {
            problems.append((mark, "\(owner) needs '\(option.name)': \(option.summary)"))
        }
        return problems
    }

    /// The candidate closest to `word` by edit distance, when it is close enough to be a typo, or
    /// else the one that shares the most of its start, when that is most of the word.
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        if let (candidate, distance) = scored, distance <= max(2, word.count / 3) { return candidate }
        // Another ending on the same stem (`url-resolver` for `url-resolution`): at least two
        // thirds of the word, and four characters, in common from the start.
        let stems = candidates.map { ($0, commonPrefixLength(word.lowercased(), $0.lowercased())) }.max { $0.1 < $1.1 }
        guard let (candidate, length) = stems, length >= 4, length * 3 >= word.count * 2 else { return nil }
        return candidate
    }

    private static func commonPrefixLength(_ a: String, _ b: String) -> Int {
        zip(a, b).prefix { $0 == $1 }.count
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        var row = Array(0...b.count)
        for i in a.indices {
            var previous = row[0]
            row[0] = i + 1
            for j in b.indices {
                let current = row[j + 1]
                row[j + 1] = a[i] == b[j] ? previous : min(previous, row[j + 1], row[j]) + 1
                previous = current
            }
        }
        return row[b.count]
    }
}
