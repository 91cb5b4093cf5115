import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceJSONPath

extension Expectation {
    /// Checks the expectation against an exchange.
    /// - Returns: the failure, or `nil` when the expectation is met.
    func evaluate(in exchange: CheckedExchange) -> ExpectationFailure? {
        func failure(_ expected: String, _ actual: String) -> ExpectationFailure {
            let shown = LookAlikeText.distinguished(expected, actual)
            return ExpectationFailure(label: label, mark: mark, expected: shown.expected, actual: shown.actual)
        }
        let response = exchange.response
        switch check {
        case .status(let codes):
            return codes.contains(response.status) ? nil : failure("\(codes)", "\(response.status)")
        case .maxDuration(let limit):
            guard exchange.duration > limit else { return nil }
            return failure("at most \(Expectation.format(limit))", Expectation.format(exchange.duration))
        case .header(let name, let node):
            guard let expected = try? exchange.scope.render(node).scalar else { return failure("a value", "a template that cannot be filled in") }
            let values = response.headers.values(for: name)
            guard !values.isEmpty else { return failure(expected, "no \(name) header") }
            var met = false
            if let pattern = PipelineDecoder.regexLiteral(expected), let regex = try? TextPattern(pattern) {
                do {
                    for value in values where try regex.firstMatch(in: value) != nil { met = true }
                } catch {
                    return failure(expected, error.description)
                }
            } else {
                met = values.contains { $0.hasSameCodePoints(as: expected) }
            }
            return met ? nil : failure(expected, values.joined(separator: ", "))
        case .query(let query, let filters, let predicate):
            guard let expected = try? exchange.scope.jsonValue(of: predicate.expected) else { return failure("a value", "a template that cannot be filled in") }
            var value: CheckValue?
            do {
                value = try query.value(in: exchange)
                for filter in filters {
                    guard let current = value else { break }
                    value = try filter.apply(to: current, in: exchange)
                }
            } catch {
                // A body with no value has nothing at any path: `exists: false` holds of it.
                if error.isEmptyBody, predicate.op == .exists, (try? predicate.holds(of: nil, expected: expected)) == true { return nil }
                return failure(error.isEmptyBody ? "a body to read \(query.argumentText ?? "") in" : Expectation.describe(predicate, expected), error.message)
            }
            if filters.isEmpty, case .jsonPath(_, let path?, nodeList: false) = query, !path.isSingular, case .json(.array(let nodes)) = value {
                // The nodes of a path that may select several: none is nothing for `exists`; one
                // is compared as itself where a list is not expected (Hurl's coercion), and still
                // counted as one node.
                if predicate.op == .exists, nodes.isEmpty { value = nil }
                if nodes.count == 1, ![.count, .exists].contains(predicate.op), !expected.isArray { value = .json(nodes[0]) }
            }
            do {
                if try predicate.holds(of: value, expected: expected) { return nil }
            } catch {
                return failure(Expectation.describe(predicate, expected), error.message)
            }
            return failure(Expectation.describe(predicate, expected), value?.described ?? query.absence)
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

    /// What a predicate expects, in words: `> 3`, `not something containing "x"`.
    static func describe(_ predicate: Predicate, _ expected: JSONValue) -> String {
        let text: String
        switch predicate.op {
        case .equals: text = Expectation.text(expected)
        case .contains: text = "something containing \(Expectation.text(expected))"
        case .startsWith: text = "something starting with \(Expectation.text(expected))"
        case .endsWith: text = "something ending with \(Expectation.text(expected))"
        case .matches: text = "a string matching /\(expected.stringValue ?? Expectation.text(expected))/"
        case .lt: text = "< \(Expectation.text(expected))"
        case .le: text = "<= \(Expectation.text(expected))"
        case .gt: text = "> \(Expectation.text(expected))"
        case .ge: text = ">= \(Expectation.text(expected))"
        case .type: text = "a value of type \(expected.stringValue ?? "null")"
        case .is: text = "a value that is \(expected.stringValue ?? Expectation.text(expected))"
        case .count: text = "\(Expectation.text(expected)) items"
        case .exists: return (expected.boolValue ?? true) != predicate.negated ? "a value" : "nothing"
        }
        return predicate.negated ? "not " + text : text
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
    /// The captured value, or `nil` when the exchange does not have it: what the query reads,
    /// through the filters, as JSON (bytes as hex, a date as RFC 3339, with their kind beside).
    /// A JSONPath that may select several nodes captures the first.
    /// - Throws: ``CheckFailure`` when the query or a filter cannot be applied.
    func value(in exchange: CheckedExchange) throws(CheckFailure) -> (json: JSONValue, kind: VariableScope.Kind?)? {
        var value = try query.value(in: exchange, firstNodeOnly: true)
        for filter in filters {
            guard let current = value else { return nil }
            value = try filter.apply(to: current, in: exchange)
        }
        return value.map { ($0.json, $0.kind) }
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
