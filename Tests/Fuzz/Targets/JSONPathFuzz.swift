import Sluice
import SluiceCore
import SluiceJSONPath
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// JSONPath expressions: parsed or refused with a position inside the text; a parsed path
/// evaluates against a document with every kind of value, a singular path to at most one node,
/// the same nodes every time; and a filter and its negation split the root's members between them.
enum JSONPathFuzz {
    private static let document: JSONValue = [
        "store": [
            "book": [
                ["title": "Sayings", "price": 8.95, "tags": ["a", "b"], "isbn": nil, "code": "AB-12"],
                ["title": "Sword", "price": 12, "available": true, "code": "x\u{2028}y"],
            ],
            "bicycle": ["color": "red", "price": 399, "ratio": -0.5],
        ],
        "": ["empty key"],
        "ünï": ["ĉ": 1, "e\u{301}": "e\u{301}", "\u{E9}": "\u{E9}"],
        "a'b": "quote",
        "pattern": "[a-z]+(-[0-9]+)?",
        "big": .int(9_007_199_254_740_993),
        "list": [1, 2.0, "3", [4], ["5": 5], nil, false],
    ]

    /// The node limit for fuzzed queries: low, so that a query with thousands of selectors stops
    /// after a few hundred nodes and the fuzzer runs thousands of inputs a second (with the default
    /// limit one input took 16 s under ASan); the limit's own path is exercised all the same.
    static let maximumNodes = 500
    /// The regular-expression step limit for fuzzed queries, low for the same reason.
    static let maximumRegexSteps = 20_000

    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let path: JSONPath
        do {
            path = try JSONPath(text)
        } catch {
            require(error.offset >= 0 && error.offset <= text.unicodeScalars.count, "error offset \(error.offset) outside '\(text)'")
            return
        }
        guard let selected = select(path) else {
            require(!path.isSingular, "singular path \(text) selected too many nodes")
            return
        }
        if path.isSingular {
            require(selected.count <= 1, "singular path \(text) selected \(selected.count) nodes")
        }
        require(select(path) == selected, "\(text) selected different nodes the second time")
        checkNegation(of: path, selected: selected)
    }

    private static func select(_ path: JSONPath) -> [JSONValue]? {
        try? path.select(in: document, maximumNodes: maximumNodes, maximumRegexSteps: maximumRegexSteps)
    }

    /// For `$[?E]`: `$[?!(E)]` selects exactly the root's other members (RFC 9535's filters are
    /// two-valued: Nothing compares false, never unknown).
    private static func checkNegation(of path: JSONPath, selected: [JSONValue]) {
        guard path.segments.count == 1, !path.segments[0].descendant, path.segments[0].selectors.count == 1,
            case .filter = path.segments[0].selectors[0], path.text.hasPrefix("$[?"), path.text.hasSuffix("]"),
            let negation = try? JSONPath("$[?!(" + path.text.dropFirst(3).dropLast() + ")]"),
            let rest = select(negation), case .object(let members) = document
        else { return }
        require(selected.count + rest.count == members.members.count, "\(path.text) and its negation select \(selected.count) and \(rest.count) of \(members.members.count) members")
    }
}
