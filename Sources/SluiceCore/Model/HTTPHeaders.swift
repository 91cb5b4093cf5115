/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Fields keep the order and spelling they were added with, and repeated fields (several
/// `Set-Cookie` lines, say) are kept as separate entries. Lookup by name ignores ASCII case, as
/// RFC 9110 section 5.1 requires.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    /// One header field: a name and its value.
    ///
    /// Two fields are equal when their names and values are the same bytes, as on the wire: not
    /// when they are canonically equivalent Unicode, as two `String`s compare (an `é` written as
    /// one scalar and as `e` with a combining accent are different values).
    public struct Field: Sendable, Hashable {
        /// The field name as it was written.
        public var name: String
        /// The field value, without surrounding white space.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// Whether both fields have the same name and value, byte for byte.
        public static func == (lhs: Field, rhs: Field) -> Bool {
            lhs.name.hasSameCodePoints(as: rhs.name) && lhs.value.hasSameCodePoints(as: rhs.value)
        }

        /// Hashes the name's and the value's bytes, as `==` compares them.
        public func hash(into hasher: inout Hasher) {
            hasher.combineCodePoints(of: name)
            hasher.combineCodePoints(of: value)
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates an empty list.
    public init() {
        fields = []
    }

    /// Creates a list from fields, in their order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Creates a list from `(name, value)` pairs, in their order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a list from a dictionary literal, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a list from an array literal of fields.
    public init(arrayLiteral elements: Field...) {
        fields = elements
    }

    /// The number of fields, repeated ones counted separately.
    public var count: Int { fields.count }

    /// Whether the list has no field.
    public var isEmpty: Bool { fields.isEmpty }

    /// The value of the first field with this name, ignoring case; `nil` when there is none.
    ///
    /// Setting a value replaces every field of that name with one field at the position of the
    /// first; setting `nil` removes them all.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value }
        set {
            if let newValue {
                replaceOrAdd(name: name, value: newValue)
            } else {
                remove(name: name)
            }
        }
    }

    /// Every value of the fields with this name, ignoring case, in order.
    public func values(for name: String) -> [String] {
        fields.compactMap { $0.name.equalsIgnoringASCIICase(name) ? $0.value : nil }
    }

    /// Whether a field with this name exists, ignoring case.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Makes room for `count` fields in all, so that adding up to that many allocates once.
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field, keeping any field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name with one, at the position of the first; appends it when
    /// there is none.
    public mutating func replaceOrAdd(name: String, value: String) {
        guard let first = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) else {
            fields.append(Field(name: name, value: value))
            return
        }
        fields[first] = Field(name: name, value: value)
        var index = fields.index(after: first)
        while index < fields.endIndex {
            if fields[index].name.equalsIgnoringASCIICase(name) {
                fields.remove(at: index)
            } else {
                index = fields.index(after: index)
            }
        }
    }

    /// Removes every field of this name, ignoring case.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// The fields as `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension String {
    /// Whether two strings are equal when ASCII letters are compared without case; no allocation.
    /// Both strings' bytes are read in place where they are contiguous (native and small strings):
    /// a header lookup makes this comparison once for every field.
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        let lhs = utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        let inPlace = lhs.withContiguousStorageIfAvailable { lhs in
            rhs.withContiguousStorageIfAvailable { rhs in String.equalIgnoringASCIICase(lhs, rhs) }
        }
        if let inPlace, let equal = inPlace { return equal }
        return String.equalIgnoringASCIICase(lhs, rhs)
    }

    /// Whether two runs of bytes of the same length are equal when ASCII letters are compared
    /// without case.
    private static func equalIgnoringASCIICase(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        for (a, b) in zip(lhs, rhs) where a != b {
            guard a.asciiLowercased == b.asciiLowercased else { return false }
        }
        return true
    }
}

extension StringProtocol {
    /// The text with ASCII capital letters turned into small letters, every other byte kept: how
    /// HTTP field names, directives and host names compare, never Unicode case mapping.
    package var asciiLowercased: String {
        String(decoding: utf8.map(\.asciiLowercased), as: UTF8.self)
    }
}

extension UInt8 {
    /// The byte with an ASCII capital letter turned into its small letter.
    var asciiLowercased: UInt8 {
        (0x41...0x5A).contains(self) ? self | 0x20 : self
    }
}
