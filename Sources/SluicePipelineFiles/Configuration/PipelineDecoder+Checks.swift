import SluiceCore
import SluiceJSONPath
import SluiceStageRegistry

/// `expect:` and `capture:`: every check and capture becomes a query, its filters and (for a
/// check) a predicate, whether it is written in `expect.checks` or in the shorter `expect.body`,
/// `expect.cookies` and `expect.certificate`.
extension PipelineDecoder {
    /// The operators, as error messages list them.
    static let operatorNames = (Expectation.Operator.allCases.map(\.rawValue) + ["not"]).joined(separator: ", ")

    mutating func expectations(_ node: YAMLNode) -> [Expectation] {
        guard let pairs = node.pairs else {
            fail(node.mark, "expect: is a mapping of status, headers, body, checks and max-duration")
            return []
        }
        checkKeys(pairs, allowed: PipelineKeys.expect, in: "expect")
        var expectations: [Expectation] = []
        if let status = node["status"] {
            let texts = status.elements?.compactMap(\.scalar) ?? status.scalar.map { [$0] } ?? []
            if !texts.isEmpty, let codes = StatusCodeSet(parsingEach: texts) {
                expectations.append(Expectation(check: .status(codes), mark: status.mark, label: "status"))
            } else {
                fail(status.mark, "status is a code (200), a class (2xx), a range (200-299) or a list of them, each code of three digits")
            }
        }
        for pair in node["headers"].flatMap({ scalarMapping($0, "expect.headers") }) ?? [] {
            let name = pair.key.scalar ?? ""
            if let pattern = PipelineDecoder.regexLiteral(pair.value.scalar), !pattern.containsCodePoints("${") { checkRegex(pattern, at: pair.value.mark) }
            expectations.append(Expectation(check: .header(name: name, value: pair.value), mark: pair.key.mark, label: "headers.\(name)"))
        }
        if let body = node["body"] {
            for pair in mapping(body, "expect.body") ?? [] {
                guard let text = pair.key.scalar else { continue }
                guard let query = jsonPathQuery(pair.key, nodeList: false) else { continue }
                expectations += predicates(pair.value, keyMark: pair.key.mark, subject: text).map { predicate, written, mark in
                    Expectation(check: .query(query, filters: [], predicate: predicate), mark: mark, label: "body \(text)" + written)
                }
            }
        }
        if let certificate = node["certificate"] {
            for pair in mapping(certificate, "expect.certificate") ?? [] {
                guard let text = pair.key.scalar, let field = certificateField(text, at: pair.key.mark) else { continue }
                expectations += predicates(pair.value, keyMark: pair.key.mark, subject: text).map { predicate, written, mark in
                    Expectation(check: .query(.certificate(field), filters: [], predicate: predicate), mark: mark, label: "certificate \(text)" + written)
                }
            }
        }
        if let cookies = node["cookies"] {
            for pair in mapping(cookies, "expect.cookies") ?? [] {
                guard let name = pair.key.scalar else { continue }
                expectations += predicates(pair.value, keyMark: pair.key.mark, subject: name).map { predicate, written, mark in
                    Expectation(check: .query(.cookie(pair.key), filters: [], predicate: predicate), mark: mark, label: "cookie \(name)" + written)
                }
            }
        }
        if let checks = node["checks"] {
            expectations += generalChecks(checks)
        }
        if let maxDuration = node["max-duration"], let duration = duration(maxDuration, "max-duration") {
            expectations.append(Expectation(check: .maxDuration(duration), mark: maxDuration.mark, label: "max-duration"))
        }
        return expectations
    }

    /// `expect.checks`: a list of `{QUERY: ARGUMENT, filters: [...], OP: value}`, each operator
    /// a check of its own.
    private mutating func generalChecks(_ node: YAMLNode) -> [Expectation] {
        guard let items = node.elements else {
            fail(node.mark, "expect.checks is a list of checks, each {QUERY: ARGUMENT, filters: [...], OP: value}")
            return []
        }
        var expectations: [Expectation] = []
        for item in items {
            guard let pairs = item.pairs else {
                fail(item.mark, "a check is a mapping: {QUERY: ARGUMENT, filters: [...], OP: value}, such as {header: Content-Type, contains: json}")
                continue
            }
            let operatorKeys = Expectation.Operator.allCases.map(\.rawValue) + ["not"]
            checkKeys(pairs, allowed: PipelineKeys.checkEntry, in: "a check")
            guard let (query, queryPair) = query(in: pairs, at: item.mark, owner: "a check") else { continue }
            let filters = item["filters"].map { self.filters($0) } ?? []
            let predicatePairs = pairs.filter { operatorKeys.contains($0.key.scalar ?? "") }
            guard !predicatePairs.isEmpty else {
                fail(item.mark, "the check of \(query.key) has no predicate: add one of " + PipelineDecoder.operatorNames + " (such as exists: true)")
                continue
            }
            let subject = ([query.key] + (query.argumentText.map { [$0] } ?? []) + filters.map(\.label)).joined(separator: " ")
            let wrapped = YAMLNode(.mapping(predicatePairs), mark: predicatePairs[0].key.mark)
            expectations += predicates(wrapped, keyMark: queryPair.key.mark, subject: subject).map { predicate, written, mark in
                Expectation(check: .query(query, filters: filters, predicate: predicate), mark: mark, label: subject + written)
            }
        }
        return expectations
    }

    /// The one query among `pairs`: its key and argument.
    private mutating func query(in pairs: [YAMLNode.Pair], at mark: YAMLNode.Mark, owner: String) -> (CheckQuery, YAMLNode.Pair)? {
        let keys = CheckQuery.keys
        let queries = pairs.filter { keys.contains($0.key.scalar ?? "") }
        guard queries.count == 1 else {
            if queries.isEmpty {
                fail(mark, "\(owner) names no query: one of " + keys.joined(separator: ", "))
            } else {
                fail(queries[1].key.mark, "\(owner) names \(queries.count) queries (" + queries.compactMap(\.key.scalar).joined(separator: ", ") + "); write one per check")
            }
            return nil
        }
        guard let key = queries[0].key.scalar, let query = checkQuery(key, queries[0].value) else { return nil }
        return (query, queries[0])
    }

    /// A query from its key and argument.
    private mutating func checkQuery(_ key: String, _ value: YAMLNode) -> CheckQuery? {
        if CheckQuery.bareKeys.contains(key) {
            guard value.isNull else {
                fail(value.mark, "\(key) takes no argument: write '\(key):' with nothing after it")
                return nil
            }
            switch key {
            case "status": return .status
            case "version": return .version
            case "url": return .url
            case "ip": return .ip
            case "duration": return .duration
            case "body": return .body
            case "bytes": return .bytes
            case "rawbytes": return .rawBytes
            case "sha256": return .sha256
            case "md5": return .md5
            default: return .redirects
            }
        }
        guard let text = value.scalar, !value.isNull else {
            fail(value.mark, "\(key) takes a string: " + PipelineKeys.queryArgument(key))
            return nil
        }
        switch key {
        case "header": return .header(value)
        case "cookie": return .cookie(value)
        case "set-cookie": return setCookieQuery(value, text)
        case "jsonpath": return jsonPathQuery(value, nodeList: false)
        case "jsonpath-nodes": return jsonPathQuery(value, nodeList: true)
        case "xpath": return .xpath(value)
        case "regex":
            if !text.containsCodePoints("${") { checkRegex(text, at: value.mark) }
            return .regex(value)
        case "variable":
            checkVariableName(text, at: value.mark)
            return .variable(text)
        default:
            return certificateField(text, at: value.mark).map(CheckQuery.certificate)
        }
    }

    /// `set-cookie: NAME` or `set-cookie: NAME[ATTRIBUTE]`, as Hurl's `cookie "NAME[Max-Age]"`.
    private mutating func setCookieQuery(_ value: YAMLNode, _ text: String) -> CheckQuery? {
        guard text.hasSuffix("]"), let open = text.lastIndex(of: "[") else { return .setCookie(name: value, attribute: nil) }
        let written = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        guard let attribute = CheckQuery.CookieAttribute.allCases.first(where: { $0.rawValue.lowercased() == written.lowercased() }) else {
            fail(value.mark, "'\(written)' is not a cookie attribute: " + CheckQuery.CookieAttribute.allCases.map(\.rawValue).joined(separator: ", "))
            return nil
        }
        var name = value
        name.content = .scalar(String(text[..<open]), quoted: true)
        return .setCookie(name: name, attribute: attribute)
    }

    /// A JSONPath query: parsed now unless it holds `${...}`, which is filled in when judged.
    private mutating func jsonPathQuery(_ node: YAMLNode, nodeList: Bool) -> CheckQuery? {
        guard let text = node.scalar else { return nil }
        if text.containsCodePoints("${") { return .jsonPath(node, parsed: nil, nodeList: nodeList) }
        return jsonPath(text, at: node.mark).map { .jsonPath(node, parsed: $0, nodeList: nodeList) }
    }

    /// `filters:`: a list of names (`count`) and one-key mappings (`nth: 0`, `replace: [",", ";"]`).
    private mutating func filters(_ node: YAMLNode) -> [CheckFilter] {
        var filters: [CheckFilter] = []
        for item in node.elements ?? [node] {
            let name: String
            var arguments: [YAMLNode] = []
            if let text = item.scalar, !item.isNull {
                name = text
            } else if let pairs = item.pairs, pairs.count == 1, let key = pairs[0].key.scalar {
                name = key
                arguments = pairs[0].value.elements ?? [pairs[0].value]
            } else {
                fail(item.mark, "a filter is a name (count) or a name and its argument (nth: 0)")
                continue
            }
            guard let kind = CheckFilter.Kind(rawValue: name) else {
                let names = CheckFilter.Kind.allCases.map(\.rawValue)
                var message = "unknown filter '\(name)'"
                if let hurl = CheckFilter.Kind.allCases.first(where: { $0.hurlName == name && $0.hurlName != $0.rawValue }) {
                    message += "; '\(name)' is Hurl's spelling, write \(hurl.rawValue)"
                } else if let near = OptionDescriptor.nearest(to: name, in: names) {
                    message += "; did you mean '\(near)'?"
                }
                fail(item.mark, message + " (filters: " + names.joined(separator: ", ") + ")")
                continue
            }
            guard arguments.count == kind.arity, arguments.allSatisfy({ $0.scalar != nil && !$0.isNull }) else {
                switch kind.arity {
                case 0: fail(item.mark, "\(kind.rawValue) takes no argument: write it as a name alone")
                case 1: fail(item.mark, "\(kind.rawValue) takes one argument: {\(kind.rawValue): VALUE}")
                default: fail(item.mark, "\(kind.rawValue) takes two arguments: {\(kind.rawValue): [OLD, NEW]}, OLD a text or a /regex/")
                }
                continue
            }
            checkFilterArguments(kind, arguments)
            filters.append(CheckFilter(kind: kind, arguments: arguments, mark: item.mark))
        }
        return filters
    }

    /// Checks what can be checked of a filter's arguments before they are rendered.
    private mutating func checkFilterArguments(_ kind: CheckFilter.Kind, _ arguments: [YAMLNode]) {
        guard let first = arguments.first, let text = first.scalar, !text.containsCodePoints("${") else { return }
        switch kind {
        case .nth:
            if Int(text) == nil { fail(first.mark, "nth takes an index (0 is the first, -1 the last), not '\(text)'") }
        case .regex:
            checkRegex(PipelineDecoder.regexLiteral(text) ?? text, at: first.mark)
        case .replace:
            if let pattern = PipelineDecoder.regexLiteral(text) { checkRegex(pattern, at: first.mark) }
        case .jsonpath, .jsonpathNodes:
            _ = jsonPath(text, at: first.mark)
        default:
            break
        }
    }

    /// The predicates of one value: a plain value is one `equals` (written as nothing, so the
    /// label stays as written); a mapping of operators is one predicate each, `not: {OP: value}`
    /// a negated one and `not: value` a negated `equals`. A near miss of an operator, or operators
    /// mixed with other keys, is an error.
    private mutating func predicates(_ node: YAMLNode, keyMark: YAMLNode.Mark, subject text: String) -> [(Expectation.Predicate, String, YAMLNode.Mark)] {
        func isOperator(_ key: String?) -> Bool { key == "not" || key.flatMap(Expectation.Operator.init(rawValue:)) != nil }
        let operators = node.pairs?.filter { isOperator($0.key.scalar) } ?? []
        guard let pairs = node.pairs, !operators.isEmpty else {
            for key in node.pairs ?? [] {
                guard let name = key.key.scalar, let meant = Expectation.Operator.nearest(to: name) else { continue }
                fail(key.key.mark, "'\(name)' is not an operator (did you mean '\(meant)'?); operators are " + PipelineDecoder.operatorNames + ". To compare with an object, write {equals: {...}}")
                return []
            }
            return [(Expectation.Predicate(op: .equals, expected: node), "", keyMark)]
        }
        guard operators.count == pairs.count else {
            fail(node.mark, "mix of operators and keys under \(text); write {OP: value} with OP one of " + PipelineDecoder.operatorNames + ", or {equals: {...}} to compare an object")
            return []
        }
        return pairs.compactMap { pair in
            guard let key = pair.key.scalar else { return nil }
            if let op = Expectation.Operator(rawValue: key) {
                check(op, pair.value, for: text)
                return (Expectation.Predicate(op: op, expected: pair.value), " " + op.rawValue, pair.key.mark)
            }
            // `not:` negates the operator it holds, or an `equals` of the value it holds.
            if let inner = pair.value.pairs, inner.count == 1, let name = inner[0].key.scalar, let op = Expectation.Operator(rawValue: name) {
                check(op, inner[0].value, for: text)
                return (Expectation.Predicate(negated: true, op: op, expected: inner[0].value), " not " + op.rawValue, pair.key.mark)
            }
            return (Expectation.Predicate(negated: true, op: .equals, expected: pair.value), " not", pair.key.mark)
        }
    }

    /// Checks what can be checked of an operator's expected value before it is rendered.
    private mutating func check(_ op: Expectation.Operator, _ value: YAMLNode, for path: String) {
        guard let text = value.scalar else {
            if [.matches, .exists, .lt, .le, .gt, .ge, .type, .count, .is].contains(op) {
                fail(value.mark, "\(op.rawValue) under \(path) takes a single value")
            }
            return
        }
        // A variable or capture is checked when it is known, as the check is judged.
        guard !text.containsCodePoints("${") else { return }
        let json = YAMLNode.coreSchemaValue(text)
        switch op {
        case .matches:
            checkRegex(text, at: value.mark)
        case .exists:
            if json.boolValue == nil { fail(value.mark, "exists takes true or false, not '\(text)'") }
        case .count:
            if json.intValue == nil || json.intValue! < 0 { fail(value.mark, "count takes a whole number, not '\(text)'") }
        case .type:
            if !["string", "number", "integer", "float", "boolean", "array", "object", "null"].contains(text) {
                fail(value.mark, "type takes string, number, integer, float, boolean, array, object or null, not '\(text)'")
            }
        case .is:
            if Expectation.ValueKind(rawValue: text) == nil {
                fail(value.mark, "is takes " + Expectation.ValueKind.allCases.map(\.rawValue).joined(separator: ", ") + ", not '\(text)'")
            }
        case .equals, .contains, .startsWith, .endsWith, .lt, .le, .gt, .ge:
            break
        }
    }

    /// The captures of `capture:`, and the names of those whose query could not be read.
    mutating func captures(_ node: YAMLNode) -> (read: [Capture], unread: [String]) {
        var captures: [Capture] = []
        var unread: [String] = []
        for pair in mapping(node, "capture") ?? [] {
            guard let name = pair.key.scalar else { continue }
            checkVariableName(name, at: pair.key.mark)
            if pair.value.scalar != nil, let query = jsonPathQuery(pair.value, nodeList: false) {
                captures.append(Capture(name: name, query: query, mark: pair.key.mark))
            } else if pair.value.scalar == nil, let pairs = pair.value.pairs {
                checkKeys(pairs, allowed: PipelineKeys.captureEntry, in: "capture \(name)")
                guard let (query, _) = query(in: pairs, at: pair.value.mark, owner: "capture \(name)") else {
                    unread.append(name)
                    continue
                }
                let filters = pair.value["filters"].map { self.filters($0) } ?? []
                captures.append(Capture(name: name, query: query, filters: filters, mark: pair.key.mark))
            } else {
                if pair.value.scalar == nil {
                    fail(pair.value.mark, "a capture is a JSONPath or {QUERY: ARGUMENT, filters: [...]}, such as {header: Location}")
                }
                unread.append(name)
            }
        }
        return (captures, unread)
    }

    /// The field a certificate check or capture names.
    mutating func certificateField(_ text: String, at mark: YAMLNode.Mark) -> CertificateField? {
        if let field = CertificateField(rawValue: text) { return field }
        let names = CertificateField.allCases.map(\.rawValue)
        var message = "unknown certificate field '\(text)'"
        if let near = OptionDescriptor.nearest(to: text, in: names) { message += "; did you mean '\(near)'?" }
        fail(mark, message + " (fields: " + names.joined(separator: ", ") + ")")
        return nil
    }
}
