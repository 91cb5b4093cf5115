/// `{{...}}` expressions: a variable or a function call, then filters.
extension HurlParser {
    mutating func parseTemplateExpression() throws(HurlSyntaxError) -> HurlTemplateExpression {
        let position = scanner.position
        _ = scanner.consume("{{")
        skipSpaces()
        guard let first = scanner.peek(), first.isHurlLetter || first == "_" else {
            throw expected("a variable name or a function (newDate, newUuid, ...) after `{{`")
        }
        let name = scanner.consume { $0.isHurlVariableNameCharacter }
        let source: HurlTemplateExpression.Source
        if let function = HurlFunction(rawValue: name) {
            source = .function(function, arguments: try parseFunctionArguments())
        } else {
            source = .variable(name: name)
        }
        var filters: [HurlFilter] = []
        while true {
            let spaces = skipSpaces()
            if scanner.consume("}}") { break }
            let word = scanner.lookAhead { $0.isHurlKeywordCharacter }
            guard spaces > 0, Self.isFilterName(word) else {
                throw expected("a filter or `}}` to close the expression started at \(position)")
            }
            filters.append(try parseFilter())
        }
        return HurlTemplateExpression(position: position, source: source, filters: filters)
    }

    /// Reads the numbers and quoted strings that follow a function name.
    private mutating func parseFunctionArguments() throws(HurlSyntaxError) -> [HurlValue] {
        var arguments: [HurlValue] = []
        while true {
            let checkpoint = scanner.checkpoint
            guard skipSpaces() > 0, let next = scanner.peek() else {
                scanner.restore(checkpoint)
                return arguments
            }
            let position = scanner.position
            if next == "\"" {
                let string = try parseQuotedString(context: "as a function argument")
                arguments.append(HurlValue(position: position, kind: .string(string)))
            } else if isAtNumber {
                arguments.append(parseNumber())
            } else {
                scanner.restore(checkpoint)
                return arguments
            }
        }
    }
}
