import Testing
@testable import SluiceCore
@testable import SluiceJSONPath

@Suite("JSONPath (RFC 9535)")
struct JSONPathTests {
    /// RFC 9535 section 1.5's example document.
    static let store = try! JSONReader().value(from: """
        { "store": {
            "book": [
              { "category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95 },
              { "category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99 },
              { "category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99 },
              { "category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings", "isbn": "0-395-19395-8", "price": 22.99 }
            ],
            "bicycle": { "color": "red", "price": 399 }
          }
        }
        """)

    static let queries: [(String, [JSONValue])] = [
        ("$", [store]),
        ("$.store.book[*].author", ["Nigel Rees", "Evelyn Waugh", "Herman Melville", "J. R. R. Tolkien"]),
        ("$..author", ["Nigel Rees", "Evelyn Waugh", "Herman Melville", "J. R. R. Tolkien"]),
        ("$.store.*", [store["store"]!["book"]!, store["store"]!["bicycle"]!]),
        ("$.store..price", [.double(8.95), .double(12.99), .double(8.99), .double(22.99), .int(399)]),
        ("$..book[2]", [store["store"]!["book"]![2]!]),
        ("$..book[-1].title", ["The Lord of the Rings"]),
        ("$..book[0,1].title", ["Sayings of the Century", "Sword of Honour"]),
        ("$..book[:2].title", ["Sayings of the Century", "Sword of Honour"]),
        ("$.store.book[::-2].title", ["The Lord of the Rings", "Sword of Honour"]),
        ("$['store']['bicycle'][\"color\"]", ["red"]),
        ("$.store.book[9]", []),
        ("$.nothing.here", []),
        ("$..isbn", ["0-553-21311-3", "0-395-19395-8"]),
    ]

    @Test("RFC 9535's bookstore queries", arguments: queries)
    func select(path: String, expected: [JSONValue]) throws {
        #expect(try JSONPath(path).select(in: Self.store) == expected)
    }

    @Test("names with escapes, and singular queries")
    func names() throws {
        let value: JSONValue = ["a b": ["it's": 1], "é": 2, "k\n": 3]
        #expect(try JSONPath("$['a b']['it\\'s']").select(in: value) == [1])
        #expect(try JSONPath("$.é").select(in: value) == [2])
        #expect(try JSONPath(#"$["k\n"]"#).select(in: value) == [3])
        // A surrogate pair is one scalar (RFC 9535 2.3.1.1), as in JSON.
        let emoji: JSONValue = ["😀": 4, "é": 5]
        #expect(try JSONPath(#"$['\uD83D\uDE00']"#).select(in: emoji) == [4])
        #expect(try JSONPath(#"$["\u00e9"]"#).select(in: emoji) == [5])
        #expect(try JSONPath("$.a[0]['b']").isSingular)
        #expect(try !JSONPath("$..a").isSingular)
        #expect(try !JSONPath("$.a[*]").isSingular)
    }

    @Test("a query that would visit more than a million nodes stops with LimitExceeded (found by fuzzing: it ran for minutes)")
    func nodeLimit() throws {
        // Arrays nested 1,500 deep: `$..*` selects each of the 1,500 nodes below the root once, and
        // `$..*..*` walks every node below each of them again, over two million visits in all.
        var document: JSONValue = .int(0)
        for _ in 0..<1_500 { document = .array([document]) }
        #expect(try JSONPath("$..*").select(in: document).count == 1_500)
        #expect(throws: JSONPath.LimitExceeded(path: "$..*..*")) { try JSONPath("$..*..*").select(in: document) }
    }

    @Test("a caller's lower limit stops a query with thousands of selectors after the limit, not after them all")
    func callerLimit() throws {
        let document: JSONValue = ["a": [1, 2, 3, 4]]
        let query = "$..[" + Array(repeating: "0:4", count: 2_000).joined(separator: ",") + "]"
        #expect(throws: JSONPath.LimitExceeded(path: query, limit: 10)) { try JSONPath(query).select(in: document, maximumNodes: 10) }
        // `.a` visits one node and `[*]` four more.
        #expect(try JSONPath("$.a[*]").select(in: document, maximumNodes: 5).count == 4)
        #expect(throws: JSONPath.LimitExceeded(path: "$.a[*]", limit: 4)) { try JSONPath("$.a[*]").select(in: document, maximumNodes: 4) }
        #expect(JSONPath.LimitExceeded(path: "$..*", limit: 10).description == "$..* visits more than 10 nodes")
    }

    static let invalid: [(String, String, Int)] = [
        ("store", "starts with $", 0),
        ("$.", "expected a member name", 2),
        ("$[01]", "leading zero", 2),
        ("$['open", "unterminated", 2),
        ("$[1", "expected ',' or ']'", 3),
        ("$.a b", "unexpected 'b'", 4), ("$.a ", "blank space after the last segment", 3), ("$ ", "blank space after the last segment", 1),
        ("$.1a", "expected a member name", 2),
        (#"$['\uD83D']"#, "followed by a low one", 3),
        (#"$['\uDE00']"#, "must follow a high one", 3),
        (#"$['\uD83D\u0041']"#, "followed by a low one", 3),
        (#"$['\u+0FF']"#, "four hex digits", 3),
        (#"$['\u12']"#, "four hex digits", 3),
        (#"$['\"']"#, "invalid escape", 3),
        (#"$["\'"]"#, "invalid escape", 3),
        ("$['tab\there']", "control character", 6),
    ]

    @Test("anything unsupported or malformed is an error with its position", arguments: invalid)
    func errors(path: String, message: String, offset: Int) {
        #expect {
            try JSONPath(path)
        } throws: { error in
            guard let error = error as? JSONPath.SyntaxError else { return false }
            return error.message.contains(message) && error.offset == offset
        }
    }
}
