import Testing
@testable import SluiceCore
@testable import SluiceJSONPath

@Suite("JSONPath filters and functions (RFC 9535 sections 2.3.5 and 2.4)")
struct JSONPathFilterTests {
    /// RFC 9535 section 2.3.5.3's example document.
    static let document = try! JSONReader().value(from: """
        {
          "a": [3, 5, 1, 2, 4, 6, {"b": "j"}, {"b": "k"}, {"b": {}}, {"b": "kilo"}],
          "o": {"p": 1, "q": 2, "r": 3, "s": 5, "t": {"u": 6}},
          "e": "f"
        }
        """)

    /// RFC 9535 Table 12, "Filter Selector Examples", with the nodes it gives.
    static let rfcExamples: [(String, String)] = [
        ("$.a[?@.b == 'kilo']", #"[{"b": "kilo"}]"#),
        ("$.a[?(@.b == 'kilo')]", #"[{"b": "kilo"}]"#),
        ("$.a[?@>3.5]", "[5, 4, 6]"),
        ("$.a[?@.b]", #"[{"b": "j"}, {"b": "k"}, {"b": {}}, {"b": "kilo"}]"#),
        ("$[?@.*]", "ARRAY_AND_OBJECT"),
        ("$[?@[?@.b]]", "ARRAY"),
        ("$.o[?@<3, ?@<3]", "[1, 2, 1, 2]"),
        (#"$.a[?@<2 || @.b == "k"]"#, #"[1, {"b": "k"}]"#),
        (#"$.a[?match(@.b, "[jk]")]"#, #"[{"b": "j"}, {"b": "k"}]"#),
        (#"$.a[?search(@.b, "[jk]")]"#, #"[{"b": "j"}, {"b": "k"}, {"b": "kilo"}]"#),
        ("$.o[?@>1 && @<4]", "[2, 3]"),
        ("$.o[?@.u || @.x]", #"[{"u": 6}]"#),
        ("$.a[?@.b == $.x]", "[3, 5, 1, 2, 4, 6]"),
        ("$.a[?@ == @]", "ALL_OF_A"),
    ]

    @Test("RFC 9535's filter examples (Table 12)", arguments: rfcExamples)
    func rfcExample(query: String, expected: String) throws {
        let document = Self.document
        let nodes: [JSONValue] =
            switch expected {
            case "ARRAY_AND_OBJECT": [document["a"]!, document["o"]!]
            case "ARRAY": [document["a"]!]
            case "ALL_OF_A": if case .array(let elements) = document["a"]! { elements } else { [] }
            default: if case .array(let elements) = try JSONReader().value(from: expected) { elements } else { [] }
            }
        #expect(try JSONPath(query).select(in: document) == nodes)
    }

    /// RFC 9535 Table 11, "Comparison Examples", over `{"obj": {"x": "y"}, "arr": [2, 3]}`.
    static let comparisons: [(String, Bool)] = [
        ("$.absent1 == $.absent2", true), ("$.absent1 <= $.absent2", true), ("$.absent == 'g'", false),
        ("$.absent1 != $.absent2", false), ("$.absent != 'g'", true), ("1 <= 2", true), ("1 > 2", false),
        ("13 == '13'", false), ("'a' <= 'b'", true), ("'a' > 'b'", false), ("$.obj == $.arr", false),
        ("$.obj != $.arr", true), ("$.obj == $.obj", true), ("$.obj != $.obj", false), ("$.arr == $.arr", true),
        ("$.arr != $.arr", false), ("$.obj == 17", false), ("$.obj != 17", true), ("$.obj <= $.arr", false),
        ("$.obj < $.arr", false), ("$.obj <= $.obj", true), ("$.arr <= $.arr", true), ("1 <= $.arr", false),
        ("1 >= $.arr", false), ("1 > $.arr", false), ("1 < $.arr", false), ("true <= true", true),
        ("true > true", false),
    ]

    @Test("RFC 9535's comparison examples (Table 11)", arguments: comparisons)
    func comparison(expression: String, holds: Bool) throws {
        let document: JSONValue = ["obj": ["x": "y"], "arr": [2, 3], "probe": [0]]
        #expect(try JSONPath("$.probe[?\(expression)]").select(in: document) == (holds ? [0] : []))
    }

    /// RFC 9535 section 2.4's function examples, over a small library.
    static let library = try! JSONReader().value(from: """
        {"books": [
          {"title": "A", "authors": ["x", "y", "z", "v", "w"], "date": "1974-05-01", "author": "Bob", "color": "red"},
          {"title": "B", "authors": ["x"], "date": "1975-05-01", "author": "Alice", "parts": [{"color": "blue"}]},
          {"title": "C", "authors": [], "date": "1974-05-31", "author": "Rob", "parts": [{"color": "red"}, {"color": "red"}]}
        ]}
        """)

    static let functions: [(String, [JSONValue])] = [
        ("$.books[?length(@.authors) >= 5].title", ["A"]),
        ("$.books[?count(@.parts[*]) == 1].title", ["B"]),
        (#"$.books[?match(@.date, "1974-05-..")].title"#, ["A", "C"]),
        (#"$.books[?search(@.author, "[BR]ob")].title"#, ["A", "C"]),
        (#"$.books[?value(@..color) == "red"].title"#, ["A"]),
        ("$.books[?length(@.title) == 1 && !@.parts].title", ["A"]),
        ("$.books[?count(@.parts[?@.color == 'red']) == 2].title", ["C"]),
        ("$.books[?length(value(@.authors)) == 0].title", ["C"]),
        ("$.books[?@.authors[?@ == 'y']].title", ["A"]),
    ]

    @Test("the five functions, nested filters, and functions of functions", arguments: functions)
    func function(query: String, expected: [JSONValue]) throws {
        #expect(try JSONPath(query).select(in: Self.library) == expected)
    }

    /// RFC 9535 section 2.4.9's well-typedness examples and more: refused when parsed, with the
    /// position of the part that is wrong.
    static let illTyped: [(String, String, Int)] = [
        ("$[?length(@.*) < 3]", "a query in its place must be singular", 10),
        ("$[?count(1) == 1]", "count() takes a NodesType here, not a literal", 9),
        ("$[?match(@.timezone, 'Europe/.*') == true]", "match() gives a LogicalType, which cannot be compared", 3),
        ("$[?value(@..color)]", "value() gives a value, which must be compared", 3),
        ("$[?length(@.a)]", "length() gives a value, which must be compared", 3),
        ("$[?@.* == 1]", "a query compared must be singular", 3),
        ("$[?@..a == 1]", "a query compared must be singular", 3),
        ("$[?true]", "a literal must be compared", 3),
        ("$[?1 == 1 == 1]", "unexpected '='; expected ',' or ']'", 10),
        ("$[?foo(@)]", "unknown function 'foo'", 3),
        ("$[?Length(@) > 1]", "unexpected 'L'", 3),
        ("$[?length (@) > 1]", "unknown name 'length'", 3),
        ("$[?length(@.a, @.b) > 1]", "length() takes 1 argument, not 2", 3),
        ("$[?match(@.a)]", "match() takes 2 arguments, not 1", 3),
        ("$[?length(@.a == 1) > 1]", "length() takes a ValueType here, not a logical expression", 10),
        ("$[?(@.a]", "expected ')' to close the '(' at character 4", 7),
        ("$[?!!@.a]", "unexpected '!'; expected a query", 4),
        ("$[?@.a == ]", "unexpected ']'; expected a query, a function or a literal", 10),
        ("$[?@.a = 1]", "unexpected '='", 7),
        ("$[?@.a == 01]", "leading zero", 10),
        ("$[?@.a == 1.]", "expected a digit after '.'", 12),
        ("$[?@.a == 'x]", "unterminated", 10),
        ("$[?match(@.a, '\\\\d')]", "is not an I-Regexp (RFC 9485): \\d is not an I-Regexp escape, at character 1 of the pattern", 14),
        ("$[?@.a && ]", "unexpected ']'", 10),
        ("$[?", "unexpected end", 3),
    ]

    @Test("ill-typed and malformed filters are refused with their position", arguments: illTyped)
    func refusal(query: String, message: String, offset: Int) {
        #expect {
            try JSONPath(query)
        } throws: { error in
            guard let error = error as? JSONPath.SyntaxError else { return false }
            return error.message.contains(message) && error.offset == offset
        }
    }

    @Test("strings compare and order by code point, never by canonical equivalence")
    func codePoints() throws {
        let document: JSONValue = ["\u{E9}", "e\u{301}", "f"]
        #expect(try JSONPath("$[?@ == '\u{E9}']").select(in: document) == ["\u{E9}"])
        #expect(try JSONPath("$[?@ == 'e\u{301}']").select(in: document) == ["e\u{301}"])
        // U+00E9 comes after U+0065 U+0301 in code point order, and after "f" too.
        #expect(try JSONPath("$[?@ > 'e\u{301}']").select(in: document) == ["\u{E9}", "f"])
        #expect(try JSONPath("$[?@ < 'f']").select(in: document) == ["e\u{301}"])
        #expect(try JSONPath("$[?length(@) == 2]").select(in: document) == ["e\u{301}"])
        let names: JSONValue = ["k": ["\u{E9}": 1], "other": ["e\u{301}": 1]]
        #expect(try JSONPath("$[?@['\u{E9}']]").select(in: names) == [["\u{E9}": 1]])
    }

    @Test("numbers compare by value and exactly: an integer past 2^53 is not rounded to a double")
    func numbers() throws {
        let document: JSONValue = [.int(1), .double(1.0), .double(9_007_199_254_740_992), .int(9_007_199_254_740_993), .double(0.1)]
        #expect(try JSONPath("$[?@ == 1]").select(in: document) == [.int(1), .double(1.0)])
        #expect(try JSONPath("$[?@ == 1.0]").select(in: document) == [.int(1), .double(1.0)])
        #expect(try JSONPath("$[?@ == 9007199254740993]").select(in: document) == [.int(9_007_199_254_740_993)])
        #expect(try JSONPath("$[?@ > 9007199254740992]").select(in: document) == [.int(9_007_199_254_740_993)])
        #expect(try JSONPath("$[?@ == 1e-1]").select(in: document) == [.double(0.1)])
        #expect(try JSONPath("$[?@ == -0]").select(in: [.int(0), .double(-0.0)]) == [.int(0), .double(-0.0)])
        #expect(try JSONPath("$[?@ < 1e400]").select(in: [.int(Int.max)]) == [.int(Int.max)])
        #expect(throws: JSONPath.SyntaxError.self, "an array is not a literal") { try JSONPath("$[?[1] == [1.0]]") }
        #expect(try JSONPath("$[?@.a == $.b]").select(in: ["x": ["a": [1, 2.0]], "b": [1.0, 2]]) == [["a": [1, 2.0]]])
    }

    @Test("a pattern from the document that is not I-Regexp matches nothing; one that is, is used")
    func documentPatterns() throws {
        let document: JSONValue = ["values": ["ab", "1"], "good": "[a-z]+", "bad": "\\d+"]
        #expect(try JSONPath("$.values[?match(@, $.good)]").select(in: document) == ["ab"])
        #expect(try JSONPath("$.values[?match(@, $.bad)]").select(in: document).isEmpty)
        #expect(try JSONPath("$.values[?!match(@, $.bad)]").select(in: document) == ["ab", "1"])
    }

    @Test("a hostile pattern from the document over a long string takes linear time, within the step budget")
    func hostilePattern() throws {
        let long = String(repeating: "a", count: 50_000)
        let document: JSONValue = ["values": [.string(long)], "pattern": "(a|a)*(a*)*b"]
        #expect(try JSONPath("$.values[?search(@, $.pattern)]").select(in: document).isEmpty)
        // With a budget too small for the work, the query stops and says why.
        let query = try JSONPath("$.values[?search(@, $.pattern)]")
        #expect(throws: JSONPath.LimitExceeded(path: query.text, limit: 1_000, unit: .regexSteps)) {
            try query.select(in: document, maximumRegexSteps: 1_000)
        }
        #expect(JSONPath.LimitExceeded(path: "$[?match(@, 'a')]", limit: 5, unit: .regexSteps).description
            == "$[?match(@, 'a')] takes more than 5 regular-expression steps")
    }

    @Test("the node limit holds inside filters: a quadratic query over a large document stops")
    func nodeLimitInFilters() throws {
        // 2,000 elements, each filter test walking all 2,000 again: four million visits.
        let document: JSONValue = .array((0..<2_000).map { .int($0) })
        let query = try JSONPath("$[?count($[?@ > 0]) > 0]")
        #expect(throws: JSONPath.LimitExceeded(path: query.text)) { try query.select(in: document) }
        #expect(try JSONPath("$[?@ > 1997]").select(in: document) == [1_998, 1_999])
        // The filter's own tests count: 10 candidates are 10 visits.
        let small: JSONValue = .array((0..<10).map { .int($0) })
        #expect(throws: JSONPath.LimitExceeded(path: "$[?@ > 100]", limit: 9)) { try JSONPath("$[?@ > 100]").select(in: small, maximumNodes: 9) }
        #expect(try JSONPath("$[?@ > 100]").select(in: small, maximumNodes: 10).isEmpty)
    }

    @Test("filters nested past the limit are refused when parsed, not a stack overflow")
    func deepNesting() throws {
        let parentheses = "$[?" + String(repeating: "(", count: 10_000) + "@" + String(repeating: ")", count: 10_000) + "]"
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath(parentheses) }
        let filters = "$" + String(repeating: "[?@", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath(filters) }
        let arguments = "$[?" + String(repeating: "count(value(", count: 5_000) + "@" + String(repeating: "))", count: 5_000) + " > 0]"
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath(arguments) }
        let fine = "$[?" + String(repeating: "(", count: 60) + "@" + String(repeating: ")", count: 60) + "]"
        #expect(try JSONPath(fine).select(in: [1]) == [1])
    }

    @Test("a filter applies to the members of objects and elements of arrays, never to scalars")
    func candidates() throws {
        #expect(try JSONPath("$[?@]").select(in: ["a": 1, "b": nil]) == [1, nil])
        #expect(try JSONPath("$[?@ == null]").select(in: ["a": 1, "b": nil]) == [nil])
        #expect(try JSONPath("$.a[?@]").select(in: ["a": "text"]).isEmpty)
        #expect(try JSONPath("$..[?@ == 2]").select(in: [1, [2, [2]]]) == [2, 2])
        #expect(try !JSONPath("$[?@]").isSingular)
    }
}
