import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles

@Suite("when: and skip: conditions")
struct RunConditionTests {
    static func holds(_ text: String, _ variables: [String: String] = [:], environment: [String: String] = [:]) throws -> Bool {
        try RunCondition(.when, parsing: text, mark: YAMLNode.Mark(line: 1, column: 1)).holds(variables: variables, environment: environment)
    }

    @Test("comparisons: numbers as numbers when both sides are numbers, text by code points otherwise")
    func comparisons() throws {
        let values = ["n": "10", "s": "staging", "e": "e\u{301}", "date": "2026-11-23"]
        #expect(try RunConditionTests.holds("n == 10.0", values))
        #expect(try RunConditionTests.holds("n > 9", values))
        #expect(try RunConditionTests.holds("n < 9.5") == false)
        // As text "10" < "9"; as numbers it is not.
        #expect(try RunConditionTests.holds("n < 9", values) == false)
        #expect(try RunConditionTests.holds("s == 'staging' and s != \"prod\"", values))
        #expect(try RunConditionTests.holds("date >= '2026-01-01'", values))
        // Canonically equivalent, but not the same code points: not equal.
        #expect(try RunConditionTests.holds("e == '\u{E9}'", values) == false)
        #expect(try RunConditionTests.holds("e == 'e\u{301}'", values))
        #expect(try RunConditionTests.holds("${s} == 'staging'", values))
        #expect(try RunConditionTests.holds("1e3 == 1000"))
        #expect(try RunConditionTests.holds("'nan' == 'nan'"))
        // Integers of any size compare exactly, as expect compares them, not rounded to doubles.
        let big = ["big": "18446744073709551617", "edge": "9007199254740993"]
        #expect(try RunConditionTests.holds("big == 18446744073709551616", big) == false)
        #expect(try RunConditionTests.holds("big > 18446744073709551616", big))
        #expect(try RunConditionTests.holds("big != 18446744073709551616", big))
        #expect(try RunConditionTests.holds("big == 018446744073709551617", big))
        #expect(try RunConditionTests.holds("edge > 9007199254740992", big))
        #expect(try RunConditionTests.holds("edge > 9007199254740992.0", big))
        #expect(try RunConditionTests.holds("big > 1.8e19", big))
        #expect(try RunConditionTests.holds("007 == 7"))
        // A number and text have no order, either way round; they are not equal.
        let text = ["qty": "abc"]
        for condition in ["qty > 40", "qty >= 40", "qty < 40", "qty <= 40", "40 < qty", "qty == 40"] {
            #expect(try RunConditionTests.holds(condition, text) == false, "\(condition)")
        }
        #expect(try RunConditionTests.holds("qty != 40", text))
    }

    @Test("exists, missing values, the environment, not/and/or precedence and parentheses")
    func logic() throws {
        let values = ["token": "t"]
        #expect(try RunConditionTests.holds("exists token", values))
        #expect(try RunConditionTests.holds("exists other", values) == false)
        // A comparison with a missing value is false, even !=.
        #expect(try RunConditionTests.holds("other != 'x'", values) == false)
        #expect(try RunConditionTests.holds("not exists other", values))
        #expect(try RunConditionTests.holds("exists env.CI", environment: ["CI": "1"]))
        #expect(try RunConditionTests.holds("env.CI == 1", environment: ["CI": "1"]))
        #expect(try RunConditionTests.holds("true or false and false"))
        #expect(try RunConditionTests.holds("(true or false) and false") == false)
        #expect(try RunConditionTests.holds("not true or true"))
        #expect(try RunConditionTests.holds("not (true or true)") == false)
        let skip = try RunCondition(.skip, parsing: "true", mark: YAMLNode.Mark(line: 1, column: 1))
        #expect(skip.allowsRun(variables: [:], environment: [:]) == false)
        #expect(try RunCondition(.when, parsing: "a == b or exists c and d < 3", mark: YAMLNode.Mark(line: 1, column: 1)).variables == ["a", "b", "c", "d"])
    }

    @Test("malformed conditions say what and where; nesting deep enough to exhaust the stack is refused")
    func errors() {
        let cases: [(String, String)] = [
            ("a = 1", "'=' at character 3 is not an operator (==, !=, <, <=, >, >=)"),
            ("a", "'a' at character 1 needs a comparison"),
            ("a == 'x", "the string at character 6 has no closing '"),
            ("(a == 1", "the '(' at character 1 has no closing ')'"),
            ("a == 1 b", "unexpected b at character 8"),
            ("exists 'a'", "exists at character 1 takes a variable name"),
            ("a ==", "== at character 3 has nothing on its right"),
            ("a == and", "'and' at character 6 is a keyword where a value was expected"),
            ("a == 1.2.3", "'1.2.3' at character 6 is not a number"),
            ("", "the condition ends where a value was expected"),
            ("a == @", "unexpected '@' at character 6"),
            (String(repeating: "(", count: 100_000) + "true" + String(repeating: ")", count: 100_000), "the condition nests deeper than 64 levels"),
            (String(repeating: "not ", count: 100_000) + "true", "the condition nests deeper than 64 levels"),
        ]
        for (text, message) in cases {
            let error = #expect(throws: RunCondition.SyntaxError.self, "\(text.prefix(40))") { try RunCondition(.when, parsing: text, mark: YAMLNode.Mark(line: 1, column: 1)) }
            #expect(error?.message.hasPrefix(message) == true, "\(text.prefix(40)): \(error?.message ?? "")")
        }
    }
}
