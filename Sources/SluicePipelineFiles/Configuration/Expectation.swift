import SluiceCore
import SluiceJSONPath
import SluiceStageRegistry

/// One check of a request's `expect:`, with the line it was written on.
public struct Expectation: Sendable {
    /// An operator of a body predicate, `{JSONPATH: {OP: value}}`.
    public enum Operator: String, Sendable, CaseIterable {
        /// The selected value equals the expected one (numbers by value: `1` equals `1.0`).
        case equals
        /// The selected value does not equal the expected one.
        case not
        /// A string holds the expected text; an array holds the expected element; an object has
        /// the expected key.
        case contains
        /// A string matches the expected regular expression (anywhere in it).
        case matches
        /// `true`: the path selects something; `false`: it selects nothing.
        case exists
        /// The selected number is less than the expected one.
        case lt
        /// The selected number is less than or equal to the expected one.
        case le
        /// The selected number is greater than the expected one.
        case gt
        /// The selected number is greater than or equal to the expected one.
        case ge
        /// The selected value's JSON type: `string`, `number`, `integer`, `boolean`, `array`,
        /// `object` or `null`.
        case type
        /// An array's elements, an object's members, a string's characters, or the nodes a
        /// non-singular path selects, number the expected count.
        case count
    }

    /// What is checked.
    public enum Check: Sendable {
        /// The status is in the set (`200`, `[200, 201]`, `2xx`).
        case status(StatusCodeSet)
        /// A header has the value; `/regex/` values are matched as regular expressions.
        case header(name: String, value: YAMLNode)
        /// The value at a JSONPath satisfies an operator.
        case body(path: JSONPath, operator: Operator, expected: YAMLNode)
        /// A field of the certificate the server presented satisfies an operator.
        case certificate(field: CertificateField, operator: Operator, expected: YAMLNode)
        /// The value of the cookie of this name that the run's jar holds for the response's URL
        /// after the exchange (`null` when it has none) satisfies an operator.
        case cookie(name: String, operator: Operator, expected: YAMLNode)
        /// The exchange took no longer than this.
        case maxDuration(Duration)
    }

    /// What is checked.
    public var check: Check
    /// Where the check is written.
    public var mark: YAMLNode.Mark
    /// The check as written, for reports: `status`, `headers.Content-Type`, `body $.args.q equals`.
    public var label: String

    /// The node whose scalars may hold `${...}`.
    var templatedValue: YAMLNode? {
        switch check {
        case .header(_, let value), .body(_, _, let value), .certificate(_, _, let value), .cookie(_, _, let value): value
        case .status, .maxDuration: nil
        }
    }
}

/// One entry of a request's `capture:`: a value taken from the response for `${NAME}` in later
/// requests.
public struct Capture: Sendable {
    /// Where the value comes from.
    public enum Source: Sendable {
        /// The value at a JSONPath of the decoded body (a string as it is, another value as JSON).
        case jsonPath(JSONPath)
        /// A response header's value.
        case header(String)
        /// The first match of a regular expression in the body text: its first group when it has one.
        case regex(String)
        /// A field of the certificate the server presented (a string as it is, another value as JSON).
        case certificate(CertificateField)
        /// The value of the cookie of this name that the run's jar holds for the response's URL.
        case cookie(String)
    }

    /// The variable's name.
    public var name: String
    /// Where the value comes from.
    public var source: Source
    /// Where the capture is written.
    public var mark: YAMLNode.Mark
}

extension Expectation.Operator {
    /// The operator a mapping key was most likely meant to be, when it is a near miss: one of its
    /// hyphenated words is an operator (`not-equals`), or it is one edit from an operator of three
    /// or four letters (`nott`), two from a longer one (`equal`, `contain`). Two-letter operators
    /// (`lt`, `ge`) are too close to ordinary keys to guess at. A near miss is a load-time error,
    /// so a typo never turns into a comparison with a literal object.
    static func nearest(to key: String) -> Self? {
        let word = key.lowercased()
        let parts = word.split(separator: "-").map(String.init)
        if parts.count > 1, let part = parts.lazy.compactMap({ Self(rawValue: $0) }).first { return part }
        return allCases.filter { $0.rawValue.count >= 3 }.first { candidate in
            editDistance(word, candidate.rawValue) <= (candidate.rawValue.count >= 5 ? 2 : 1)
        }
    }

    /// Levenshtein distance between two short words.
    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension Expectation {
    /// The JSON type's name: `integer` for an int, `number` for any other number.
    package static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int, .bigInteger: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
