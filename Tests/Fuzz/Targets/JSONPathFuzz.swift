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

    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let path: JSONPath
        do {
            path = try JSONPath(text)
        } catch {
            require(error.offset >= 0 && error.offset <= text.count, "error offset \(error.offset) outside '\(text)'")
            return
        }
        guard let selected = try? path.select(in: document) else {
            require(!path.isSingular, "singular path \(text) selected too many nodes")
            return
        }
        if path.isSingular {
            require(selected.count <= 1, "singular path \(text) selected \(selected.count) nodes")
        }
    }
}
