import SluiceCore
import SluiceJSONPath
import SluiceStageRegistry

/// One check of a request's `expect:`, with the line it was written on.
public struct Expectation: Sendable {
    /// An operator of a body predicate, `{JSONPATH: {OP: value}}`.
    public enum Operator: String, Sendable, CaseIterable {
        /// The selected value equals the expected one (numbers by value: `1` equals `1.0`).
        case equals
        /// A string holds the expected text; an array holds the expected element; an object has
        /// the expected key; bytes hold the expected bytes.
        case contains
        /// A string (or bytes) starts with the expected one.
        case startsWith = "starts-with"
        /// A string (or bytes) ends with the expected one.
        case endsWith = "ends-with"
        /// A string matches the expected regular expression (anywhere in it).
        case matches
        /// `true`: the path selects something; `false`: it selects nothing.
        case exists
        /// The selected value is less than the expected one: numbers by value, strings by code
        /// points, dates by time.
        case lt
        /// The selected value is less than or equal to the expected one.
        case le
        /// The selected value is greater than the expected one.
        case gt
        /// The selected value is greater than or equal to the expected one.
        case ge
        /// The selected value's JSON type: `string`, `number`, `integer`, `float` (a number that
        /// is not an integer), `boolean`, `array`, `object` or `null`.
        case type
        /// An array's elements, an object's members, a string's characters, or the nodes a
        /// non-singular path selects, number the expected count.
        case count
        /// The selected value is of a kind (``Expectation/ValueKind``): `integer`, `float`,
        /// `iso-date`, `empty`, ...: Hurl's `isInteger`, `isFloat`, `isIsoDate`, `isEmpty`.
        case `is`
    }

    /// What `is:` tells of a value.
    public enum ValueKind: String, Sendable, CaseIterable {
        /// An integer (of any size).
        case integer
        /// A number written with a fraction or an exponent.
        case float
        /// Any number.
        case number
        /// A string.
        case string
        /// `true` or `false`.
        case boolean
        /// A list, an object, bytes or a node-set.
        case collection
        /// A list.
        case list
        /// An object.
        case object
        /// A date (what `to-date` makes).
        case date
        /// A string that is an RFC 3339 date and time (`2026-11-27T04:14:14Z`).
        case isoDate = "iso-date"
        /// An empty string, list, object, node-set or byte string.
        case empty
        /// A string that is an IPv4 address.
        case ipv4
        /// A string that is an IPv6 address.
        case ipv6
        /// A string that is a UUID (`8-4-4-4-12` hex digits).
        case uuid
        /// `null`.
        case null
    }
    /// A predicate: an operator, its expected value, and whether it is negated.
    public struct Predicate: Sendable {
        /// `not:` was written: the check holds when the operator does not.
        public var negated: Bool
        /// The operator.
        public var op: Operator
        /// The expected value as written (`${...}` filled in when judged).
        public var expected: YAMLNode

        /// A predicate.
        public init(negated: Bool = false, op: Operator, expected: YAMLNode) {
            self.negated = negated
            self.op = op
            self.expected = expected
        }
    }

    /// What is checked.
    public enum Check: Sendable {
        /// The status is in the set (`200`, `[200, 201]`, `2xx`).
        case status(StatusCodeSet)
        /// A header has the value; `/regex/` values are matched as regular expressions.
        case header(name: String, value: YAMLNode)
        /// What a query reads, through its filters, satisfies a predicate: every check of
        /// `expect.checks`, `expect.body`, `expect.cookies` and `expect.certificate`.
        case query(CheckQuery, filters: [CheckFilter], predicate: Predicate)
        /// The exchange took no longer than this.
        case maxDuration(Duration)
    }

    /// What is checked.
    public var check: Check
    /// Where the check is written.
    public var mark: YAMLNode.Mark
    /// The check as written, for reports: `status`, `headers.Content-Type`, `body $.args.q equals`.
    public var label: String
    /// Whether judging the check may read a variable (a `variable` query, or a `${...}` in it),
    /// and so a capture of its own request: worked out when the check is read, as a run asks for
    /// every exchange.
    public let readsVariables: Bool

    /// A check.
    init(check: Check, mark: YAMLNode.Mark, label: String) {
        self.check = check
        self.mark = mark
        self.label = label
        if case .query(.variable, _, _) = check {
            readsVariables = true
        } else {
            readsVariables = Expectation.templatedNodes(of: check).contains { !$0.references().references.isEmpty }
        }
    }

    /// The nodes whose scalars may hold `${...}`.
    var templatedNodes: [YAMLNode] {
        Expectation.templatedNodes(of: check)
    }

    /// The nodes of a check whose scalars may hold `${...}`.
    private static func templatedNodes(of check: Check) -> [YAMLNode] {
        switch check {
        case .header(_, let value): [value]
        case .query(let query, let filters, let predicate): query.templatedNodes + filters.flatMap(\.arguments) + [predicate.expected]
        case .status, .maxDuration: []
        }
    }
}

/// One entry of a request's `capture:`: a value taken from the response for `${NAME}` in later
/// requests.
public struct Capture: Sendable {
    /// The variable's name.
    public var name: String
    /// What is read of the exchange.
    public var query: CheckQuery
    /// The filters the value goes through.
    public var filters: [CheckFilter]
    /// Where the capture is written.
    public var mark: YAMLNode.Mark

    /// A capture.
    public init(name: String, query: CheckQuery, filters: [CheckFilter] = [], mark: YAMLNode.Mark) {
        self.name = name
        self.query = query
        self.filters = filters
        self.mark = mark
    }

    /// The nodes whose scalars may hold `${...}`.
    var templatedNodes: [YAMLNode] {
        query.templatedNodes + filters.flatMap(\.arguments)
    }
}

extension Expectation.Operator {
    /// The operator a mapping key was most likely meant to be, when it is a near miss: one of its
    /// hyphenated words is an operator (`not-equals`), or it is one edit from an operator of three
    /// or four letters (`nott`), two from a longer one (`equal`, `contain`). Two-letter operators
    /// (`lt`, `ge`) are too close to ordinary keys to guess at. A near miss is a load-time error,
    /// so a typo never turns into a comparison with a literal object.
    static func nearest(to key: String) -> String? {
        let word = key.lowercased()
        let names = allCases.map(\.rawValue) + ["not"]
        let parts = word.split(separator: "-").map(String.init)
        if parts.count > 1, let part = parts.first(where: names.contains) { return part }
        return names.filter { $0.count >= 3 }.first { candidate in
            editDistance(word, candidate) <= (candidate.count >= 5 ? 2 : 1)
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
