import Foundation
import SluiceCore
import SluiceStageRegistry

extension HurlConversion {
    /// One entry as a pipeline request: its request half, then its checks and captures.
    /// - Parameters:
    ///   - number: its place in the file, from 1, which names it.
    ///   - isLast: whether it is the last entry run, whose body `--output` writes.
    mutating func request(_ entry: HurlEntry, number: Int, isLast: Bool) -> YAMLNode {
        let request = entry.request
        let at = request.position
        var url = template(request.url)
        var headers: [(String, YAMLNode)] = []
        var keys: [(String, YAMLNode)] = [("name", HurlConversion.text("entry \(number)", at: at)), ("method", HurlConversion.text(request.method, at: at))]
        var rest: [(String, YAMLNode)] = []
        var redirects: [(String, YAMLNode)] = []
        var connection: [String: [YAMLNode]] = [:]
        var variables: [(String, YAMLNode)] = []
        var removedHeaders: [YAMLNode] = []
        // The command line's --header lines, then the entry's header options.
        var headerLines = defaults.headerLines.map { HurlConversion.text($0, at: at) }
        var retry: (attempts: YAMLNode?, interval: YAMLNode?) = (nil, nil)
        var credential = HurlEntryCredential()
        var trust = defaultTrust(at: at)

        for header in request.headers {
            addHeader(template(header.key), templateNode(header.value), at: header.position, to: &headers)
        }
        for section in request.sections {
            switch section.content {
            case .query(let parameters):
                let query = parameters.map { encodedQueryPart($0.key) + "=" + encodedQueryPart($0.value) }.joined(separator: "&")
                if !query.isEmpty { url += (url.contains("?") ? "&" : "?") + query }
            case .form(let parameters) where !parameters.isEmpty:
                let form = parameters.map { encodedQueryPart($0.key) + "=" + encodedQueryPart($0.value) }.joined(separator: "&")
                rest.append(("body", HurlConversion.text(form, at: section.position)))
                addDefaultHeader("Content-Type", "application/x-www-form-urlencoded", at: section.position, to: &headers)
            case .multipart(let parameters) where !parameters.isEmpty:
                needsMultipart = true
                rest.append(("parts", HurlConversion.list(parameters.map { part($0) }, at: section.position)))
            case .cookies(let cookies) where !cookies.isEmpty:
                rest.append(("cookies", HurlConversion.mapping(cookies.map { (template($0.key), templateNode($0.value)) }, at: section.position)))
            case .basicAuth(let credentials):
                guard let credential = credentials.first, credentials.count == 1 else {
                    refuse(section.position, "[BasicAuth] takes one user: password line")
                    continue
                }
                if let node = basicAuthorization(user: credential.key, password: credential.value, at: credential.position, to: &headers) {
                    rest.append(("credential", node))
                }
            case .form, .multipart, .cookies:
                // An empty section sends nothing, as in Hurl.
                break
            case .options(let options):
                for option in options {
                    self.option(option, redirects: &redirects, connection: &connection, variables: &variables, removedHeaders: &removedHeaders, headerLines: &headerLines, retry: &retry, credential: &credential, trust: &trust, rest: &rest)
                }
            }
        }
        if let body = request.body { self.body(body, headers: &headers, into: &rest) }
        var stages: [YAMLNode] = []
        if credential.awsSigV4 != nil {
            // The user option is the signing keys, not a credential.
            if let stage = awsSigV4Stage(credential, at: at) { stages.append(stage) }
            credential.user = nil
        }
        if let stage = HurlConversion.trustStage(trust, at: at) { stages.append(stage) }
        if !stages.isEmpty { rest.append(("stages", HurlConversion.list(stages, at: at))) }
        if let node = self.credential(credential, headers: &headers, at: at) {
            guard !rest.contains(where: { $0.0 == "credential" }) else {
                refuse(HurlSourcePosition(line: node.mark.line, column: node.mark.column), "[BasicAuth] and the user option together: the entry sends one credential")
                return HurlConversion.mapping(keys, at: at)
            }
            rest.append(("credential", node))
        }
        if let maxTime = defaults.maxTime, !rest.contains(where: { $0.0 == "timeout" }) {
            rest.append(("timeout", HurlConversion.text(maxTime, at: at)))
        }
        if let delay = defaults.delay, !rest.contains(where: { $0.0 == "delay" }) {
            rest.append(("delay", HurlConversion.text(delay, at: at)))
        }
        removedHeaders += defaults.removedHeaders.map { HurlConversion.text($0, at: at) }
        // Hurl's no-header takes out a header of that name whoever wrote it: the entry, its
        // `header` option, the command line's --header or the transport.
        let removed = Set(removedHeaders.compactMap { $0.scalar?.lowercased() })
        headers.removeAll { removed.contains($0.0.lowercased()) }
        // Hurl asks for a compressed body only with --compressed or `compressed: true`; a body
        // the server codes all the same is decoded either way.
        let asksCompressed = defaults.compressed || request.sections.contains { section in
            guard case .options(let options) = section.content else { return false }
            return options.contains { $0.name == .compressed && $0.value == .boolean(true) }
        }
        let namesAcceptEncoding = { (node: YAMLNode) in node.scalar?.lowercased() == "accept-encoding" }
        if !asksCompressed, !headers.contains(where: { $0.0.lowercased() == "accept-encoding" }), !removedHeaders.contains(where: namesAcceptEncoding) {
            removedHeaders.append(HurlConversion.text("Accept-Encoding", at: at))
        }
        if let version = defaults.httpVersion, !rest.contains(where: { $0.0 == "http-version" }) {
            rest.append(("http-version", HurlConversion.text(version, at: at)))
        }
        if let proxy = defaults.proxy, !rest.contains(where: { $0.0 == "proxy" }) {
            rest.append(("proxy", proxyNode(HurlConversion.text(proxy, at: at), at: at)))
        }
        if defaults.sendsPathAsIs, !rest.contains(where: { $0.0 == "path-as-is" }) {
            rest.append(("path-as-is", HurlConversion.plain("true", at: at)))
        }
        if let rate = defaults.limitRate, !rest.contains(where: { $0.0 == "limit-rate" }) {
            rest.append(("limit-rate", HurlConversion.plain(String(rate), at: at)))
        }
        rest += cookieStorage(entry.leadingComments, at: at)
        if !defaults.usesCookieStore {
            if rest.contains(where: { $0.0 == "cookie-jar" }) {
                refuse(at, "@cookie_storage_clear with --no-cookie-store: the entry uses no cookie jar to clear")
            }
            rest.append(("cookie-jar", HurlConversion.text("off", at: at)))
        }
        if isLast, let output = defaults.output, !rest.contains(where: { $0.0 == "output" }) {
            rest.append(("output", HurlConversion.text(output == "-" ? "/dev/stdout" : output, at: at)))
        }
        if retry.attempts == nil, let retries = defaults.retries {
            retry.attempts = HurlConversion.plain(String(retries + 1), at: at)
        }
        if retry.attempts != nil, retry.interval == nil, let interval = defaults.retryInterval {
            retry.interval = HurlConversion.text(interval, at: at)
        }

        keys.append(("path", HurlConversion.text(url, at: request.url.position)))
        if !variables.isEmpty { keys.append(("variables", HurlConversion.mapping(variables, at: at))) }
        if !headers.isEmpty { keys.append(("headers", HurlConversion.mapping(headers, at: at))) }
        if !headerLines.isEmpty { keys.append(("header-lines", HurlConversion.list(headerLines, at: at))) }
        if !removedHeaders.isEmpty { keys.append(("remove-headers", HurlConversion.list(removedHeaders, at: at))) }
        keys += rest
        redirects = HurlConversion.followingOnly(redirects)
        if !redirects.isEmpty { keys.append(("redirects", HurlConversion.mapping(redirects, at: at))) }
        if !connection.isEmpty {
            keys.append(("connection", HurlConversion.mapping(connection.sorted { $0.key < $1.key }.map { ($0.key, $0.key == "unix-socket" || $0.key == "ip-version" ? $0.value[0] : HurlConversion.list($0.value, at: at)) }, at: at)))
        }
        if let attempts = retry.attempts {
            var retryPairs = [("attempts", attempts)]
            if let interval = retry.interval { retryPairs.append(("interval", interval)) }
            keys.append(("retry", HurlConversion.mapping(retryPairs, at: at)))
        } else if retry.interval != nil {
            refuse(at, "retry-interval without retry: nothing is retried")
        }
        if let response = entry.response {
            // --ignore-asserts leaves the captures.
            keys += self.response(response).filter { !defaults.ignoresAsserts || $0.0 != "expect" }
        }
        return HurlConversion.mapping(keys, at: at)
    }

    /// Hurl's experimental directives in the comments above an entry: `# @cookie_storage_clear`
    /// as `cookie-jar: clear`, each `# @cookie_storage_set: LINE` (a line of curl's cookie file)
    /// as an item of `store-cookies:`, which a run stores after the clear.
    private mutating func cookieStorage(_ comments: [HurlComment], at: HurlSourcePosition) -> [(String, YAMLNode)] {
        var keys: [(String, YAMLNode)] = []
        var stored: [YAMLNode] = []
        for comment in comments {
            let text = comment.text.trimmingCharacters(in: .whitespaces)
            if text == "@cookie_storage_clear" {
                if !stored.isEmpty { refuse(comment.position, "@cookie_storage_clear after @cookie_storage_set: the clear would empty the jar of what was set; set after clearing") }
                keys.append(("cookie-jar", HurlConversion.text("clear", at: comment.position)))
            } else if text.hasPrefix("@cookie_storage_set:") {
                let line = text.dropFirst("@cookie_storage_set:".count).trimmingCharacters(in: .whitespaces)
                do {
                    _ = try NetscapeCookieFile.cookie(line: line)
                    stored.append(HurlConversion.text(line, at: comment.position))
                } catch {
                    refuse(comment.position, "@cookie_storage_set: \(error.message)")
                }
            }
        }
        if !stored.isEmpty { keys.append(("store-cookies", HurlConversion.list(stored, at: at))) }
        return keys
    }

    /// Adds a header; one of a name already written (in any case) joins it as a list of values,
    /// each sent, in order, as Hurl sends both.
    mutating func addHeader(_ name: String, _ value: YAMLNode, at position: HurlSourcePosition, to headers: inout [(String, YAMLNode)]) {
        guard let index = headers.firstIndex(where: { $0.0.lowercased() == name.lowercased() }) else {
            headers.append((name, value))
            return
        }
        let earlier = headers[index].1.elements ?? [headers[index].1]
        headers[index].1 = HurlConversion.list(earlier + [value], at: position)
    }

    /// Adds a header the request does not set itself, as Hurl adds `Content-Type` for a body.
    private func addDefaultHeader(_ name: String, _ value: String, at position: HurlSourcePosition, to headers: inout [(String, YAMLNode)]) {
        guard !headers.contains(where: { $0.0.lowercased() == name.lowercased() }) else { return }
        headers.append((name, HurlConversion.text(value, at: position)))
    }

    /// A query or form field: literal text percent-encoded as a form encodes it, `{{name}}` as
    /// `${urlencode(name)}`.
    private mutating func encodedQueryPart(_ written: HurlTemplate) -> String {
        var text = ""
        for part in written.parts {
            switch part {
            case .literal(let literal):
                text += (literal.value.addingPercentEncoding(withAllowedCharacters: HurlConversion.formUnreserved) ?? "").replacingCodePoints(of: "${", with: "$${")
            case .expression(let expression):
                if expression.filters.isEmpty, case .variable(let name) = expression.source {
                    text += "${urlencode(\(name))}"
                } else if expression.filters.isEmpty, case .function(let function, _) = expression.source, [.newUuid, .newDate].contains(function) {
                    // What they make needs no encoding in a query: hex digits and dashes, an RFC 3339 time.
                    text += self.expression(expression) ?? ""
                } else if expression.filters.isEmpty, case .function(.getEnv, _) = expression.source {
                    // ${env.NAME}, encoded as the field's other text is.
                    if let variable = self.expression(expression) { text += "${urlencode(\(variable.dropFirst(2).dropLast()))}" }
                } else if expression.filters.isEmpty, case .function(let function, let arguments) = expression.source {
                    // A name holds a space, an email an @: encoded as the field's other text is.
                    if let call = randomCall(function, arguments, at: expression.position) { text += "${urlencode(\(call))}" }
                } else {
                    refuse(expression.position, "only a variable or a function may stand in a query or form field, without filters")
                }
            }
        }
        return text
    }

    /// What a form leaves as it is: letters, digits and `-._~` (RFC 3986's unreserved).
    private static let formUnreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// An `Authorization: Basic` header of literal credentials; credentials with `{{...}}` are
    /// the request's `credential:` instead (Basic, sent at once), returned.
    private mutating func basicAuthorization(user: HurlTemplate, password: HurlTemplate, at position: HurlSourcePosition, to headers: inout [(String, YAMLNode)]) -> YAMLNode? {
        guard let user = user.literalValue, let password = password.literalValue else {
            let schemes = HurlConversion.text("basic", at: position)
            return HurlConversion.mapping([("username", templateNode(user)), ("password", templateNode(password)), ("schemes", schemes)], at: position)
        }
        addHeader("Authorization", HurlConversion.text("Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), at: position), at: position, to: &headers)
        return nil
    }

    /// A `[Multipart]` field or file as a part.
    private mutating func part(_ parameter: HurlMultipartParameter) -> YAMLNode {
        let at = parameter.position
        switch parameter.value {
        case .text(let value):
            return HurlConversion.mapping([("name", templateNode(parameter.name)), ("value", templateNode(value))], at: at)
        case .file(let filename, let contentType):
            var pairs = [("name", templateNode(parameter.name)), ("file", pathNode(filename))]
            if let contentType { pairs.append(("content-type", HurlConversion.text(contentType, at: at))) }
            return HurlConversion.mapping(pairs, at: at)
        }
    }

    /// A request body: JSON as its text with `Content-Type: application/json` unless the entry
    /// sets one, XML with `application/xml`, GraphQL as the JSON Hurl sends for it, text as it
    /// is, bytes as `!!binary`, a file as `body-file`.
    private mutating func body(_ body: HurlBody, headers: inout [(String, YAMLNode)], into rest: inout [(String, YAMLNode)]) {
        let at = body.position
        switch body.kind {
        case .json(let value):
            rest.append(("body", HurlConversion.text(body.source.map { jsonSource($0, of: value) } ?? jsonText(value), at: at)))
            addDefaultHeader("Content-Type", "application/json", at: at, to: &headers)
        case .xml(let text):
            rest.append(("body", HurlConversion.text(text.replacingCodePoints(of: "${", with: "$${"), at: at)))
            addDefaultHeader("Content-Type", "application/xml", at: at, to: &headers)
        case .onelineString(let written):
            rest.append(("body", templateNode(written)))
        case .multilineString(let multiline):
            switch multiline.language {
            case .base64: rest.append(("body", HurlConversion.binary(HurlConversion.compact(multiline.content.literalValue ?? ""), at: at)))
            case .hex: rest.append(("body", hexBody(HurlConversion.compact(multiline.content.literalValue ?? ""), at: at)))
            case .graphql: graphqlBody(multiline, at: at, headers: &headers, into: &rest)
            case .json:
                rest.append(("body", templateNode(multiline.content)))
                addDefaultHeader("Content-Type", "application/json", at: at, to: &headers)
            case .xml:
                rest.append(("body", templateNode(multiline.content)))
                addDefaultHeader("Content-Type", "application/xml", at: at, to: &headers)
            case .raw, nil:
                rest.append(("body", templateNode(multiline.content)))
            }
        case .base64(let text):
            rest.append(("body", HurlConversion.binary(HurlConversion.compact(text), at: at)))
        case .hex(let text):
            rest.append(("body", hexBody(HurlConversion.compact(text), at: at)))
        case .file(let path):
            rest.append(("body-file", pathNode(path)))
        }
    }

    /// A `!!binary` scalar: bytes as Base64.
    static func binary(_ base64: String, at position: HurlSourcePosition) -> YAMLNode {
        YAMLNode(.scalar(base64, quoted: false), mark: mark(position), tag: "tag:yaml.org,2002:binary")
    }
}

extension HurlConversion {
    /// A hex body as `!!binary`; text that is not hex digits (the parser lets none through) is
    /// refused rather than sent short.
    private mutating func hexBody(_ digits: String, at position: HurlSourcePosition) -> YAMLNode {
        guard let bytes = HexText.bytes(digits) else {
            refuse(position, "hex,...; takes hex digits, two a byte")
            return HurlConversion.binary("", at: position)
        }
        return HurlConversion.binary(bytes.base64EncodedString(), at: position)
    }
}
