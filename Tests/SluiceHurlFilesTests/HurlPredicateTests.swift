import SluiceHurlFiles
import Testing

/// Predicates, negation and operand checks.
struct HurlPredicateTests {
    private func predicate(_ text: String) throws -> HurlPredicate {
        try HurlTestSupport.assertLine("jsonpath \"$.a\" \(text)").predicate
    }

    @Test(arguments: [
        ("exists", HurlPredicateFunction.Kind.exists), ("isBoolean", .isBoolean), ("isCollection", .isCollection),
        ("isDate", .isDate), ("isEmpty", .isEmpty), ("isFloat", .isFloat), ("isInteger", .isInteger),
        ("isIpv4", .isIpv4), ("isIpv6", .isIpv6), ("isIsoDate", .isIsoDate), ("isList", .isList),
        ("isNumber", .isNumber), ("isObject", .isObject), ("isString", .isString), ("isUuid", .isUuid),
    ])
    func predicatesWithoutOperand(text: String, kind: HurlPredicateFunction.Kind) throws {
        let parsed = try predicate(text)
        #expect(parsed == HurlPredicate(position: .at(4, 16), isNegated: false, function: HurlPredicateFunction(position: .at(4, 16), kind: kind)))
        let negated = try predicate("not \(text)")
        #expect(negated.isNegated)
        #expect(negated.position == .at(4, 16))
        #expect(negated.function.position == .at(4, 20))
        #expect(negated.function.kind == kind)
    }

    @Test func comparisonPredicates() throws {
        let integer = HurlValue(position: .at(4, 19), kind: .integer("3"))
        #expect(try predicate("== 3").function.kind == .equal(integer))
        #expect(try predicate("!= 3").function.kind == .notEqual(integer))
        #expect(try predicate("> 3").function.kind == .greaterThan(HurlValue(position: .at(4, 18), kind: .integer("3"))))
        #expect(try predicate(">= 3").function.kind == .greaterThanOrEqual(integer))
        #expect(try predicate("< 3").function.kind == .lessThan(HurlValue(position: .at(4, 18), kind: .integer("3"))))
        #expect(try predicate("<= 3").function.kind == .lessThanOrEqual(integer))
        #expect(try predicate("not == 3").isNegated)
        let date = try predicate("< \"2024-01-01\"")
        guard case .lessThan(let operand) = date.function.kind else {
            Issue.record("expected <")
            return
        }
        #expect(operand.kind == .string(HurlTestSupport.quoted("2024-01-01", line: 4, column: 18)))
    }

    @Test func textPredicates() throws {
        let string = HurlValue(position: .at(4, 27), kind: .string(HurlTestSupport.quoted("ab", line: 4, column: 27)))
        #expect(try predicate("startsWith \"ab\"").function.kind == .startsWith(string))
        #expect(try predicate("endsWith   \"ab\"").function.kind == .endsWith(string))
        #expect(try predicate("contains   \"ab\"").function.kind == .contains(string))
        #expect(try predicate("includes   \"ab\"").function.kind == .includes(string))
        #expect(try predicate("matches    \"ab\"").function.kind == .matches(string))
        #expect(
            try predicate("matches /a\\/b/").function.kind
                == .matches(HurlValue(position: .at(4, 24), kind: .regex(HurlRegex(position: .at(4, 24), source: "a\\/b", pattern: "a/b"))))
        )
        #expect(try predicate("startsWith hex,0A0b;").function.kind == .startsWith(HurlValue(position: .at(4, 27), kind: .hex("0A0b"))))
        #expect(try predicate("contains 3").function.kind == .contains(HurlValue(position: .at(4, 25), kind: .integer("3"))))
    }

    @Test func predicateErrors() {
        let prefix = "GET http://localhost\nHTTP 200\n[Asserts]\n"
        HurlTestSupport.expectError(
            prefix + "jsonpath \"$.a\" foo\n",
            line: 4,
            column: 16,
            message: "expected a predicate (==, contains, exists, ...) after the query, found `foo`"
        )
        HurlTestSupport.expectError(
            prefix + "status\n",
            line: 4,
            column: 7,
            message: "expected a space and a predicate (==, contains, exists, ...) after the query, found the end of the line"
        )
        HurlTestSupport.expectError(
            prefix + "status ==200\n",
            line: 4,
            column: 10,
            message: "expected a space and a value after `==`, found `200`"
        )
        HurlTestSupport.expectError(
            prefix + "status == \n",
            line: 4,
            column: 11,
            message:
                "expected a value (a number, a \"string\", true, false, null, a {{...}} expression, ...) after `==`, found the end of the line"
        )
        HurlTestSupport.expectError(
            prefix + "status > true\n",
            line: 4,
            column: 10,
            message: "expected a number, a quoted string or an expression after `>`, found `true`"
        )
        HurlTestSupport.expectError(
            prefix + "body matches 12\n",
            line: 4,
            column: 14,
            message: "expected a quoted string or a /regex/ after `matches`, found the number `12`"
        )
        HurlTestSupport.expectError(
            prefix + "body == /a/\n",
            line: 4,
            column: 9,
            message: "expected a value other than a /regex/ after `==`, found the regex `/a/`"
        )
        HurlTestSupport.expectError(
            prefix + "body startsWith null\n",
            line: 4,
            column: 17,
            message: "expected a string, hex,...; or base64,...; after `startsWith`, found `null`"
        )
        HurlTestSupport.expectError(
            prefix + "status == 200 200\n",
            line: 4,
            column: 15,
            message: "expected the end of the line after the predicate, found `200`"
        )
        HurlTestSupport.expectError(
            prefix + "status exists\n[Asserts]\nstatus notexists\n",
            line: 6,
            column: 8,
            message: "expected a predicate (==, contains, exists, ...) after the query, found `notexists`"
        )
    }
}
