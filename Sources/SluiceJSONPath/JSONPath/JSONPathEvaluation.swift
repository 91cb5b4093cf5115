import SluiceCore

/// One run of a query over a document: the segments applied in turn, filters tested on each
/// candidate, and every node visited and regular-expression step counted against the limits.
struct JSONPathEvaluation {
    /// The document, for `$` inside filters.
    let root: JSONValue
    /// The query, for errors.
    let path: JSONPath
    private let nodeLimit: Int
    private var nodesLeft: Int
    private let regexStepLimit: Int
    private var regexStepsLeft: Int
    /// Patterns taken from the document, compiled once each (`nil`: not I-Regexp), by code point.
    private var patterns: [CodePointKey: IRegexp?] = [:]

    /// The most patterns from the document kept compiled at once.
    private static let patternCacheSize = 256

    init(root: JSONValue, path: JSONPath, nodesLeft: Int, regexStepsLeft: Int) {
        self.root = root
        self.path = path
        nodeLimit = nodesLeft
        self.nodesLeft = nodesLeft
        regexStepLimit = regexStepsLeft
        self.regexStepsLeft = regexStepsLeft
    }

    /// The nodes `segments` select from `start`.
    mutating func select(_ segments: [JSONPath.Segment], from start: JSONValue) throws(JSONPath.LimitExceeded) -> [JSONValue] {
        var nodes = [start]
        for segment in segments {
            var next: [JSONValue] = []
            for node in nodes {
                guard segment.descendant else {
                    try apply(segment.selectors, to: node, into: &next)
                    continue
                }
                // The node, then its descendants in document order (RFC 9535 section 2.5.2.2).
                var pending = [node]
                while let target = pending.popLast() {
                    try spend(1)
                    try apply(segment.selectors, to: target, into: &next)
                    switch target {
                    case .array(let elements): pending += elements.reversed()
                    case .object(let object): pending += object.members.reversed().map(\.value)
                    default: break
                    }
                }
            }
            nodes = next
        }
        return nodes
    }

    private mutating func spend(_ nodes: Int) throws(JSONPath.LimitExceeded) {
        nodesLeft -= nodes
        if nodesLeft < 0 { throw JSONPath.LimitExceeded(path: path.text, limit: nodeLimit, unit: .nodes) }
    }

    private mutating func apply(_ selectors: [JSONPath.Selector], to value: JSONValue, into nodes: inout [JSONValue]) throws(JSONPath.LimitExceeded) {
        for selector in selectors {
            switch (selector, value) {
            case (.name(let name), .object(let object)):
                if let member = object[name] {
                    try spend(1)
                    nodes.append(member)
                }
            case (.wildcard, .object(let object)):
                try spend(object.members.count)
                nodes += object.members.map(\.value)
            case (.wildcard, .array(let elements)):
                try spend(elements.count)
                nodes += elements
            case (.index(let index), .array(let elements)):
                let position = index < 0 ? elements.count + index : index
                if elements.indices.contains(position) {
                    try spend(1)
                    nodes.append(elements[position])
                }
            case (.slice(let start, let end, let step), .array(let elements)):
                try slice(elements, start: start, end: end, step: step ?? 1, into: &nodes)
            case (.filter(let expression), .object(let object)):
                for member in object.members { try filter(member.value, by: expression, into: &nodes) }
            case (.filter(let expression), .array(let elements)):
                for element in elements { try filter(element, by: expression, into: &nodes) }
            default:
                break
            }
        }
    }

    private mutating func filter(_ candidate: JSONValue, by expression: JSONPath.LogicalExpression, into nodes: inout [JSONValue]) throws(JSONPath.LimitExceeded) {
        try spend(1)
        if try test(expression, on: candidate) {
            try spend(1)
            nodes.append(candidate)
        }
    }

    /// RFC 9535 section 2.3.4.2.2.
    private mutating func slice(_ elements: [JSONValue], start: Int?, end: Int?, step: Int, into nodes: inout [JSONValue]) throws(JSONPath.LimitExceeded) {
        let count = elements.count
        guard step != 0, count > 0 else { return }
        func normalize(_ index: Int) -> Int { index >= 0 ? index : count + index }
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), count)
            let upper = min(max(normalize(end ?? count), 0), count)
            for index in stride(from: lower, to: upper, by: step) {
                try spend(1)
                nodes.append(elements[index])
            }
        } else {
            let upper = min(max(normalize(start ?? count - 1), -1), count - 1)
            let lower = min(max(end.map(normalize) ?? -1, -1), count - 1)
            for index in stride(from: upper, to: lower, by: step) {
                try spend(1)
                nodes.append(elements[index])
            }
        }
    }

    // MARK: Filter expressions

    /// Whether `expression` holds with `current` as `@`.
    private mutating func test(_ expression: JSONPath.LogicalExpression, on current: JSONValue) throws(JSONPath.LimitExceeded) -> Bool {
        switch expression {
        case .or(let branches):
            for branch in branches where try test(branch, on: current) { return true }
            return false
        case .and(let terms):
            for term in terms where try !test(term, on: current) { return false }
            return true
        case .not(let inner):
            return try !test(inner, on: current)
        case .exists(let query):
            return try !nodes(of: query, on: current).isEmpty
        case .function(let call):
            switch try evaluate(call, on: current) {
            case .logical(let holds): return holds
            case .nodes(let nodes): return !nodes.isEmpty
            case .value: return false
            }
        case .comparison(let left, let comparison, let right):
            return JSONPathComparison.holds(try value(of: left, on: current), comparison, try value(of: right, on: current))
        }
    }

    private mutating func nodes(of query: JSONPath.FilterQuery, on current: JSONValue) throws(JSONPath.LimitExceeded) -> [JSONValue] {
        try select(query.segments, from: query.isRelative ? current : root)
    }

    /// A comparison's side: its value, or `nil` for Nothing.
    private mutating func value(of operand: JSONPath.ComparisonOperand, on current: JSONValue) throws(JSONPath.LimitExceeded) -> JSONValue? {
        switch operand {
        case .literal(let value): return value
        case .query(let query): return try nodes(of: query, on: current).first
        case .function(let call): return try value(of: JSONPath.FunctionArgument.function(call), on: current)
        }
    }

    // MARK: Functions (RFC 9535 section 2.4)

    /// A function's result, of its declared type.
    private enum FunctionResult {
        /// A value, or `nil` for Nothing.
        case value(JSONValue?)
        case logical(Bool)
        case nodes([JSONValue])
    }

    private mutating func evaluate(_ call: JSONPath.FunctionCall, on current: JSONValue) throws(JSONPath.LimitExceeded) -> FunctionResult {
        switch call.function {
        case .length:
            return .value(JSONPathEvaluation.length(of: try value(of: call.arguments[0], on: current)))
        case .count:
            return .value(.int(try nodes(of: call.arguments[0], on: current).count))
        case .value:
            let nodes = try nodes(of: call.arguments[0], on: current)
            // A bare `nil` here would be JSONValue's `null` literal, not Nothing.
            return .value(nodes.count == 1 ? nodes.first : JSONValue?.none)
        case .match, .search:
            guard case .string(let text)? = try value(of: call.arguments[0], on: current) else { return .logical(false) }
            let pattern = try call.pattern == nil ? value(of: call.arguments[1], on: current) : nil
            guard let regex = call.pattern ?? documentPattern(pattern) else { return .logical(false) }
            guard let matched = regex.matches(text, entire: call.function == .match, steps: &regexStepsLeft) else {
                throw JSONPath.LimitExceeded(path: path.text, limit: regexStepLimit, unit: .regexSteps)
            }
            return .logical(matched)
        }
    }

    /// A `ValueType` argument: its value, or `nil` for Nothing.
    private mutating func value(of argument: JSONPath.FunctionArgument, on current: JSONValue) throws(JSONPath.LimitExceeded) -> JSONValue? {
        switch argument {
        case .literal(let value): return value
        case .query(let query): return try nodes(of: query, on: current).first
        case .function(let call):
            if case .value(let value) = try evaluate(call, on: current) { return value }
            return nil
        case .logical: return nil
        }
    }

    /// A `NodesType` argument's nodes.
    private mutating func nodes(of argument: JSONPath.FunctionArgument, on current: JSONValue) throws(JSONPath.LimitExceeded) -> [JSONValue] {
        switch argument {
        case .query(let query): return try nodes(of: query, on: current)
        case .function(let call):
            if case .nodes(let nodes) = try evaluate(call, on: current) { return nodes }
            return []
        case .literal, .logical: return []
        }
    }

    /// `length`: code points of a string, elements of an array, members of an object.
    private static func length(of value: JSONValue?) -> JSONValue? {
        switch value {
        case .string(let string)?: .int(string.unicodeScalars.count)
        case .array(let elements)?: .int(elements.count)
        case .object(let object)?: .int(object.members.count)
        default: nil
        }
    }

    /// A pattern that the document gives, compiled, or `nil` when it is not a string in I-Regexp
    /// (RFC 9535 section 2.4.6: then nothing matches).
    private mutating func documentPattern(_ value: JSONValue?) -> IRegexp? {
        guard case .string(let pattern)? = value else { return nil }
        let key = CodePointKey(pattern)
        if let known = patterns[key] { return known }
        if patterns.count >= JSONPathEvaluation.patternCacheSize { patterns.removeAll(keepingCapacity: true) }
        let regex = try? IRegexp(pattern)
        patterns[key] = regex
        return regex
    }
}
