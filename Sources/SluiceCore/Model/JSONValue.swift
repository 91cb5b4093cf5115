/// A JSON value: what request parameters are made of, and what JSON and property-list response
/// bodies decode into.
///
/// Objects keep their members in order (the order written, or the order in the document), while
/// equality between objects ignores that order, as JSON's does. Strings and member names are equal
/// when their code points are (RFC 8259 section 8.3), never merely canonically equivalent. Integers stay integers: `2` is
/// `.int(2)` and `2.0` is `.double(2.0)`; an integer too large for `Int` keeps its digits
/// (`.bigInteger`), so `18446744073709551617` is never read, compared or written as its nearest
/// `Double`. The literal conformances let parameters read like JSON:
///
/// ```swift
/// let parameters: JSONValue = ["q": "swift", "page": 2, "tags": ["a", "b"], "draft": nil]
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A number without fraction or exponent too large for `Int`, as its decimal digits: a `-` for
    /// a negative one, then digits without leading zeros (``init(integerText:)`` makes one from any
    /// integer text). Compared exactly with every other number (``numericOrder(_:_:)``).
    case bigInteger(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object(JSONObject)

    /// The member of an object with this key, or `nil` when this is not an object or has no such key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element of an array at this index, or `nil` when this is not an array or the index is
    /// out of range.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number as a `Double`, when this is a number (a ``bigInteger(_:)`` rounded to the
    /// nearest one).
    public var doubleValue: Double? {
        switch self {
        case .int(let int): Double(int)
        case .double(let double): double
        case .bigInteger(let digits): Double(digits)
        default: nil
        }
    }

    /// The integer, when this is an integer (or a double with an integral value) that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let int): int
        case .double(let double): Int(exactly: double)
        case .bigInteger(let digits): Int(digits)
        default: nil
        }
    }

    /// Whether this is a number without fraction or exponent: `.int` or `.bigInteger`.
    public var isInteger: Bool {
        switch self {
        case .int, .bigInteger: true
        default: false
        }
    }

    /// An integer from its decimal text (`[-+]?[0-9]+`, leading zeros allowed): `.int` when it
    /// fits, else `.bigInteger` with its digits in canonical form; `nil` for other text.
    public init?(integerText text: some StringProtocol) {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        if let int = Int(text.hasPrefix("+") ? String(text.dropFirst()) : String(text)) {
            self = .int(int)
            return
        }
        let significant = digits.drop { $0 == "0" }
        self = .bigInteger((negative ? "-" : "") + significant)
    }

    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value with every `null` object member and every `null` array element removed, at
    /// every depth.
    public func removingNullValues() -> JSONValue {
        switch self {
        case .array(let elements):
            .array(elements.filter { !$0.isNull }.map { $0.removingNullValues() })
        case .object(let object):
            .object(JSONObject(object.members.filter { !$0.value.isNull }.map { ($0.key, $0.value.removingNullValues()) }))
        default:
            self
        }
    }
}

extension JSONValue {
    /// Whether both are the same value: strings by code points, objects in any member order,
    /// `.int(2)` and `.double(2.0)` different.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.int(let left), .int(let right)): left == right
        case (.double(let left), .double(let right)): left == right
        case (.bigInteger(let left), .bigInteger(let right)): left.utf8.elementsEqual(right.utf8)
        case (.string(let left), .string(let right)): left.hasSameCodePoints(as: right)
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)): left == right
        default: false
        }
    }

    /// Hashes the value, strings by their code points.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let bool): hasher.combine(1); hasher.combine(bool)
        case .int(let int): hasher.combine(2); hasher.combine(int)
        case .double(let double): hasher.combine(3); hasher.combine(double)
        case .string(let string): hasher.combine(4); hasher.combineCodePoints(of: string)
        case .array(let elements): hasher.combine(5); hasher.combine(elements)
        case .object(let object): hasher.combine(6); hasher.combine(object)
        case .bigInteger(let digits): hasher.combine(7); hasher.combine(digits.utf8.count); for byte in digits.utf8 { hasher.combine(byte) }
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, its members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text; a number JSON cannot write (NaN, infinity) as `null`.
    public var description: String {
        (try? JSONWriter().string(from: self)) ?? "null"
    }
}
