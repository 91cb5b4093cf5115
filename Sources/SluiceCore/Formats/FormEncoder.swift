/// Writes parameters as `application/x-www-form-urlencoded` text with AFNetworking's rules
/// (`AFQueryStringFromParameters`).
///
/// - Object keys are sorted at every level (by Unicode scalar values) and nest as `a[b]=c`.
/// - Array elements keep their order: `a[]=1&a[]=2` (`brackets`), `a[0]=1&a[1]=2` (`indices`),
///   or `a=1&a=2` (`repeating`); arrays of objects give `a[][x]=1`. Empty arrays and objects
///   write nothing.
/// - `null` is a bare key with no `=`; booleans are `1`/`0` (`numeric`) or `true`/`false` (`literal`).
/// - Every key and value is percent-escaped except `A-Z a-z 0-9 - . _ ~ / ?`, UTF-8 bytes in
///   uppercase hex; a space is `%20`, or `+` with ``SpaceEncoding/plus``.
///
/// ```swift
/// try FormEncoder().string(from: ["b": [1, 2], "a": ["x": nil]])   // "a%5Bx%5D&b%5B%5D=1&b%5B%5D=2"
/// ```
public struct FormEncoder: Sendable, Hashable {
    /// How array elements are keyed.
    public enum ArrayEncoding: String, Sendable, Hashable, CaseIterable {
        /// `a[]=1&a[]=2`, as AFNetworking and Rails write them.
        case brackets
        /// `a[0]=1&a[1]=2`.
        case indices
        /// `a=1&a=2`.
        case repeating = "repeat"
    }

    /// How Booleans are written.
    public enum BoolEncoding: String, Sendable, Hashable, CaseIterable {
        /// `1` and `0`, as AFNetworking writes an `NSNumber` Boolean.
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// How a space is escaped.
    public enum SpaceEncoding: String, Sendable, Hashable, CaseIterable {
        /// `%20`, as AFNetworking writes it.
        case percent
        /// `+`, as HTML forms write it.
        case plus
    }

    /// How array elements are keyed; `brackets` by default.
    public var arrayEncoding: ArrayEncoding
    /// How Booleans are written; `numeric` by default.
    public var boolEncoding: BoolEncoding
    /// How a space is escaped; `percent` by default.
    public var spaceEncoding: SpaceEncoding

    /// Creates an encoder.
    public init(arrayEncoding: ArrayEncoding = .brackets, boolEncoding: BoolEncoding = .numeric, spaceEncoding: SpaceEncoding = .percent) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.spaceEncoding = spaceEncoding
    }

    /// One flattened parameter: a key such as `a[b][]` and its text, `nil` for a `null` value.
    public struct Pair: Sendable, Hashable {
        /// The key, not escaped.
        public var key: String
        /// The value as text, not escaped; `nil` for `null`.
        public var value: String?
    }

    /// The parameters as `key=value` pairs joined by `&`, escaped; `""` for no pairs.
    /// - Throws: when `parameters` is not an object, or holds a NaN or infinite number.
    public func string(from parameters: JSONValue) throws(UnencodableValue) -> String {
        var text = ""
        for (index, pair) in try pairs(from: parameters).enumerated() {
            if index > 0 { text += "&" }
            text += escape(pair.key)
            if let value = pair.value {
                text += "="
                text += escape(value)
            }
        }
        return text
    }

    /// The parameters flattened into keys and texts, in order, not escaped: what multipart fields
    /// are made of.
    /// - Throws: when `parameters` is not an object, or holds a NaN or infinite number.
    public func pairs(from parameters: JSONValue) throws(UnencodableValue) -> [Pair] {
        guard case .object(let object) = parameters else {
            throw UnencodableValue(path: "$", reason: "form parameters must be a mapping of names to values, not \(parameters.kindName)")
        }
        var pairs: [Pair] = []
        pairs.reserveCapacity(object.members.count)
        var path = KeyPath()
        for member in FormEncoder.sorted(object) {
            path.push(.key(member.key))
            try flatten(member.value, key: member.key, path: &path, into: &pairs)
            path.pop()
        }
        return pairs
    }

    private static func sorted(_ object: JSONObject) -> [JSONObject.Member] {
        object.members.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
    }

    private func flatten(_ value: JSONValue, key: String, path: inout KeyPath, into pairs: inout [Pair]) throws(UnencodableValue) {
        switch value {
        case .object(let object):
            for member in FormEncoder.sorted(object) {
                path.push(.key(member.key))
                try flatten(member.value, key: "\(key)[\(member.key)]", path: &path, into: &pairs)
                path.pop()
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                path.push(.index(index))
                let elementKey =
                    switch arrayEncoding {
                    case .brackets: key + "[]"
                    case .indices: "\(key)[\(index)]"
                    case .repeating: key
                    }
                try flatten(element, key: elementKey, path: &path, into: &pairs)
                path.pop()
            }
        case .null:
            pairs.append(Pair(key: key, value: nil))
        case .bool(let bool):
            pairs.append(Pair(key: key, value: boolEncoding == .numeric ? (bool ? "1" : "0") : (bool ? "true" : "false")))
        case .int(let int):
            pairs.append(Pair(key: key, value: String(int)))
        case .bigInteger(let digits):
            pairs.append(Pair(key: key, value: digits))
        case .double(let double):
            guard double.isFinite else {
                throw UnencodableValue(path: path.description, reason: "\(double) cannot be written as a form value")
            }
            pairs.append(Pair(key: key, value: FormEncoder.format(double)))
        case .string(let string):
            pairs.append(Pair(key: key, value: string))
        }
    }

    /// A double as `NSNumber` describes it: `2` for 2.0, `2.5`, `1e-07`.
    static func format(_ double: Double) -> String {
        if let int = Int(exactly: double), abs(double) < 1e15 { return String(int) }
        return double.description
    }

    /// The text with every byte escaped except `A-Z a-z 0-9 - . _ ~ / ?` (and a space as `+`
    /// with ``SpaceEncoding/plus``).
    public func escape(_ text: String) -> String {
        PercentEncoding.encode(text, spaceAsPlus: spaceEncoding == .plus) { byte in
            PercentEncoding.isUnreserved(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
        }
    }
}

extension JSONValue {
    /// What kind of value this is, for messages: `a string`, `an array`, `null`.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .int, .double, .bigInteger: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a mapping"
        }
    }
}
