import SluiceCore

/// A node of a YAML document, with the line and column where it starts, as the pipeline loader
/// reads it: scalars stay text (with whether they were quoted), so the decoder decides what a
/// value means and every error can point at the node.
public struct YAMLNode: Sendable, Hashable {
    /// Where a node starts in its file, both from 1.
    public struct Mark: Sendable, Hashable, CustomStringConvertible {
        /// The line, from 1.
        public var line: Int
        /// The column, from 1.
        public var column: Int

        /// Creates a mark.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `LINE:COLUMN`.
        public var description: String { "\(line):\(column)" }
    }

    /// Why a text is not the YAML expected, and where: what `YAMLReader` and the conversion to
    /// JSON values throw.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// Where, both from 1.
        public var mark: Mark

        /// Creates the error.
        public init(message: String, mark: Mark) {
            self.message = message
            self.mark = mark
        }

        /// `LINE:COLUMN: MESSAGE`.
        public var description: String { "\(mark): \(message)" }
    }

    /// One key and value of a mapping.
    public struct Pair: Sendable, Hashable {
        /// The key.
        public var key: YAMLNode
        /// The value.
        public var value: YAMLNode

        /// Creates a pair.
        public init(key: YAMLNode, value: YAMLNode) {
            self.key = key
            self.value = value
        }
    }

    /// What a node holds.
    public enum Content: Sendable, Hashable {
        /// Text; `quoted` when written in quotes or as a block scalar, so never null, a Boolean or a number.
        case scalar(String, quoted: Bool)
        /// A sequence.
        case sequence([YAMLNode])
        /// A mapping, its pairs in order.
        case mapping([Pair])
    }

    /// What the node holds.
    public var content: Content
    /// Where the node starts.
    public var mark: Mark
    /// An explicit tag such as `!!str`, if the document gave one.
    public var tag: String?

    /// Creates a node.
    public init(_ content: Content, mark: Mark, tag: String? = nil) {
        self.content = content
        self.mark = mark
        self.tag = tag
    }

    /// The text of a scalar; `nil` for collections.
    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// Whether this is YAML's null: an empty plain scalar, `~`, or `null` in any of its spellings.
    public var isNull: Bool {
        guard case .scalar(let text, let quoted) = content, !quoted, tag == nil else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// The pairs of a mapping; `nil` for other nodes.
    public var pairs: [Pair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The elements of a sequence; `nil` for other nodes.
    public var elements: [YAMLNode]? {
        if case .sequence(let elements) = content { return elements }
        return nil
    }

    /// The value of a mapping's key with this text, matched by code points (YAML compares keys
    /// without normalization); `nil` when there is none or this is no mapping.
    public subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.scalar?.hasSameCodePoints(as: key) == true }?.value
    }

    /// How many nodes this one holds, itself included.
    package var size: Int {
        switch content {
        case .scalar: 1
        case .sequence(let elements): elements.reduce(1) { $0 + $1.size }
        case .mapping(let pairs): pairs.reduce(1) { $0 + $1.key.size + $1.value.size }
        }
    }
}
