import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceJSONPath

extension Expectation {
    /// Checks the expectation against a response.
    /// - Parameters:
    ///   - response: the response.
    ///   - body: the body as JSON (decoded, or read as JSON when no stage decoded it); `nil` when
    ///     it is not JSON.
    ///   - duration: how long the exchange took.
    ///   - scope: the variables, for `${...}` in expected values.
    ///   - cookies: the cookies the run's jar holds for the response's URL, for `expect.cookies`.
    /// - Returns: the failure, or `nil` when the expectation is met.
    public func evaluate(response: Response, body: JSONValue?, duration: Duration, scope: VariableScope, cookies: [Cookie] = []) -> ExpectationFailure? {
        func failure(_ expected: String, _ actual: String) -> ExpectationFailure {
            ExpectationFailure(label: label, mark: mark, expected: expected, actual: actual)
        }
        switch check {
        case .status(let codes):
            return codes.contains(response.status) ? nil : failure("\(codes)", "\(response.status)")
        case .maxDuration(let limit):
            guard duration > limit else { return nil }
            return failure("at most \(Expectation.format(limit))", Expectation.format(duration))
        case .header(let name, let node):
            guard let expected = try? scope.render(node).scalar else { return failure("a value", "a template that cannot be filled in") }
            let values = response.headers.values(for: name)
            guard !values.isEmpty else { return failure(expected, "no \(name) header") }
            let met: Bool
            if let pattern = PipelineDecoder.regexLiteral(expected), let regex = try? Regex(pattern) {
                met = values.contains { (try? regex.firstMatch(in: $0)) != nil }
            } else {
                met = values.contains { $0.hasSameCodePoints(as: expected) }
            }
            return met ? nil : failure(expected, values.joined(separator: ", "))
        case .body(let path, let op, let node):
            guard let expected = try? scope.jsonValue(of: node) else { return failure("a value", "a template that cannot be filled in") }
            guard let body else {
                // A body with no value has nothing at any path; one that is not JSON cannot be read.
                let noValue = response.body.isEmpty || response.body == Data(" ".utf8)
                if op == .exists, noValue, expected.boolValue == false { return nil }
                return failure("a body to read \(path) in", noValue ? "an empty body" : "a body that is not JSON")
            }
            let selected: [JSONValue]
            do {
                selected = try path.select(in: body)
            } catch {
                return failure(Expectation.describe(op, expected), error.description)
            }
            if op == .exists {
                let wanted = expected.boolValue ?? true
                return selected.isEmpty != wanted ? nil : failure(wanted ? "a value at \(path)" : "nothing at \(path)", selected.isEmpty ? "nothing" : Expectation.text(selected[0]))
            }
            let value: JSONValue
            if path.isSingular {
                guard let first = selected.first else { return failure(Expectation.describe(op, expected), "nothing at \(path)") }
                value = first
            } else {
                value = .array(selected)
            }
            return Expectation.holds(op, value: value, expected: expected, nodeCount: path.isSingular ? nil : selected.count)
                ? nil : failure(Expectation.describe(op, expected), Expectation.text(value))
        case .cookie(let name, let op, let node):
            guard let expected = try? scope.jsonValue(of: node) else { return failure("a value", "a template that cannot be filled in") }
            let value = cookies.first { $0.name.hasSameCodePoints(as: name) }.map { JSONValue.string($0.value) } ?? .null
            if op == .exists {
                return (expected.boolValue ?? true) != value.isNull ? nil : failure(Expectation.describe(op, expected), value.isNull ? "no cookie \(name)" : Expectation.text(value))
            }
            guard !value.isNull else { return failure(Expectation.describe(op, expected), "no cookie \(name)") }
            return Expectation.holds(op, value: value, expected: expected, nodeCount: nil)
                ? nil : failure(Expectation.describe(op, expected), Expectation.text(value))
        case .certificate(let field, let op, let node):
            guard let certificate = response.metrics?.peerCertificates.first else {
                return failure("a TLS certificate", response.url?.scheme == "https" ? "none recorded" : "none: the request is not https")
            }
            guard let expected = try? scope.jsonValue(of: node) else { return failure("a value", "a template that cannot be filled in") }
            let value = field.value(of: certificate)
            if op == .exists {
                return (expected.boolValue ?? true) != value.isNull ? nil : failure(Expectation.describe(op, expected), Expectation.text(value))
            }
            return Expectation.holds(op, value: value, expected: expected, nodeCount: nil)
                ? nil : failure(Expectation.describe(op, expected), Expectation.text(value))
        }
    }

    /// Whether `value op expected` holds.
    static func holds(_ op: Operator, value: JSONValue, expected: JSONValue, nodeCount: Int?) -> Bool {
        switch op {
        case .equals: return equal(value, expected)
        case .not: return !equal(value, expected)
        case .contains:
            switch value {
            case .string(let text): return expected.stringValue.map { text.utf8.firstRange(of: $0.utf8) != nil } ?? false
            case .array(let elements): return elements.contains { equal($0, expected) }
            case .object(let object): return expected.stringValue.map { object[$0] != nil } ?? false
            default: return false
            }
        case .matches:
            guard let text = value.stringValue, let pattern = expected.stringValue, let regex = try? Regex(pattern) else { return false }
            return (try? regex.firstMatch(in: text)) != nil
        case .lt, .le, .gt, .ge:
            guard let order = JSONValue.numericOrder(value, expected) else { return false }
            switch op {
            case .lt: return order < 0
            case .le: return order <= 0
            case .gt: return order > 0
            default: return order >= 0
            }
        case .type:
            guard let type = expected.isNull ? "null" : expected.stringValue else { return false }
            return type == typeName(of: value) || (type == "number" && value.doubleValue != nil)
        case .count:
            let count: Int?
            switch value {
            case .array(let elements): count = nodeCount ?? elements.count
            case .object(let object): count = object.count
            case .string(let text): count = text.unicodeScalars.count
            default: count = nil
            }
            return count != nil && count == expected.intValue
        case .exists:
            return true
        }
    }

    /// JSON equality with numbers compared by value, exactly, so `1` equals `1.0` and
    /// `9007199254740993` does not equal `9007199254740992.0`.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let order = JSONValue.numericOrder(a, b) { return order == 0 }
        switch (a, b) {
        case (.array(let left), .array(let right)): return left.count == right.count && zip(left, right).allSatisfy(equal)
        case (.object(let left), .object(let right)):
            return left.count == right.count && left.allSatisfy { member in right[member.key].map { equal(member.value, $0) } ?? false }
        default: return a == b
        }
    }

    private static func describe(_ op: Operator, _ expected: JSONValue) -> String {
        switch op {
        case .equals: text(expected)
        case .not: "not \(text(expected))"
        case .contains: "something containing \(text(expected))"
        case .matches: "a string matching /\(expected.stringValue ?? text(expected))/"
        case .lt: "< \(text(expected))"
        case .le: "<= \(text(expected))"
        case .gt: "> \(text(expected))"
        case .ge: ">= \(text(expected))"
        case .type: "a value of type \(expected.stringValue ?? "null")"
        case .count: "\(text(expected)) items"
        case .exists: "a value"
        }
    }

    /// A value as compact JSON, cut after 200 characters.
    static func text(_ value: JSONValue) -> String {
        let text = (try? JSONWriter().string(from: value)) ?? "\(value)"
        return text.count > 200 ? text.prefix(200) + "…" : text
    }

    /// A duration in milliseconds, for messages.
    static func format(_ duration: Duration) -> String {
        let milliseconds = DurationText.milliseconds(duration)
        return milliseconds.formatted(.number.precision(.fractionLength(0...1))) + " ms"
    }
}

extension Capture {
    /// The captured value, or `nil` when the response does not have it: what a JSONPath selects
    /// with its JSON type, a header, a regex group or a cookie as a string.
    /// - Parameters:
    ///   - response: the response.
    ///   - body: the body as JSON, when it is JSON.
    ///   - cookies: the cookies the run's jar holds for the response's URL.
    /// - Throws: `JSONPath.LimitExceeded` when a JSONPath capture passes its limits.
    public func value(from response: Response, body: JSONValue?, cookies: [Cookie] = []) throws(JSONPath.LimitExceeded) -> JSONValue? {
        switch source {
        case .header(let name):
            return response.headers[name].map(JSONValue.string)
        case .jsonPath(let path):
            guard let body else { return nil }
            return try path.select(in: body).first
        case .regex(let pattern):
            guard let regex = try? Regex(pattern), let text = String(data: response.body, encoding: .utf8),
                let match = try? regex.firstMatch(in: text)
            else { return nil }
            let output = match.output
            return (output.count > 1 ? output[1].substring.map(String.init) : String(output[0].substring ?? "")).map(JSONValue.string)
        case .cookie(let name):
            return cookies.first { $0.name.hasSameCodePoints(as: name) }.map { .string($0.value) }
        case .certificate(let field):
            guard let certificate = response.metrics?.peerCertificates.first else { return nil }
            let value = field.value(of: certificate)
            return value.isNull ? nil : value
        }
    }
}

extension Response {
    /// The body as JSON: the decoded value, or the body read as JSON when no stage decoded it;
    /// `nil` when it is neither.
    var jsonBody: JSONValue? {
        if let value = decoded?.value { return value }
        guard !body.isEmpty else { return nil }
        return try? JSONReader().value(from: body)
    }
}
