import Foundation
import SluiceCore
import SluiceStageRegistry

extension HurlConversion {
    /// A response section as `expect:` and `capture:`: the status line, implicit header and body
    /// checks, and every assert and capture as a query, its filters and its predicate.
    mutating func response(_ response: HurlResponse) -> [(String, YAMLNode)] {
        let at = response.position
        var expect: [(String, YAMLNode)] = []
        var checks: [YAMLNode] = []
        var captures: [(String, HurlSourcePosition, YAMLNode)] = []
        if case .code(let code) = response.status.kind {
            expect.append(("status", HurlConversion.plain(String(code), at: response.status.position)))
        }
        let version: String? = switch response.version {
        case .any: nil
        case .http1_0: "1.0"
        case .http1_1: "1.1"
        case .http2: "2"
        case .http3: "3"
        }
        if let version {
            checks.append(HurlConversion.mapping([("version", HurlConversion.plain("", at: at)), ("equals", HurlConversion.text(version, at: at))], at: at))
        }
        var headers: [(String, HurlSourcePosition, YAMLNode)] = []
        for header in response.headers {
            let name = template(header.key)
            if headers.contains(where: { $0.0.lowercased() == name.lowercased() }) {
                // A second value of the same header: any of its values must be this one.
                checks.append(HurlConversion.mapping([("header", HurlConversion.text(name, at: header.position)), ("contains", templateNode(header.value))], at: header.position))
            } else {
                headers.append((name, header.position, templateNode(header.value)))
            }
        }
        // Each key at its own line, so that a failure is reported where the file writes it.
        if !headers.isEmpty { expect.append(("headers", HurlConversion.mapping(keyedAtTheirLines: headers, at: at))) }
        for section in response.sections {
            switch section.content {
            case .captures(let written):
                for capture in written {
                    if capture.isRedacted { refuse(capture.position, "redact has no pipeline spelling yet") }
                    captures.append((template(capture.name), capture.position, HurlConversion.mapping(query(capture.query) + filters(capture.filters, of: capture.query), at: capture.position)))
                }
            case .asserts(let asserts):
                for check in asserts {
                    checks.append(HurlConversion.mapping(query(check.query) + filters(check.filters, of: check.query) + [predicate(check.predicate)], at: check.position))
                }
            }
        }
        if let body = response.body, let check = bodyCheck(body) { checks.append(check) }
        if !checks.isEmpty { expect.append(("checks", HurlConversion.list(checks, at: at))) }
        var keys: [(String, YAMLNode)] = []
        if !expect.isEmpty { keys.append(("expect", HurlConversion.mapping(expect, at: at))) }
        if !captures.isEmpty { keys.append(("capture", HurlConversion.mapping(keyedAtTheirLines: captures, at: at))) }
        return keys
    }

    /// A query as its key and argument.
    private mutating func query(_ query: HurlQuery) -> [(String, YAMLNode)] {
        let at = query.position
        let none = HurlConversion.plain("", at: at)
        switch query.kind {
        case .status: return [("status", none)]
        case .version: return [("version", none)]
        case .url: return [("url", none)]
        case .ip: return [("ip", none)]
        case .redirects: return [("redirects", none)]
        case .duration: return [("duration", none)]
        case .body: return [("body", none)]
        case .bytes: return [("bytes", none)]
        case .rawBytes: return [("rawbytes", none)]
        case .sha256: return [("sha256", none)]
        case .md5: return [("md5", none)]
        case .header(let name): return [("header", templateNode(name))]
        case .cookie(let path): return [("set-cookie", templateNode(path))]
        case .xpath(let expression): return [("xpath", templateNode(expression))]
        case .jsonpath(let expression): return [(defaults.jsonPathNodeLists ? "jsonpath-nodes" : "jsonpath", jsonPathNode(expression))]
        case .regex(let pattern): return [("regex", patternNode(pattern, asRegexLiteral: false))]
        case .variable(let name): return [("variable", templateNode(name))]
        case .certificate(let attribute):
            // The forms Hurl gives, from curl's certinfo: one-line names, colon-separated octets.
            let field = switch attribute {
            case .subject: "subject-oneline"
            case .issuer: "issuer-oneline"
            case .startDate: "not-before"
            case .expireDate: "not-after"
            case .serialNumber: "serial-number-octets"
            }
            return [("certificate", HurlConversion.text(field, at: at))]
        }
    }

    /// A pattern as text: a quoted one as written, a `/regex/` as its pattern, or kept as
    /// `/regex/` where the filter tells a regex from text by the slashes (`replace`).
    private mutating func patternNode(_ pattern: HurlPattern, asRegexLiteral: Bool) -> YAMLNode {
        switch pattern {
        case .quoted(let written): return templateNode(written)
        case .regex(let regex): return HurlConversion.text(asRegexLiteral ? "/\(regex.pattern)/" : regex.pattern, at: regex.position)
        }
    }

    /// The filters of `query`, as `filters: [...]` when there are any: a certificate's date is
    /// made a date first, as Hurl's query gives it (its text is ISO 8601).
    private mutating func filters(_ filters: [HurlFilter], of query: HurlQuery) -> [(String, YAMLNode)] {
        var nodes = filters.map { filter($0) }
        if case .certificate(let attribute) = query.kind, [.startDate, .expireDate].contains(attribute) {
            let at = query.position
            nodes.insert(HurlConversion.mapping([("to-date", HurlConversion.text("%Y-%m-%dT%H:%M:%SZ", at: at))], at: at), at: 0)
        }
        guard !nodes.isEmpty else { return [] }
        return [("filters", HurlConversion.list(nodes, at: filters.first?.position ?? query.position))]
    }

    /// One filter: a bare name, or `{name: argument}`.
    private mutating func filter(_ filter: HurlFilter) -> YAMLNode {
        let at = filter.position
        func bare(_ name: String) -> YAMLNode { HurlConversion.text(name, at: at) }
        func with(_ name: String, _ argument: YAMLNode) -> YAMLNode { HurlConversion.mapping([(name, argument)], at: at) }
        switch filter.kind {
        case .base64Decode: return bare("base64-decode")
        case .base64Encode: return bare("base64-encode")
        case .base64UrlSafeDecode: return bare("base64-url-safe-decode")
        case .base64UrlSafeEncode: return bare("base64-url-safe-encode")
        case .charsetDecode(let charset), .decode(let charset): return with("decode", templateNode(charset))
        case .count: return bare("count")
        case .dateFormat(let format), .format(let format): return with("format", templateNode(format))
        case .daysAfterNow: return bare("days-after-now")
        case .daysBeforeNow: return bare("days-before-now")
        case .first: return bare("first")
        case .htmlEscape: return bare("html-escape")
        case .htmlUnescape: return bare("html-unescape")
        case .jsonpath(let expression): return with(defaults.jsonPathNodeLists ? "jsonpath-nodes" : "jsonpath", jsonPathNode(expression))
        case .last: return bare("last")
        case .location: return bare("location")
        case .nth(let index): return with("nth", value(index))
        case .regex(let pattern): return with("regex", patternNode(pattern, asRegexLiteral: false))
        case .replace(let old, let new):
            return with("replace", HurlConversion.list([patternNode(old, asRegexLiteral: true), templateNode(new)], at: at))
        case .replaceRegex(let pattern, let replacement):
            let regex: YAMLNode
            switch pattern {
            case .quoted(let written): regex = HurlConversion.text("/\(template(written))/", at: written.position)
            case .regex: regex = patternNode(pattern, asRegexLiteral: true)
            }
            return with("replace", HurlConversion.list([regex, templateNode(replacement)], at: at))
        case .split(let separator): return with("split", templateNode(separator))
        case .toDate(let format): return with("to-date", templateNode(format))
        case .toFloat: return bare("to-float")
        case .toHex: return bare("to-hex")
        case .toInt: return bare("to-int")
        case .toString: return bare("to-string")
        case .urlDecode: return bare("url-decode")
        case .urlEncode: return bare("url-encode")
        case .urlQueryParam(let name): return with("url-query-param", templateNode(name))
        case .utf8Decode: return bare("utf8-decode")
        case .utf8Encode: return bare("utf8-encode")
        case .xpath(let expression): return with("xpath", templateNode(expression))
        }
    }

    /// A predicate as its operator and operand, `not: {...}` around a negated one.
    private mutating func predicate(_ predicate: HurlPredicate) -> (String, YAMLNode) {
        let at = predicate.function.position
        let (op, operand): (String, YAMLNode)
        var negated = predicate.isNegated
        switch predicate.function.kind {
        case .equal(let expected): (op, operand) = ("equals", value(expected))
        case .notEqual(let expected):
            (op, operand) = ("equals", value(expected))
            negated.toggle()
        case .greaterThan(let expected): (op, operand) = ("gt", value(expected))
        case .greaterThanOrEqual(let expected): (op, operand) = ("ge", value(expected))
        case .lessThan(let expected): (op, operand) = ("lt", value(expected))
        case .lessThanOrEqual(let expected): (op, operand) = ("le", value(expected))
        case .startsWith(let expected): (op, operand) = ("starts-with", value(expected))
        case .endsWith(let expected): (op, operand) = ("ends-with", value(expected))
        case .contains(let expected), .includes(let expected): (op, operand) = ("contains", value(expected))
        case .matches(let expected): (op, operand) = ("matches", value(expected))
        case .exists: (op, operand) = ("exists", HurlConversion.plain("true", at: at))
        case .isBoolean: (op, operand) = ("is", HurlConversion.text("boolean", at: at))
        case .isCollection: (op, operand) = ("is", HurlConversion.text("collection", at: at))
        case .isDate: (op, operand) = ("is", HurlConversion.text("date", at: at))
        case .isEmpty: (op, operand) = ("is", HurlConversion.text("empty", at: at))
        case .isFloat: (op, operand) = ("is", HurlConversion.text("float", at: at))
        case .isInteger: (op, operand) = ("is", HurlConversion.text("integer", at: at))
        case .isIpv4: (op, operand) = ("is", HurlConversion.text("ipv4", at: at))
        case .isIpv6: (op, operand) = ("is", HurlConversion.text("ipv6", at: at))
        case .isIsoDate: (op, operand) = ("is", HurlConversion.text("iso-date", at: at))
        case .isList: (op, operand) = ("is", HurlConversion.text("list", at: at))
        case .isNumber: (op, operand) = ("is", HurlConversion.text("number", at: at))
        case .isObject: (op, operand) = ("is", HurlConversion.text("object", at: at))
        case .isString: (op, operand) = ("is", HurlConversion.text("string", at: at))
        case .isUuid: (op, operand) = ("is", HurlConversion.text("uuid", at: at))
        }
        guard negated else { return (op, operand) }
        return ("not", HurlConversion.mapping([(op, operand)], at: at))
    }

    /// The implicit check of a response body: JSON compared as JSON, bytes as bytes, text as text.
    private mutating func bodyCheck(_ body: HurlBody) -> YAMLNode? {
        let at = body.position
        let none = HurlConversion.plain("", at: at)
        switch body.kind {
        case .json(let value):
            return HurlConversion.mapping([("jsonpath", HurlConversion.text("$", at: at)), ("equals", jsonNode(value))], at: at)
        case .xml(let text):
            return HurlConversion.mapping([("body", none), ("equals", HurlConversion.text(text.replacingCodePoints(of: "${", with: "$${"), at: at))], at: at)
        case .onelineString(let written):
            return HurlConversion.mapping([("body", none), ("equals", templateNode(written))], at: at)
        case .multilineString(let multiline):
            switch multiline.language {
            case .base64: return HurlConversion.mapping([("bytes", none), ("equals", HurlConversion.node(["base64": HurlConversion.text(HurlConversion.compact(multiline.content.literalValue ?? ""), at: at)], at: at))], at: at)
            case .hex: return HurlConversion.mapping([("bytes", none), ("equals", HurlConversion.node(["hex": HurlConversion.text(HurlConversion.compact(multiline.content.literalValue ?? ""), at: at)], at: at))], at: at)
            case .graphql: return HurlConversion.mapping([("body", none), ("equals", graphqlComparand(multiline, at: at))], at: at)
            default: return HurlConversion.mapping([("body", none), ("equals", templateNode(multiline.content))], at: at)
            }
        case .base64(let text):
            return HurlConversion.mapping([("bytes", none), ("equals", HurlConversion.node(["base64": HurlConversion.text(HurlConversion.compact(text), at: at)], at: at))], at: at)
        case .hex(let text):
            return HurlConversion.mapping([("bytes", none), ("equals", HurlConversion.node(["hex": HurlConversion.text(HurlConversion.compact(text), at: at)], at: at))], at: at)
        case .file(let name):
            return HurlConversion.mapping([("bytes", none), ("equals", fileBytes(name, at: at))], at: at)
        }
    }

    /// A JSON value as YAML nodes: numbers keep their digits, `{{name}}` stands for the value.
    private mutating func jsonNode(_ value: HurlJSONValue) -> YAMLNode {
        let at = value.position
        switch value.kind {
        case .object(let members): return HurlConversion.mapping(members.map { (template($0.key), jsonNode($0.value)) }, at: at)
        case .array(let elements): return HurlConversion.list(elements.map { jsonNode($0) }, at: at)
        case .string(let written): return templateNode(written)
        case .number(let digits): return HurlConversion.plain(digits, at: at)
        case .boolean(let flag): return HurlConversion.plain(flag ? "true" : "false", at: at)
        case .null: return HurlConversion.plain("null", at: at)
        case .expression(let expression): return HurlConversion.text(self.expression(expression) ?? "", at: at)
        }
    }
}
