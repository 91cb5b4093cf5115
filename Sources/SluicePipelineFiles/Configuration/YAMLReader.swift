internal import CYAML
import SluiceCore
import SluiceStageRegistry

/// Reads YAML with libyaml into `YAMLNode` trees that keep every node's line and column.
///
/// Anchors and aliases work (an alias is a copy of the anchored node). Errors carry line and
/// column: libyaml's syntax errors, an undefined alias, a repeated mapping key, and a document
/// whose aliases would expand past `maximumNodes` (an alias bomb).
public struct YAMLReader: Sendable {
    /// The most nodes a document may expand to, aliases counted as copies.
    public var maximumNodes: Int

    /// Creates a reader.
    public init(maximumNodes: Int = 1_000_000) {
        self.maximumNodes = maximumNodes
    }

    /// Why a text is not the YAML expected, and where.
    public typealias SyntaxError = YAMLNode.SyntaxError

    /// The documents of a stream, in order (none for an empty text).
    public func documents(from text: String) throws(SyntaxError) -> [YAMLNode] {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { (buffer) throws(SyntaxError) -> [YAMLNode] in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                throw SyntaxError(message: "libyaml could not start", mark: YAMLNode.Mark(line: 1, column: 1))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var builder = Builder(maximumNodes: maximumNodes)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let character = YAMLReader.firstByte(ofCharacter: Int(parser.problem_mark.index), in: UnsafeBufferPointer(buffer))
                    throw SyntaxError(message: YAMLReader.problem(of: parser, at: character), mark: YAMLReader.mark(parser.problem_mark))
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return builder.documents }
                try builder.consume(event)
            }
        }
    }

    /// libyaml's words for the problem, kept as they are so that they can be looked up, and after
    /// them, for the problems a hand-written file runs into most, what usually causes them.
    /// - Parameter character: the byte where the problem was found, when there is one.
    private static func problem(of parser: yaml_parser_t, at character: UInt8?) -> String {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        var message = problem
        if let context = parser.context {
            message += " " + String(cString: context)
        }
        if let hint = hint(for: problem, at: character) {
            message += ": " + hint
        }
        return message
    }

    /// The first byte of the character `index` of the UTF-8 `bytes` (libyaml's marks count
    /// characters, not bytes); `nil` past the end.
    static func firstByte(ofCharacter index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var seen = -1
        for byte in bytes where byte & 0xC0 != 0x80 {
            seen += 1
            if seen == index { return byte }
        }
        return nil
    }

    /// What usually causes `problem` in a file written by hand, in plain words.
    static func hint(for problem: String, at character: UInt8?) -> String? {
        switch problem {
        case "found character that cannot start any token":
            switch character {
            case UInt8(ascii: "\t"): "a tab cannot indent YAML; indent with spaces"
            case UInt8(ascii: "@"), UInt8(ascii: "`"): "a value cannot start with @ or a backquote; put it in quotes"
            default: "a value that starts with this character needs quotes"
            }
        case "mapping values are not allowed in this context":
            "a value holds ': ' and is not in quotes, or a key is indented deeper than the keys beside it"
        case "did not find expected key":
            "a line is indented less or more than the keys of its mapping, or a list item (-) stands where a key was expected"
        case "could not find expected ':'":
            "a key has no ': ' after it, or a value without quotes goes on to the next line"
        case "did not find expected '-' indicator":
            "a line in a list is not indented as its items are"
        case "found unexpected end of stream":
            "a quoted value or a bracket is never closed"
        default:
            nil
        }
    }

    static func mark(_ mark: yaml_mark_t) -> YAMLNode.Mark {
        YAMLNode.Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}

/// Turns libyaml's events into trees: a stack of open collections, and the anchors seen so far.
///
/// Each event costs the same however large its collection has grown: a node is appended to its
/// open collection in place, and a mapping of many keys finds a repeated one in a table. (Appending
/// to a copy of the collection, and searching its keys, made a file of 10,000 requests take 15
/// times as long as one of 1,000.)
private struct Builder {
    /// A sequence or a mapping whose end has not come yet.
    private struct Open {
        let isMapping: Bool
        let mark: YAMLNode.Mark
        let tag: String?
        let anchor: String?
        /// A sequence's elements.
        var elements: [YAMLNode] = []
        /// A mapping's pairs, and the key whose value comes next.
        var pairs: [YAMLNode.Pair] = []
        var pendingKey: YAMLNode?
        /// Where each scalar key of a mapping was first written, by its code points: made once
        /// the mapping has ``keysSearchedInLine`` pairs; a smaller one is searched.
        var keyMarks: [CodePointKey: YAMLNode.Mark] = [:]
        static let keysSearchedInLine = 16

        /// Where a scalar key written at `mark` was written before in this mapping, `nil` the
        /// first time (the key is remembered then).
        mutating func earlierMark(ofKey text: String, writtenAt mark: YAMLNode.Mark) -> YAMLNode.Mark? {
            if keyMarks.isEmpty {
                if pairs.count < Open.keysSearchedInLine {
                    return pairs.first { $0.key.scalar?.hasSameCodePoints(as: text) == true }?.key.mark
                }
                for pair in pairs {
                    if let key = pair.key.scalar { keyMarks[CodePointKey(key)] = pair.key.mark }
                }
            }
            if let earlier = keyMarks[CodePointKey(text)] { return earlier }
            keyMarks[CodePointKey(text)] = mark
            return nil
        }

        /// The finished collection.
        var node: YAMLNode {
            YAMLNode(isMapping ? .mapping(pairs) : .sequence(elements), mark: mark, tag: tag)
        }
    }

    let maximumNodes: Int
    private(set) var documents: [YAMLNode] = []
    private var stack: [Open] = []
    private var anchors: [String: YAMLNode] = [:]
    private var nodes = 0

    init(maximumNodes: Int) {
        self.maximumNodes = maximumNodes
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    mutating func consume(_ event: yaml_event_t) throws(YAMLReader.SyntaxError) {
        let mark = YAMLReader.mark(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            anchors = [:]
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = scalar.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self) } ?? ""
            let node = YAMLNode(.scalar(text, quoted: scalar.style != YAML_PLAIN_SCALAR_STYLE), mark: mark, tag: Builder.string(scalar.tag))
            try add(node, anchor: Builder.string(scalar.anchor))
        case YAML_ALIAS_EVENT:
            let name = Builder.string(event.data.alias.anchor) ?? ""
            guard var node = anchors[name] else {
                throw YAMLReader.SyntaxError(message: "alias *\(name) names no anchor defined before it", mark: mark)
            }
            node.mark = mark
            try add(node, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            stack.append(Open(isMapping: false, mark: mark, tag: Builder.string(start.tag), anchor: Builder.string(start.anchor)))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            stack.append(Open(isMapping: true, mark: mark, tag: Builder.string(start.tag), anchor: Builder.string(start.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let closed = stack.removeLast()
            try add(closed.node, anchor: closed.anchor, counted: true)
        default:
            break
        }
    }

    /// Puts a finished node where it belongs: in the open collection, or as a document.
    private mutating func add(_ node: YAMLNode, anchor: String?, counted: Bool = false) throws(YAMLReader.SyntaxError) {
        nodes += counted ? 1 : node.size
        guard nodes <= maximumNodes else {
            throw YAMLReader.SyntaxError(message: "the document expands to more than \(maximumNodes) nodes (aliases repeated too often)", mark: node.mark)
        }
        if let anchor { anchors[anchor] = node }
        guard !stack.isEmpty else {
            documents.append(node)
            return
        }
        let top = stack.count - 1
        if !stack[top].isMapping {
            stack[top].elements.append(node)
        } else if let key = stack[top].pendingKey {
            stack[top].pairs.append(YAMLNode.Pair(key: key, value: node))
            stack[top].pendingKey = nil
        } else {
            if let text = node.scalar, let first = stack[top].earlierMark(ofKey: text, writtenAt: node.mark) {
                throw YAMLReader.SyntaxError(message: "duplicate key '\(text)' (first at \(first))", mark: node.mark)
            }
            stack[top].pendingKey = node
        }
    }
}
