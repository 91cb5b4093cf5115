import SluiceCore

/// Comparisons in filters, as RFC 9535 section 2.3.5.2.2 defines them: numbers by value
/// (`1 == 1.0`), strings by code point (equality and order alike, never by canonical
/// equivalence), arrays and objects by their contents; only numbers and strings are ordered; and
/// Nothing (an operand whose query selects no node) equals only Nothing.
enum JSONPathComparison {
    /// Whether `left comparison right` holds, `nil` standing for Nothing.
    static func holds(_ left: JSONValue?, _ comparison: JSONPath.ComparisonOperator, _ right: JSONValue?) -> Bool {
        switch comparison {
        case .equal: equal(left, right)
        case .notEqual: !equal(left, right)
        case .less: less(left, right)
        case .lessOrEqual: less(left, right) || equal(left, right)
        case .greater: less(right, left)
        case .greaterOrEqual: less(right, left) || equal(left, right)
        }
    }

    static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (let left?, let right?): return equal(left, right)
        default: return false
        }
    }

    private static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.string(let left), .string(let right)): return left.hasSameCodePoints(as: right)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (.object(let left), .object(let right)):
            return left.members.count == right.members.count
                && left.members.allSatisfy { member in right[member.key].map { equal(member.value, $0) } ?? false }
        default:
            guard let order = JSONValue.numericOrder(left, right) else { return false }
            return order == 0
        }
    }

    private static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (.string(let left)?, .string(let right)?):
            // UTF-8 keeps code point order, so comparing the bytes orders by code point.
            return left.utf8.lexicographicallyPrecedes(right.utf8)
        case (let left?, let right?):
            return JSONValue.numericOrder(left, right) == -1
        default:
            return false
        }
    }
}
