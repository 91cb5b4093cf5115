import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles

@Suite("YAML reading with libyaml")
struct YAMLReaderTests {
    private func document(_ text: String) throws -> YAMLNode {
        try #require(YAMLReader().documents(from: text).first)
    }

    @Test("every node keeps its line and column; mappings keep their order")
    func marks() throws {
        let root = try document("""
            name: demo
            stages:
              - url-resolution:
                  base-url: "http://h/v1"
              - header-injection
            """)
        #expect(root.mark == YAMLNode.Mark(line: 1, column: 1))
        #expect(root.pairs?.map { $0.key.scalar } == ["name", "stages"])
        let stages = try #require(root["stages"]?.elements)
        #expect(stages[0].mark == YAMLNode.Mark(line: 3, column: 5))
        let base = try #require(stages[0]["url-resolution"]?["base-url"])
        #expect(base.scalar == "http://h/v1")
        #expect(base.mark == YAMLNode.Mark(line: 4, column: 17))
        #expect(base.content == .scalar("http://h/v1", quoted: true))
        #expect(stages[1].content == .scalar("header-injection", quoted: false))
    }

    @Test("null, quoted text and tags are told apart")
    func scalars() throws {
        let root = try document("a: ~\nb:\nc: null\nd: 'null'\ne: !!str 2\nf: |\n  text\n")
        #expect(root["a"]?.isNull == true)
        #expect(root["b"]?.isNull == true)
        #expect(root["c"]?.isNull == true)
        #expect(root["d"]?.isNull == false)
        #expect(root["e"]?.tag == "tag:yaml.org,2002:str")
        #expect(root["f"]?.content == .scalar("text\n", quoted: true))
    }

    @Test("anchors and aliases copy the anchored node, marked where the alias is")
    func aliases() throws {
        let root = try document("""
            common: &headers
              Accept: application/json
            first: *headers
            second: [*headers, x]
            """)
        #expect(root["first"]?["Accept"]?.scalar == "application/json")
        #expect(root["first"]?.mark == YAMLNode.Mark(line: 3, column: 8))
        #expect(root["second"]?.elements?.first?["Accept"]?.scalar == "application/json")
    }

    static let errors: [(String, String, Int, Int)] = [
        ("a: [1, 2\nb: 3\n", "did not find expected ',' or ']'", 2, 2),
        ("a: 1\na: 2\n", "duplicate key 'a' (first at 1:1)", 2, 1),
        ("a: *nowhere\n", "alias *nowhere names no anchor", 1, 4),
        ("a:\n\t- b\n", "found character that cannot start any token while scanning for the next token: a tab cannot indent YAML; indent with spaces", 2, 1),
        ("a: \"ééé\"\nb:\n\t- c\n", "a tab cannot indent YAML; indent with spaces", 3, 1),
        ("a: @x\n", "cannot start any token while scanning for the next token: a value cannot start with @ or a backquote; put it in quotes", 1, 4),
        ("key: \"unterminated\n", "found unexpected end of stream while scanning a quoted scalar: a quoted value or a bracket is never closed", 2, 1),
        ("requests:\n  - path: /a\n    expect: status: 200\n", "mapping values are not allowed in this context: a value holds ': ' and is not in quotes", 3, 19),
        ("requests:\n  - path: /a\n   method: GET\n", "did not find expected '-' indicator while parsing a block collection: a line in a list is not indented as its items are", 3, 4),
        ("a:\n  b: 1\n c: 2\n", "did not find expected key while parsing a block mapping: a line is indented less or more than the keys of its mapping", 3, 2),
        ("a: 1\nb\nc: 2\n", "could not find expected ':' while scanning a simple key: a key has no ': ' after it", 3, 1),
    ]

    @Test("errors say what and where", arguments: errors)
    func syntaxErrors(text: String, message: String, line: Int, column: Int) {
        #expect {
            try YAMLReader().documents(from: text)
        } throws: { error in
            guard let error = error as? YAMLReader.SyntaxError else { return false }
            return error.message.contains(message) && error.mark == YAMLNode.Mark(line: line, column: column)
        }
    }

    @Test("an alias bomb stops at the node limit instead of eating memory")
    func aliasBomb() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        #expect(throws: YAMLReader.SyntaxError.self) { try YAMLReader().documents(from: text) }
    }

    @Test(
        "a sequence of 200,000 items and a mapping of 100,000 keys are read whole (each append copied the collection: hours)",
        .timeLimit(.minutes(1))
    )
    func largeCollections() throws {
        let sequence = try document("[" + (0..<200_000).map(String.init).joined(separator: ", ") + "]")
        #expect(sequence.elements?.count == 200_000)
        #expect(sequence.elements?.last?.scalar == "199999")
        let mapping = try document((0..<100_000).map { "k\($0): \($0)" }.joined(separator: "\n"))
        #expect(mapping.pairs?.count == 100_000)
        #expect(throws: YAMLReader.SyntaxError.self) {
            try YAMLReader().documents(from: (0..<100_000).map { "k\($0): \($0)" }.joined(separator: "\n") + "\nk5: again")
        }
    }

    @Test("several documents, or none")
    func documents() throws {
        #expect(try YAMLReader().documents(from: "").isEmpty)
        #expect(try YAMLReader().documents(from: "a: 1\n---\nb: 2\n").count == 2)
    }
}

extension YAMLReaderTests {
    static let scalars: [(String, JSONValue)] = [
        ("~", .null), ("null", .null), ("", .null), ("true", true), ("False", false), ("TRUE", true),
        ("42", 42), ("-7", -7), ("+3", 3), ("0x1F", 31), ("0o17", 15), ("2.5", 2.5), ("1e3", .double(1000)),
        (".5", 0.5), ("-.inf", .double(-.infinity)), ("yes", "yes"), ("1.2.3", "1.2.3"), ("0x", "0x"),
        ("12abc", "12abc"), ("swift linux", "swift linux"), ("e5", "e5"), (".", "."),
    ]

    @Test("plain scalars become JSON by the YAML 1.2 core schema", arguments: scalars)
    func coreSchema(text: String, expected: JSONValue) {
        #expect(YAMLNode.coreSchemaValue(text) == expected)
    }

    @Test("parameters become JSON values: quoted scalars stay strings, order kept")
    func parameters() throws {
        let root = try document("""
            parameters:
              q: swift
              page: 2
              exact: "2"
              tags: [a, b]
              draft: ~
              nested: { z: 1, a: false }
              text: !!str 10
            """)
        let value = try #require(root["parameters"]).jsonValue()
        #expect(value == ["q": "swift", "page": 2, "exact": "2", "tags": ["a", "b"], "draft": nil, "nested": ["z": 1, "a": false], "text": "10"])
        guard case .object(let object) = value else { return }
        #expect(object.keys == ["q", "page", "exact", "tags", "draft", "nested", "text"])
        #expect(throws: YAMLReader.SyntaxError.self) { try document("? [a]\n: 1\n").jsonValue() }
    }
}
