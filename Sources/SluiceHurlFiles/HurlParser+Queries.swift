/// Queries: what a capture or an assert reads from the response.
extension HurlParser {
    /// Reads a query; `context` completes "expected a query (...) ...".
    mutating func parseQuery(context: String) throws(HurlSyntaxError) -> HurlQuery {
        let position = scanner.position
        let word = scanner.lookAhead { $0.isHurlKeywordCharacter }
        let kind: HurlQuery.Kind
        switch word {
        case "status": kind = .status
        case "version": kind = .version
        case "url": kind = .url
        case "ip": kind = .ip
        case "redirects": kind = .redirects
        case "body": kind = .body
        case "duration": kind = .duration
        case "bytes": kind = .bytes
        case "rawbytes": kind = .rawBytes
        case "sha256": kind = .sha256
        case "md5": kind = .md5
        case "header", "cookie", "xpath", "jsonpath", "variable", "regex", "certificate":
            _ = scanner.consume(word)
            return HurlQuery(position: position, kind: try parseQueryArgument(of: word))
        default:
            throw expected(
                "a query (status, header, cookie, body, jsonpath, xpath, regex, variable, duration, bytes, ...) \(context)"
            )
        }
        _ = scanner.consume(word)
        return HurlQuery(position: position, kind: kind)
    }

    private mutating func parseQueryArgument(of keyword: String) throws(HurlSyntaxError) -> HurlQuery.Kind {
        if keyword == "regex" {
            try expectSpaces(before: "a quoted string (\"...\") or a /regex/", after: keyword)
            return .regex(try parsePattern(after: keyword))
        }
        try expectSpaces(before: "a quoted string (\"...\")", after: keyword)
        let argument = try parseQuotedString(context: "after `\(keyword)`")
        switch keyword {
        case "header": return .header(name: argument)
        case "cookie": return .cookie(path: argument)
        case "xpath": return .xpath(argument)
        case "jsonpath": return .jsonpath(argument)
        case "variable": return .variable(name: argument)
        default:
            guard let text = argument.literalValue, let attribute = HurlCertificateAttribute(rawValue: text) else {
                let names = HurlCertificateAttribute.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw HurlSyntaxError(
                    at: argument.position,
                    message: "expected a certificate attribute (\(names)), found `\"\(argument.sourceText)\"`"
                )
            }
            return .certificate(attribute)
        }
    }
}
