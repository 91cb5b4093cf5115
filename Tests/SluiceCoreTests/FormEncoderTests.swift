import Testing
@testable import SluiceCore

@Suite("Form encoding (AFQueryStringFromParameters)")
struct FormEncoderTests {
    static let cases: [(String, JSONValue, String)] = [
        ("keys sorted", ["b": 2, "a": 1, "c": "3"], "a=1&b=2&c=3"),
        ("nested keys sorted at every level", ["z": ["y": 1, "x": 2], "a": 0], "a=0&z%5Bx%5D=2&z%5By%5D=1"),
        ("arrays keep order", ["a": [3, 1, 2]], "a%5B%5D=3&a%5B%5D=1&a%5B%5D=2"),
        ("arrays of objects", ["a": [["x": 1], ["x": 2, "w": 0]]], "a%5B%5D%5Bx%5D=1&a%5B%5D%5Bw%5D=0&a%5B%5D%5Bx%5D=2"),
        ("null is a bare key", ["a": nil, "b": 1], "a&b=1"),
        ("Booleans are 1 and 0", ["t": true, "f": false], "f=0&t=1"),
        ("numbers as NSNumber writes them", ["i": -7, "d": 2.5, "w": 2.0], "d=2.5&i=-7&w=2"),
        ("space as %20", ["q": "a b"], "q=a%20b"),
        ("unreserved, / and ? stay", ["k": "AZaz09-._~/?"], "k=AZaz09-._~/?"),
        ("gen- and sub-delims escaped", ["k": ":#[]@!$&'()*+,;="], "k=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D"),
        ("UTF-8 bytes in uppercase hex", ["ü": "日本"], "%C3%BC=%E6%97%A5%E6%9C%AC"),
        ("percent and control characters escaped", ["k": "100%\n"], "k=100%25%0A"),
        ("empty arrays and objects write nothing", ["a": [], "b": [:], "c": 1], "c=1"),
        ("no parameters, empty string", [:], ""),
        ("nested arrays", ["a": [[1, 2]]], "a%5B%5D%5B%5D=1&a%5B%5D%5B%5D=2"),
        ("an empty first key still gets its separator", ["": nil, "b": 1], "&b=1"),
        ("an empty value", ["a": "", "b": ""], "a=&b="),
    ]

    @Test("AFNetworking's rules", arguments: cases)
    func rules(name: String, parameters: JSONValue, expected: String) throws {
        #expect(try FormEncoder().string(from: parameters) == expected, "\(name)")
    }

    static let optionCases: [(FormEncoder, JSONValue, String)] = [
        (FormEncoder(arrayEncoding: .indices), ["a": [1, 2], "b": [["x": 1]]], "a%5B0%5D=1&a%5B1%5D=2&b%5B0%5D%5Bx%5D=1"),
        (FormEncoder(arrayEncoding: .repeating), ["a": [1, 2]], "a=1&a=2"),
        (FormEncoder(boolEncoding: .literal), ["t": true, "f": false], "f=false&t=true"),
        (FormEncoder(spaceEncoding: .plus), ["q": "a b+c"], "q=a+b%2Bc"),
    ]

    @Test("array-encoding, bool-encoding and space options", arguments: optionCases)
    func options(encoder: FormEncoder, parameters: JSONValue, expected: String) throws {
        #expect(try encoder.string(from: parameters) == expected)
    }

    @Test("a value that cannot be encoded names its key path")
    func unencodable() {
        #expect(throws: UnencodableValue(path: "$.items[1]['unit price']", reason: "nan cannot be written as a form value")) {
            try FormEncoder().string(from: ["items": [1, ["unit price": .double(.nan)]]])
        }
        #expect(throws: UnencodableValue.self) { try FormEncoder().string(from: [1, 2]) }
    }

    @Test("pairs are flattened but not escaped, for multipart fields")
    func pairs() throws {
        let pairs = try FormEncoder().pairs(from: ["a b": ["c": nil], "d": [true]])
        #expect(pairs == [FormEncoder.Pair(key: "a b[c]", value: nil), FormEncoder.Pair(key: "d[]", value: "1")])
    }
}
