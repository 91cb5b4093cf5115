import Foundation
import Testing
@testable import SluiceCore

@Suite("JSON reading and writing")
struct JSONTests {
    @Test("values of every kind, objects in document order, integers kept apart from doubles")
    func reads() throws {
        let value = try JSONReader().value(from: #" {"z": 1, "a": [true, false, null, -0.5, 1e3, 12345678901234567890], "s": "\u00e9\ud83d\ude00\n\/"} "#)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["z", "a", "s"])
        #expect(value["z"] == .int(1))
        #expect(value["a"] == [true, false, nil, -0.5, .double(1000), .bigInteger("12345678901234567890")])
        #expect(value["s"] == "é😀\n/")
        #expect(try JSONReader().value(from: "42") == 42, "any value may be the top level")
        #expect(try JSONReader().value(from: "\u{FEFF}[]") == [], "a byte-order mark is skipped")
        #expect(try JSONReader().value(from: #"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test("an integer past 64 bits keeps its digits: read, compared exactly, written back as it came")
    func bigIntegers() throws {
        let text = #"[1000000000000000000000,18446744073709551616,18446744073709551617,-9223372036854775809,9223372036854775807]"#
        let values = try JSONReader().value(from: text)
        #expect(values == [
            .bigInteger("1000000000000000000000"), .bigInteger("18446744073709551616"), .bigInteger("18446744073709551617"),
            .bigInteger("-9223372036854775809"), .int(Int.max),
        ])
        #expect(try JSONWriter().string(from: values) == text)
        #expect(values[1] != values[2] && values[1]?.hashValue != values[2]?.hashValue)
        #expect(values[0]?.isInteger == true && values[0]?.intValue == nil)
        #expect(JSONValue(integerText: "+000018446744073709551616") == .bigInteger("18446744073709551616"))
        #expect(JSONValue(integerText: "-0042") == .int(-42))
        #expect(JSONValue(integerText: "1e3") == nil && JSONValue(integerText: "-") == nil)
        #expect(try FormEncoder().string(from: ["n": .bigInteger("18446744073709551617")]) == "n=18446744073709551617")
    }

    /// (left, right, order): numbers compared exactly, never through a rounded `Double`.
    static let orders: [(JSONValue, JSONValue, Int?)] = [
        (.bigInteger("18446744073709551616"), .bigInteger("18446744073709551617"), -1),
        (.bigInteger("-18446744073709551617"), .bigInteger("-18446744073709551616"), -1),
        (.bigInteger("-18446744073709551616"), .bigInteger("18446744073709551616"), -1),
        (.bigInteger("18446744073709551616"), .int(Int.max), 1),
        (.int(Int.min), .bigInteger("-9223372036854775809"), 1),
        (.bigInteger("18446744073709551616"), .double(18446744073709551616.0), 0),
        (.bigInteger("18446744073709551617"), .double(18446744073709551616.0), 1),
        (.bigInteger("1000000000000000000000"), .double(1e21), 0),
        (.double(1e21), .bigInteger("999999999999999999999"), 1),
        (.bigInteger("-3"), .double(-2.5), -1),
        (.bigInteger("2"), .double(2.5), -1),
        (.bigInteger("3"), .double(2.5), 1),
        (.bigInteger("18446744073709551616"), .double(.infinity), -1),
        (.bigInteger("18446744073709551616"), .double(.nan), nil),
        (.int(9_007_199_254_740_993), .double(9_007_199_254_740_992.0), 1),
        (.int(2), .double(2.0), 0),
        (.int(2), .string("2"), nil),
    ]

    @Test("numbers compare exactly, whatever their kinds", arguments: orders)
    func numericOrder(left: JSONValue, right: JSONValue, order: Int?) {
        #expect(JSONValue.numericOrder(left, right) == order)
        #expect(JSONValue.numericOrder(right, left) == order.map { -$0 })
    }

    static let invalid: [(String, String, Int, Int)] = [
        ("", "unexpected end of input", 1, 1),
        ("[1,]", "unexpected character ']'", 1, 4),
        ("{\"a\" 1}", "expected ':'", 1, 6),
        ("[1]\n x", "unexpected text after", 2, 2),
        ("01", "leading zero", 1, 1),
        ("1.", "digit after '.'", 1, 3),
        ("\"a\u{01}\"", "control character", 1, 3),
        (#""\ud800""#, "not followed by a low one", 1, 2),
        (#""\udc00""#, "lone low surrogate", 1, 2),
        (#""\x""#, "invalid escape", 1, 2),
        ("tru", "invalid literal", 1, 1),
        ("// c\n1", "unexpected character '/'", 1, 1),
        ("\"abc", "unterminated string", 1, 1),
        ("1e999", "out of range", 1, 1),
    ]

    @Test("invalid JSON is an error with line and column", arguments: invalid)
    func rejects(text: String, message: String, line: Int, column: Int) {
        #expect {
            try JSONReader().value(from: text)
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.message.contains(message) && error.line == line && error.column == column
        }
    }

    @Test("invalid UTF-8 and deep nesting are errors, not crashes")
    func hostileInput() {
        #expect(throws: JSONSyntaxError.self) { try JSONReader().value(from: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONReader().value(from: String(repeating: "[", count: 100_000)) }
        #expect(throws: Never.self) { try JSONReader(maximumDepth: 10).value(from: String(repeating: "[", count: 10) + String(repeating: "]", count: 10)) }
    }

    @Test("writing escapes what JSON requires and round-trips")
    func writes() throws {
        let value: JSONValue = ["b": "q\"\\\u{1}\t", "a": [1, 2.5, nil, true], "e": [:], "u": "ü"]
        let text = try JSONWriter().string(from: value)
        #expect(text == #"{"b":"q\"\\\u0001\t","a":[1,2.5,null,true],"e":{},"u":"ü"}"#)
        #expect(try JSONReader().value(from: text) == value)
        #expect(try JSONWriter(prettyPrinted: true).string(from: ["a": [1]]) == "{\n  \"a\": [\n    1\n  ]\n}")
        // Past 32 levels, compact: a 500-deep document grows with its size, not size times depth.
        var deep: JSONValue = [1, 2]
        for _ in 0..<499 { deep = [deep] }
        let deepText = try JSONWriter(prettyPrinted: true).string(from: deep)
        #expect(deepText.utf8.count < 4_000, "\(deepText.utf8.count) bytes")
        #expect(try JSONReader(maximumDepth: 512).value(from: deepText) == deep)
        #expect(deepText.contains("\n" + String(repeating: " ", count: 64) + "[[[") && !deepText.contains(String(repeating: " ", count: 66)))
        #expect(deepText.contains("]]]\n" + String(repeating: " ", count: 62) + "]\n" + String(repeating: " ", count: 60) + "]") && deepText.hasSuffix("\n]"))
        #expect(throws: UnencodableValue(path: "$[0]", reason: "nan is not a number JSON can hold")) {
            try JSONWriter().string(from: [.double(.nan)])
        }
    }

    @Test("objects compare without order; null removal reaches every depth")
    func objects() {
        #expect(JSONValue.object(["a": 1, "b": 2]) == .object(["b": 2, "a": 1]))
        #expect(Set<JSONValue>([["a": 1, "b": 2], ["b": 2, "a": 1]]).count == 1)
        let value: JSONValue = ["a": nil, "b": [1, nil, ["c": nil, "d": [nil]]]]
        #expect(value.removingNullValues() == ["b": [1, ["d": []]]])
    }
}
