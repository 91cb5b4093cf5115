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
                    throw SyntaxError(message: YAMLReader.problem(of: parser), mark: YAMLReader.mark(parser.problem_mark))
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return builder.documents }
                try builder.consume(event)
            }
        }
    }

    private static func problem(of parser: yaml_parser_t) -> String {
        var message = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        if let context = parser.context {
            message += " " + String(cString: context)
        }
        return message
    }

    static func mark(_ mark: yaml_mark_t) -> YAMLNode.Mark {
        YAMLNode.Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}

/// Turns libyaml's events into trees: a stack of open collections, and the anchors seen so far.
private struct Builder {
    private enum Open {
        case sequence([YAMLNode], mark: YAMLNode.Mark, tag: String?, anchor: String?)
        case mapping([YAMLNode.Pair], pendingKey: YAMLNode?, mark: YAMLNode.Mark, tag: String?, anchor: String?)
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
            stack.append(.sequence([], mark: mark, tag: Builder.string(start.tag), anchor: Builder.string(start.anchor)))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            stack.append(.mapping([], pendingKey: nil, mark: mark, tag: Builder.string(start.tag), anchor: Builder.string(start.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            switch stack.removeLast() {
            case .sequence(let elements, let start, let tag, let anchor):
                try add(YAMLNode(.sequence(elements), mark: start, tag: tag), anchor: anchor, counted: true)
            case .mapping(let pairs, _, let start, let tag, let anchor):
                try add(YAMLNode(.mapping(pairs), mark: start, tag: tag), anchor: anchor, counted: true)
            }
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
        guard let open = stack.popLast() else {
            documents.append(node)
            return
        }
        switch open {
        case .sequence(var elements, let mark, let tag, let anchor):
            elements.append(node)
            stack.append(.sequence(elements, mark: mark, tag: tag, anchor: anchor))
        case .mapping(var pairs, let pendingKey, let mark, let tag, let anchor):
            if let key = pendingKey {
                pairs.append(YAMLNode.Pair(key: key, value: node))
                stack.append(.mapping(pairs, pendingKey: nil, mark: mark, tag: tag, anchor: anchor))
            } else {
                if let text = node.scalar, let first = pairs.first(where: { $0.key.scalar?.hasSameCodePoints(as: text) == true }) {
                    throw YAMLReader.SyntaxError(message: "duplicate key '\(text)' (first at \(first.key.mark))", mark: node.mark)
                }
                stack.append(.mapping(pairs, pendingKey: node, mark: mark, tag: tag, anchor: anchor))
            }
        }
    }
}
