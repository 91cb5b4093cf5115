/// Predicates: `[not] function [operand]`.
extension HurlParser {
    private static let predicatesWithoutOperand: [String: HurlPredicateFunction.Kind] = [
        "exists": .exists,
        "isBoolean": .isBoolean,
        "isCollection": .isCollection,
        "isDate": .isDate,
        "isEmpty": .isEmpty,
        "isFloat": .isFloat,
        "isInteger": .isInteger,
        "isIpv4": .isIpv4,
        "isIpv6": .isIpv6,
        "isIsoDate": .isIsoDate,
        "isList": .isList,
        "isNumber": .isNumber,
        "isObject": .isObject,
        "isString": .isString,
        "isUuid": .isUuid,
    ]

    private static let predicateExpectation = "a predicate (==, contains, exists, ...) after the query"

    mutating func parsePredicate() throws(HurlSyntaxError) -> HurlPredicate {
        let position = scanner.position
        var isNegated = false
        if scanner.startsWith("not"), scanner.peek(3)?.isHurlSpace == true {
            _ = scanner.consume("not")
            skipSpaces()
            isNegated = true
        }
        let function = try parsePredicateFunction()
        return HurlPredicate(position: position, isNegated: isNegated, function: function)
    }

    private mutating func parsePredicateFunction() throws(HurlSyntaxError) -> HurlPredicateFunction {
        let position = scanner.position
        for symbol in ["==", "!=", ">=", "<=", ">", "<"] where scanner.startsWith(symbol) {
            _ = scanner.consume(symbol)
            guard skipSpaces() > 0 else {
                throw expected("a space and a value after `\(symbol)`")
            }
            let operand = try parsePredicateValue(after: "`\(symbol)`")
            return HurlPredicateFunction(position: position, kind: try comparison(symbol, operand))
        }
        let word = scanner.lookAhead { $0.isHurlKeywordCharacter }
        if let kind = Self.predicatesWithoutOperand[word] {
            _ = scanner.consume(word)
            return HurlPredicateFunction(position: position, kind: kind)
        }
        let kind: HurlPredicateFunction.Kind
        switch word {
        case "startsWith", "endsWith", "contains", "includes", "matches":
            _ = scanner.consume(word)
            try expectSpaces(before: "a value", after: word)
            let operand = try parsePredicateValue(after: "`\(word)`")
            kind = try textPredicate(word, operand)
        default:
            throw expected(Self.predicateExpectation)
        }
        return HurlPredicateFunction(position: position, kind: kind)
    }

    private func comparison(
        _ symbol: String,
        _ operand: HurlValue
    ) throws(HurlSyntaxError) -> HurlPredicateFunction.Kind {
        switch symbol {
        case "==":
            try reject(operand, if: operand.isRegex, expectation: "a value other than a /regex/ after `==`")
            return .equal(operand)
        case "!=":
            try reject(operand, if: operand.isRegex, expectation: "a value other than a /regex/ after `!=`")
            return .notEqual(operand)
        default:
            try reject(
                operand,
                if: !(operand.isNumber || operand.isString || operand.isExpression),
                expectation: "a number, a quoted string or an expression after `\(symbol)`"
            )
            switch symbol {
            case ">": return .greaterThan(operand)
            case ">=": return .greaterThanOrEqual(operand)
            case "<": return .lessThan(operand)
            default: return .lessThanOrEqual(operand)
            }
        }
    }

    private func textPredicate(
        _ word: String,
        _ operand: HurlValue
    ) throws(HurlSyntaxError) -> HurlPredicateFunction.Kind {
        switch word {
        case "startsWith", "endsWith":
            try reject(
                operand,
                if: !(operand.isString || operand.isBytes || operand.isExpression),
                expectation: "a string, hex,...; or base64,...; after `\(word)`"
            )
            return word == "startsWith" ? .startsWith(operand) : .endsWith(operand)
        case "matches":
            try reject(
                operand,
                if: !(operand.isRegex || operand.isString || operand.isExpression),
                expectation: "a quoted string or a /regex/ after `matches`"
            )
            return .matches(operand)
        default:
            try reject(operand, if: operand.isRegex, expectation: "a value other than a /regex/ after `\(word)`")
            return word == "contains" ? .contains(operand) : .includes(operand)
        }
    }

    private func reject(_ operand: HurlValue, if condition: Bool, expectation: String) throws(HurlSyntaxError) {
        guard condition else { return }
        throw HurlSyntaxError(at: operand.position, message: "expected \(expectation), found \(operand.kindDescription)")
    }
}

extension HurlValue {
    var isRegex: Bool {
        if case .regex = kind { return true }
        return false
    }

    var isNumber: Bool {
        switch kind {
        case .integer, .float: true
        default: false
        }
    }

    var isString: Bool {
        switch kind {
        case .string, .onelineString, .multilineString: true
        default: false
        }
    }

    var isBytes: Bool {
        switch kind {
        case .base64, .hex, .file: true
        default: false
        }
    }

    var isExpression: Bool {
        if case .expression = kind { return true }
        return false
    }

    /// What kind of value this is, in words, for error messages.
    var kindDescription: String {
        switch kind {
        case .null: "`null`"
        case .boolean(let value): "`\(value)`"
        case .integer(let text), .float(let text): "the number `\(text)`"
        case .string, .unquotedString, .onelineString, .multilineString: "a string"
        case .base64: "a base64,...; value"
        case .hex: "a hex,...; value"
        case .file: "a file,...; value"
        case .expression: "an expression"
        case .regex(let regex): "the regex `/\(regex.source)/`"
        }
    }
}
