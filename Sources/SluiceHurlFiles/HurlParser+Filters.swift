/// Filters, which transform a query's or an expression's value.
extension HurlParser {
    private static let filtersWithoutArgument: [String: HurlFilter.Kind] = [
        "base64Decode": .base64Decode,
        "base64Encode": .base64Encode,
        "base64UrlSafeDecode": .base64UrlSafeDecode,
        "base64UrlSafeEncode": .base64UrlSafeEncode,
        "count": .count,
        "daysAfterNow": .daysAfterNow,
        "daysBeforeNow": .daysBeforeNow,
        "first": .first,
        "htmlEscape": .htmlEscape,
        "htmlUnescape": .htmlUnescape,
        "last": .last,
        "location": .location,
        "toFloat": .toFloat,
        "toHex": .toHex,
        "toInt": .toInt,
        "toString": .toString,
        "urlDecode": .urlDecode,
        "urlEncode": .urlEncode,
        "utf8Decode": .utf8Decode,
        "utf8Encode": .utf8Encode,
    ]

    private static let filtersWithQuotedArgument: Set<String> = [
        "charsetDecode", "dateFormat", "decode", "format", "jsonpath", "split", "toDate", "urlQueryParam", "xpath",
    ]

    private static let filtersWithOtherArguments: Set<String> = ["nth", "regex", "replace", "replaceRegex"]

    /// Whether `word` is the name of a filter.
    static func isFilterName(_ word: String) -> Bool {
        filtersWithoutArgument[word] != nil || filtersWithQuotedArgument.contains(word)
            || filtersWithOtherArguments.contains(word)
    }

    /// Reads a filter; the scanner must be at a filter name (see ``isFilterName(_:)``).
    mutating func parseFilter() throws(HurlSyntaxError) -> HurlFilter {
        let position = scanner.position
        let name = scanner.lookAhead { $0.isHurlKeywordCharacter }
        guard Self.isFilterName(name) else {
            throw expected("a filter (count, nth, regex, split, toInt, ...)")
        }
        _ = scanner.consume(name)
        if let kind = Self.filtersWithoutArgument[name] {
            return HurlFilter(position: position, kind: kind)
        }
        let kind: HurlFilter.Kind
        switch name {
        case "nth":
            try expectSpaces(before: "an index (an integer)", after: name)
            if scanner.startsWith("{{") {
                let indexPosition = scanner.position
                kind = .nth(index: HurlValue(position: indexPosition, kind: .expression(try parseTemplateExpression())))
            } else {
                guard isAtNumber else {
                    throw expected("an index (an integer or a {{...}} expression) after `nth`")
                }
                let indexPosition = scanner.position
                kind = .nth(index: HurlValue(position: indexPosition, kind: .integer(parseIntegerText())))
            }
        case "regex":
            try expectSpaces(before: "a quoted string (\"...\") or a /regex/", after: name)
            kind = .regex(try parsePattern(after: name))
        case "replace", "replaceRegex":
            try expectSpaces(before: "a quoted string (\"...\") or a /regex/", after: name)
            let pattern = try parsePattern(after: name)
            try expectSpaces(before: "the replacement quoted string", after: name)
            let replacement = try parseQuotedString(context: "as the replacement of `\(name)`")
            kind = name == "replace"
                ? .replace(old: pattern, new: replacement)
                : .replaceRegex(pattern: pattern, replacement: replacement)
        default:
            try expectSpaces(before: "a quoted string (\"...\")", after: name)
            let argument = try parseQuotedString(context: "after `\(name)`")
            switch name {
            case "charsetDecode": kind = .charsetDecode(charset: argument)
            case "dateFormat": kind = .dateFormat(argument)
            case "decode": kind = .decode(charset: argument)
            case "format": kind = .format(argument)
            case "jsonpath": kind = .jsonpath(argument)
            case "split": kind = .split(separator: argument)
            case "toDate": kind = .toDate(format: argument)
            case "urlQueryParam": kind = .urlQueryParam(name: argument)
            default: kind = .xpath(argument)
            }
        }
        return HurlFilter(position: position, kind: kind)
    }
}
