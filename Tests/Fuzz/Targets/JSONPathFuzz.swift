import Sluice

/// JSONPath expressions: parsed or refused with a position inside the text; a parsed path
/// evaluates against a document with every kind of value, a singular path to at most one node.
enum JSONPathFuzz {
    private static let document: JSONValue = [
        "store": [
            "book": [
                ["title": "Sayings", "price": 8.95, "tags": ["a", "b"], "isbn": nil],
                ["title": "Sword", "price": 12, "available": true],
            ],
            "bicycle": ["color": "red", "price": 399],
        ],
        "": ["empty key"],
        "ünï": ["ĉ": 1],
        "a'b": "quote",
    ]

    /// The node limit for fuzzed queries: low, so that a query with thousands of selectors stops
    /// after a few hundred nodes and the fuzzer runs thousands of inputs a second (with the default
    /// of 100,000 one input took 16 s under ASan); the limit's own path is exercised all the same.
    static let maximumNodes = 500

    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let path: JSONPath
        do {
            path = try JSONPath(text)
        } catch {
            require(error.offset >= 0 && error.offset <= text.unicodeScalars.count, "error offset \(error.offset) outside '\(text)'")
            return
        }
        guard let selected = try? path.select(in: document, maximumNodes: JSONPathFuzz.maximumNodes) else {
            require(!path.isSingular, "singular path \(text) selected too many nodes")
            return
        }
        if path.isSingular {
            require(selected.count <= 1, "singular path \(text) selected \(selected.count) nodes")
        }
    }
}
