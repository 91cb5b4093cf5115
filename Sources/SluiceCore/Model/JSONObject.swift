/// The members of a JSON object, in order, each key once.
///
/// Setting a key that exists replaces its value in place; a new key goes at the end. Two objects
/// are equal when they have the same members, in any order. Keys are compared by code points, as
/// RFC 8259 section 8.3 says: `"e\u{301}"` and `"\u{E9}"` are two members, not one.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member: a key and its value.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue

        /// Whether both have the same key (by code points) and equal values.
        public static func == (lhs: Member, rhs: Member) -> Bool {
            lhs.key.hasSameCodePoints(as: rhs.key) && lhs.value == rhs.value
        }

        /// Hashes the key's code points and the value.
        public func hash(into hasher: inout Hasher) {
            hasher.combineCodePoints(of: key)
            hasher.combine(value)
        }
    }

    /// The members in order.
    public private(set) var members: [Member]

    /// Creates an empty object.
    public init() {
        members = []
    }

    /// Creates an object from `(key, value)` pairs in order; a repeated key keeps its first
    /// position and its last value.
    ///
    /// Repeats are found by comparing with the members so far while there are few of them (most
    /// objects are small, and a scan of a few names costs less than hashing), and through a table
    /// of positions from 16 members on, so a large object stays linear.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        members = []
        members.reserveCapacity(pairs.underestimatedCount)
        var positions: [CodePointKey: Int] = [:]
        for (key, value) in pairs {
            let position: Int?
            if members.count < JSONObject.scanLimit {
                position = members.firstIndex { $0.key.hasSameCodePoints(as: key) }
            } else {
                if positions.isEmpty {
                    for (index, member) in members.enumerated() { positions[CodePointKey(member.key)] = index }
                }
                position = positions[CodePointKey(key)]
                if position == nil { positions[CodePointKey(key)] = members.count }
            }
            if let position {
                members[position].value = value
            } else {
                members.append(Member(key: key, value: value))
            }
        }
    }

    /// Up to this many members, a new member's name is compared with each one before it.
    static let scanLimit = 16

    /// Creates an object from a dictionary literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no member.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The value for a key, matched by code points; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key.hasSameCodePoints(as: key) }?.value }
        set {
            let index = members.firstIndex { $0.key.hasSameCodePoints(as: key) }
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append(Member(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// Iterates over the members in order.
    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    /// Whether both objects have the same members, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
