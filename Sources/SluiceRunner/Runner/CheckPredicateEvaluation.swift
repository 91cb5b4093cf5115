import Foundation
import Glibc
import SluiceCore
import SluicePipelineFiles

extension Expectation.Predicate {
    /// Whether the predicate holds of `value` (`nil`: nothing was there), negation applied.
    /// Nothing satisfies only `exists: false` (and `not: {exists: true}`): no other predicate
    /// holds of nothing, negated or not, so a check never passes for want of a value.
    /// - Throws: ``CheckFailure`` for a `matches` whose pattern was stopped after
    ///   `TextPattern.maximumSteps` steps: neither holds then, negated or not.
    func holds(of value: CheckValue?, expected: JSONValue) throws(CheckFailure) -> Bool {
        if op == .exists {
            let present = value.map { if case .nodes(let nodes) = $0 { !nodes.isEmpty } else { true } } ?? false
            return (present == (expected.boolValue ?? true)) != negated
        }
        guard let value else { return false }
        return try Expectation.Predicate.holds(op, of: value, expected: expected) != negated
    }

    /// Whether `value op expected` holds, without negation.
    static func holds(_ op: Expectation.Operator, of value: CheckValue, expected: JSONValue) throws(CheckFailure) -> Bool {
        switch (value, op) {
        case (.json(let json), .equals), (.json(let json), .lt), (.json(let json), .le), (.json(let json), .gt), (.json(let json), .ge),
            (.json(let json), .contains), (.json(let json), .matches), (.json(let json), .type), (.json(let json), .count),
            (.json(let json), .startsWith), (.json(let json), .endsWith):
            return try jsonHolds(op, json, expected)
        case (.nodes(let nodes), .count):
            return expected.intValue == nodes.count
        case (.nodes(let nodes), _) where nodes.count == 1 && op != .is && op != .type:
            return try jsonHolds(op, .string(nodes[0]), expected)
        case (.bytes(let bytes), .equals), (.bytes(let bytes), .contains), (.bytes(let bytes), .startsWith), (.bytes(let bytes), .endsWith):
            guard let other = expectedBytes(expected) else { return false }
            switch op {
            case .equals: return bytes == other
            case .contains: return other.isEmpty || bytes.firstRange(of: other) != nil
            case .startsWith: return bytes.starts(with: other)
            default: return bytes.count >= other.count && bytes.suffix(other.count).elementsEqual(other)
            }
        case (.bytes(let bytes), .count):
            return expected.intValue == bytes.count
        case (.date(let date), .equals), (.date(let date), .lt), (.date(let date), .le), (.date(let date), .gt), (.date(let date), .ge):
            // RFC 3339, fractional seconds and offsets included: what a captured date is written as.
            guard let other = expected.stringValue.flatMap(RFC3339Timestamp.date) else { return false }
            return ordered(op, date < other ? -1 : date > other ? 1 : 0)
        case (_, .is):
            return expected.stringValue.flatMap(Expectation.ValueKind.init(rawValue:)).map { value.isKind($0) } ?? false
        default:
            return false
        }
    }

    /// JSON predicates: numbers by value, exactly; strings by code points.
    private static func jsonHolds(_ op: Expectation.Operator, _ value: JSONValue, _ expected: JSONValue) throws(CheckFailure) -> Bool {
        switch op {
        case .equals:
            return Expectation.equal(value, expected)
        case .contains:
            switch value {
            case .string(let text): return expected.stringValue.map { $0.isEmpty || text.utf8.firstRange(of: $0.utf8) != nil } ?? false
            case .array(let elements): return elements.contains { Expectation.equal($0, expected) }
            case .object(let object): return expected.stringValue.map { key in object.keys.contains { $0.hasSameCodePoints(as: key) } } ?? false
            default: return false
            }
        case .startsWith, .endsWith:
            guard let text = value.stringValue, let affix = expected.stringValue else { return false }
            return op == .startsWith ? text.utf8.starts(with: affix.utf8) : text.utf8.reversed().starts(with: affix.utf8.reversed())
        case .matches:
            guard let text = value.stringValue, let pattern = expected.stringValue, let regex = try? TextPattern(pattern) else { return false }
            do {
                return try regex.firstMatch(in: text) != nil
            } catch {
                throw CheckFailure(error.description)
            }
        case .lt, .le, .gt, .ge:
            if let order = JSONValue.numericOrder(value, expected) { return ordered(op, order) }
            guard let left = value.stringValue, let right = expected.stringValue else { return false }
            return ordered(op, left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars) ? -1 : left.unicodeScalars.elementsEqual(right.unicodeScalars) ? 0 : 1)
        case .type:
            guard let type = expected.isNull ? "null" : expected.stringValue else { return false }
            let name = Expectation.typeName(of: value)
            return type == name || (type == "number" && value.isNumber) || (type == "float" && value.doubleValue != nil && !value.isInteger)
        case .count:
            switch value {
            case .array(let elements): return expected.intValue == elements.count
            case .object(let object): return expected.intValue == object.count
            case .string(let text): return expected.intValue == text.unicodeScalars.count
            default: return false
            }
        case .exists, .is:
            return false
        }
    }

    /// Whether a three-way `order` satisfies an ordering operator (or `equals`).
    private static func ordered(_ op: Expectation.Operator, _ order: Int) -> Bool {
        switch op {
        case .lt: order < 0
        case .le: order <= 0
        case .gt: order > 0
        case .ge: order >= 0
        default: order == 0
        }
    }

    /// The bytes an expected value stands for: `{hex: "..."}`, `{base64: "..."}`, or a string's UTF-8.
    private static func expectedBytes(_ expected: JSONValue) -> Data? {
        switch expected {
        case .string(let text): return Data(text.utf8)
        case .object(let object) where object.count == 1:
            if let hex = object["hex"]?.stringValue { return HexText.bytes(hex) }
            if let base64 = object["base64"]?.stringValue { return Data(base64Encoded: base64) }
            return nil
        default: return nil
        }
    }
}

extension CheckValue {
    /// Whether the value is of a kind `is:` names.
    func isKind(_ kind: Expectation.ValueKind) -> Bool {
        switch (kind, self) {
        case (.integer, .json(let json)): json.isInteger
        case (.float, .json(let json)): json.doubleValue != nil && !json.isInteger
        case (.number, .json(let json)): json.isNumber
        case (.string, .json(.string)): true
        case (.boolean, .json(.bool)): true
        case (.collection, .json(.array)), (.collection, .json(.object)), (.collection, .bytes), (.collection, .nodes): true
        case (.list, .json(.array)): true
        case (.object, .json(.object)): true
        case (.date, .date): true
        case (.isoDate, .json(.string(let text))): RFC3339Timestamp.date(text) != nil
        case (.empty, .json(.string(let text))): text.isEmpty
        case (.empty, .json(.array(let elements))): elements.isEmpty
        case (.empty, .json(.object(let object))): object.isEmpty
        case (.empty, .bytes(let bytes)): bytes.isEmpty
        case (.empty, .nodes(let nodes)): nodes.isEmpty
        case (.ipv4, .json(.string(let text))): CheckValue.isAddress(text, family: AF_INET)
        case (.ipv6, .json(.string(let text))): CheckValue.isAddress(text, family: AF_INET6)
        case (.uuid, .json(.string(let text))): CheckValue.isUUID(text)
        case (.null, .json(.null)): true
        default: false
        }
    }

    /// Whether `text` is an address of the family, as `inet_pton` reads it.
    private static func isAddress(_ text: String, family: Int32) -> Bool {
        var storage = in6_addr()
        return inet_pton(family, text, &storage) == 1
    }

    /// Whether `text` is a UUID: 8-4-4-4-12 hex digits.
    private static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
