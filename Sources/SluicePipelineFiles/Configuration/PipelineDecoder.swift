import Foundation
import SluiceCore
import SluiceJSONPath
import SluiceStageRegistry

/// One file of a pipeline as written, before its includes are resolved and its `for-each` rows
/// read: what ``PipelineDecoder`` makes of one document.
struct DecodedFile {
    /// An `include:` entry: a path relative to the file.
    struct Include {
        var path: YAMLNode
    }

    /// `name:`.
    var name: String?
    /// The top-level `include:` entries.
    var includes: [Include] = []
    var plugins: [YAMLNode] = []
    var variables: [YAMLNode.Pair] = []
    var stages: [StageSpec] = []
    var entries: [RequestEntry] = []
    var maxResponseSize: (value: Int64, mark: YAMLNode.Mark)?
    var cookieFile: YAMLNode?
    /// `fail-fast: true`.
    var failFast = false
    /// `tags:` of the whole file.
    var tags: [String] = []
}

/// One entry of `requests:`: a request, or a group of them.
indirect enum RequestEntry {
    case request(RequestSpec)
    case group(RequestGroup)
}

/// A group entry of `requests:`: `{requests: [...]}` or `{include: FILE}`, with what applies to
/// every request in it (`for-each`, `when`, `skip`, `tags`, `always`). A request with `for-each:`
/// is read as a group of one.
struct RequestGroup {
    /// `include:`: the requests come from this file.
    var include: YAMLNode?
    /// The requests written inline.
    var entries: [RequestEntry] = []
    var forEach: ForEachSpec?
    /// Whether `for-each:` is written but malformed: its rows' names are unknown.
    var forEachIsMalformed = false
    var conditions: [RunCondition] = []
    var tags: [String] = []
    var always = false
}

/// Decodes a pipeline document's node tree into a ``DecodedFile``, collecting every problem of
/// shape (unknown keys, wrong types, bad JSONPath, bad durations, bad conditions) instead of
/// stopping at the first.
package struct PipelineDecoder {
    /// The file being decoded.
    let source: PipelineSource
    /// The problems found so far.
    private(set) var problems: [(mark: YAMLNode.Mark, message: String)] = []

    init(source: PipelineSource) {
        self.source = source
    }

    mutating func fail(_ mark: YAMLNode.Mark, _ message: String) {
        problems.append((mark, message))
    }

    /// The file, as much of it as could be read; `problems` says what could not.
    mutating func decode(_ root: YAMLNode) -> DecodedFile {
        var file = DecodedFile()
        guard let pairs = root.pairs else {
            fail(root.mark, "a pipeline is a mapping with stages: and requests:")
            return file
        }
        checkKeys(pairs, allowed: PipelineKeys.topLevel, in: "a pipeline")
        if let name = root["name"] {
            file.name = scalar(name, "name")
        }
        if let include = root["include"], !include.isNull {
            for entry in include.elements ?? [include] {
                if entry.scalar == nil || entry.isNull {
                    fail(entry.mark, "include: lists pipeline files (paths relative to this file)")
                } else {
                    file.includes.append(DecodedFile.Include(path: entry))
                }
            }
        }
        file.tags = root["tags"].map { tags($0) } ?? []
        if let node = root["max-response-size"], let size = byteCount(node, "max-response-size") {
            file.maxResponseSize = (size, node.mark)
        }
        if let failFast = root["fail-fast"] {
            switch failFast.scalar.map(YAMLNode.coreSchemaValue) {
            case .bool(let value)?: file.failFast = value
            default: fail(failFast.mark, "fail-fast is true or false")
            }
        }
        if let cookieFile = root["cookie-file"] {
            if cookieFile.scalar == nil || cookieFile.isNull { fail(cookieFile.mark, "cookie-file: is the path of a cookie file") } else { file.cookieFile = cookieFile }
        }
        if let plugins = root["plugins"], !plugins.isNull {
            let entries = plugins.elements ?? [plugins]
            for entry in entries {
                if entry.scalar == nil || entry.isNull {
                    fail(entry.mark, "plugins: lists paths of stage modules built as shared libraries (.so)")
                } else {
                    file.plugins.append(entry)
                }
            }
        }
        if let variables = root["variables"], !variables.isNull {
            file.variables = mapping(variables, "variables") ?? []
            for pair in file.variables {
                if let key = pair.key.scalar { checkVariableName(key, at: pair.key.mark) }
            }
        }
        if let stages = root["stages"], !stages.isNull {
            if let elements = stages.elements {
                file.stages = elements.compactMap { stage($0) }
            } else {
                fail(stages.mark, "stages: must be a list of '- NAME: {options}' entries")
            }
        }
        if let requests = root["requests"], !requests.isNull {
            file.entries = entries(requests)
        }
        return file
    }

    private mutating func entries(_ node: YAMLNode) -> [RequestEntry] {
        guard let elements = node.elements else {
            fail(node.mark, "requests: must be a list")
            return []
        }
        return elements.compactMap { element in
            element["include"] != nil || element["requests"] != nil ? group(element).map(RequestEntry.group) : request(element)
        }
    }

    // MARK: Groups

    /// `{include: FILE}` or `{requests: [...]}`, with `for-each`, `when`, `skip`, `tags`, `always`.
    private mutating func group(_ node: YAMLNode) -> RequestGroup? {
        guard let pairs = node.pairs else { return nil }
        checkKeys(pairs, allowed: PipelineKeys.group, in: node["include"] != nil ? "an include entry" : "a group of requests")
        var group = RequestGroup()
        if let include = node["include"] {
            if node["requests"] != nil { fail(node.mark, "an entry has include: (a file's requests) or requests: (a group written here), not both") }
            if include.scalar == nil || include.isNull { fail(include.mark, "include: is the path of a pipeline file, relative to this one") } else { group.include = include }
        }
        if let requests = node["requests"] {
            group.entries = entries(requests)
        }
        applyShared(node, to: &group)
        return group
    }

    /// Reads the keys groups and requests share into a group.
    private mutating func applyShared(_ node: YAMLNode, to group: inout RequestGroup) {
        group.forEach = node["for-each"].flatMap { forEach($0) }
        group.forEachIsMalformed = node["for-each"] != nil && group.forEach == nil
        group.conditions = conditions(node)
        group.tags = node["tags"].map { tags($0) } ?? []
        if let always = node["always"] {
            switch always.scalar.map(YAMLNode.coreSchemaValue) {
            case .bool(let value)?: group.always = value
            default: fail(always.mark, "always is true or false")
            }
        }
    }

    /// `for-each: [...]`, `{csv: PATH}` or `{json: PATH}`.
    private mutating func forEach(_ node: YAMLNode) -> ForEachSpec? {
        if node.elements != nil { return ForEachSpec(source: .list(node), mark: node.mark) }
        guard let pairs = node.pairs, pairs.count == 1, let key = pairs[0].key.scalar, ["csv", "json"].contains(key), pairs[0].value.scalar != nil else {
            fail(node.mark, "for-each is a list of rows, {csv: PATH} or {json: PATH}")
            return nil
        }
        return ForEachSpec(source: key == "csv" ? .csv(pairs[0].value) : .json(pairs[0].value), mark: node.mark)
    }

    /// `when:` and `skip:`, parsed.
    private mutating func conditions(_ node: YAMLNode) -> [RunCondition] {
        var conditions: [RunCondition] = []
        for effect in [RunCondition.Effect.when, .skip] {
            guard let value = node[effect.rawValue] else { continue }
            guard let text = value.scalar, !value.isNull else {
                fail(value.mark, "\(effect.rawValue): is a condition such as \"env == 'staging' and exists token\"")
                continue
            }
            do {
                conditions.append(try RunCondition(effect, parsing: text, mark: value.mark))
            } catch {
                fail(value.mark, "\(effect.rawValue): \(error.message)")
            }
        }
        return conditions
    }

    /// `tags: [a, b]` or `tags: a`.
    private mutating func tags(_ node: YAMLNode) -> [String] {
        var tags: [String] = []
        for element in node.elements ?? [node] {
            guard let text = element.scalar, !element.isNull, !text.isEmpty,
                text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:/".unicodeScalars.contains($0)) })
            else {
                fail(element.mark, "a tag is a word of letters, digits, '-', '_', '.', ':' or '/'")
                continue
            }
            tags.append(text)
        }
        return tags
    }

    // MARK: Stages

    private mutating func stage(_ node: YAMLNode) -> StageSpec? {
        if let name = node.scalar, !node.isNull {
            return StageSpec(name: name, source: source, mark: node.mark, options: [])
        }
        guard let pairs = node.pairs, pairs.count == 1, let name = pairs[0].key.scalar else {
            fail(node.mark, "a stage entry is '- NAME' or '- NAME: {options}' (one key)")
            return nil
        }
        let options = pairs[0].value
        if options.isNull { return StageSpec(name: name, source: source, mark: node.mark, options: []) }
        guard let optionPairs = options.pairs else {
            // A lone value is most often an option's value without its name: say how it is written.
            let written = options.scalar.map { ", such as '- \(name): {OPTION: \($0)}' ('sluice stages' lists each stage's options)" } ?? ""
            fail(options.mark, "the options of stage '\(name)' must be a mapping" + written)
            return nil
        }
        return StageSpec(name: name, source: source, mark: node.mark, options: optionPairs)
    }

    // MARK: Requests

    private mutating func request(_ node: YAMLNode) -> RequestEntry? {
        guard let pairs = node.pairs else {
            fail(node.mark, "a request is a mapping with at least path:, or an entry with include: or requests:")
            return nil
        }
        checkKeys(pairs, allowed: PipelineKeys.request, in: "a request")
        var method = HTTPMethod.get
        if let node = node["method"], let text = scalar(node, "method") {
            // As written: methods are case-sensitive (RFC 9110 section 9.1), and a server that
            // knows POST answers post with 405 or 501. A standard one in another case is refused
            // rather than sent or changed in silence.
            method = HTTPMethod(text)
            if !method.isValidToken {
                fail(node.mark, "'\(text)' is not an HTTP method")
            } else if text != text.uppercased(), HTTPMethod.standard.contains(HTTPMethod(text.uppercased())) {
                fail(node.mark, "method '\(text)': methods are case-sensitive (RFC 9110 section 9.1); write \(text.uppercased())")
            }
        }
        guard let path = node["path"] else {
            fail(node.mark, "a request needs path: (resolved against url-resolution's base-url)")
            return nil
        }
        if path.scalar == nil { fail(path.mark, "path must be a string") }
        let name = node["name"].flatMap { scalar($0, "name") } ?? "\(method) \(path.scalar ?? "")"
        var request = RequestSpec(
            name: name, source: source, mark: node.mark, method: method, path: path,
            pathParameters: node["path-parameters"].flatMap { scalarMapping($0, "path-parameters") } ?? [],
            parameters: node["parameters"],
            headers: node["headers"].flatMap { headerFields($0) } ?? [],
            body: node["body"], bodyFile: node["body-file"], parts: [],
            timeout: node["timeout"].flatMap { duration($0, "timeout") },
            maxResponseSize: node["max-response-size"].flatMap { byteCount($0, "max-response-size") },
            output: node["output"],
            expectations: [], captures: []
        )
        if let output = request.output, output.isNull {
            fail(output.mark, "output is empty (YAML's null): give the file the body is written to, in quotes if it is named null")
        } else if let output = request.output, output.scalar == nil {
            fail(output.mark, "output must be a path: the file the response body is written to")
        }
        if let connection = node["connection"] {
            request.connection = connectionOverrides(connection)
        }
        request.cookies = node["cookies"].flatMap { scalarMapping($0, "cookies") } ?? []
        // A name and value with no ${...} are checked now, as the run would refuse them.
        for pair in request.cookies {
            guard let name = pair.key.scalar, let value = pair.value.scalar else { continue }
            let checkedName = name.containsCodePoints("${") ? "x" : name
            let checkedValue = value.containsCodePoints("${") ? "" : value
            if let problem = Request.cookieProblem(name: checkedName, value: "") {
                fail(pair.key.mark, "cookies: \(problem)")
            } else if let problem = Request.cookieProblem(name: checkedName, value: checkedValue) {
                fail(pair.value.mark, "cookies: \(problem)")
            }
        }
        request.variables = node["variables"].flatMap { mapping($0, "variables") } ?? []
        if let appended = node["append-headers"] {
            request.appendedHeaders = headerFields(appended, "append-headers") ?? []
        }
        if let jar = node["cookie-jar"] {
            if let use = jar.scalar.flatMap(CookieJarUse.init(rawValue:)) {
                request.cookieJar = use
            } else {
                fail(jar.mark, "cookie-jar is clear (empty the run's jar before this request) or off (this request neither sends nor stores cookies)")
            }
        }
        if let stages = node["stages"] {
            if let entries = stages.elements {
                request.stages = entries.compactMap { stage($0) }
            } else {
                fail(stages.mark, "a request's stages: is a list of stages, as the file's")
            }
        }
        if let lines = node["header-lines"] {
            request.headerLines = textList(lines, "header-lines lists NAME: VALUE lines") { text in
                HeaderLine(text) == nil ? "header-lines: '\(text.prefix { $0 != ":" })' is not a NAME: VALUE line" : nil
            }
        }
        if let stored = node["store-cookies"] {
            request.storedCookies = textList(stored, "store-cookies lists lines of curl's cookie file: DOMAIN SUBDOMAINS PATH SECURE EXPIRES NAME VALUE") { text in
                do throws(NetscapeCookieFile.LineError) {
                    _ = try NetscapeCookieFile.cookie(line: text)
                    return nil
                } catch {
                    return "store-cookies: \(error.message)"
                }
            }
        }
        if let removed = node["remove-headers"] {
            request.removedHeaders = removed.elements ?? [removed]
            for name in request.removedHeaders where name.scalar == nil || name.isNull {
                fail(name.mark, "remove-headers lists header names")
            }
        }
        for pair in request.variables {
            checkVariableName(pair.key.scalar ?? "", at: pair.key.mark)
        }
        if let redirects = node["redirects"] {
            request.redirects = redirectRules(redirects)
        }
        if let body = request.body, body.scalar == nil {
            fail(body.mark, "body is raw text; to send structured data, use parameters: with a serialization stage")
        }
        if let file = request.bodyFile, file.scalar?.isEmpty ?? true { fail(file.mark, "body-file must be a path") }
        if request.body != nil && request.bodyFile != nil {
            fail(node.mark, "give body or body-file, not both")
        }
        if let parts = node["parts"] {
            request.parts = (parts.elements ?? []).compactMap { part($0) }
            if parts.elements == nil { fail(parts.mark, "parts must be a list of {name, value} or {name, file}") }
        }
        if let events = node["events"] {
            request.events = eventReading(events)
            if request.output != nil { fail(events.mark, "a request reads events: or writes output:, not both") }
        }
        if let expect = node["expect"] {
            request.expectations = expectations(expect)
        }
        if let capture = node["capture"] {
            (request.captures, request.unreadCaptureNames) = captures(capture)
        }
        if let retry = node["retry"] {
            request.retry = pollingRetry(retry)
        }
        request.delay = node["delay"].flatMap { duration($0, "delay") }
        if let credential = node["credential"] {
            request.credential = credentialOptions(credential)
            // The authentication stage sends a request that has its own Authorization as it is.
            if let header = (request.headers + request.appendedHeaders).first(where: { $0.key.scalar?.asciiLowercased.hasSameCodePoints(as: "authorization") == true }) {
                fail(header.key.mark, "an Authorization header and credential: together: the header would go and the credential never; give one")
            }
        }
        if let proxy = node["proxy"] {
            request.proxy = proxyOptions(proxy)
        }
        if let asIs = node["path-as-is"] {
            switch asIs.scalar.map(YAMLNode.coreSchemaValue) {
            case .bool(let value)?: request.sendsPathAsIs = value
            default: fail(asIs.mark, "path-as-is is true or false")
            }
        }
        if let version = node["http-version"] {
            request.httpVersion = httpVersion(version)
        }
        if let rate = node["limit-rate"], let bytes = byteCount(rate, "limit-rate") {
            request.limitRate = bytes == Int64.max ? nil : bytes
        }
        var shared = RequestGroup()
        applyShared(node, to: &shared)
        request.conditions = shared.conditions
        request.tags = shared.tags
        request.always = shared.always
        guard shared.forEach != nil || shared.forEachIsMalformed else { return .request(request) }
        request.conditions = []
        request.tags = []
        request.always = false
        shared.entries = [.request(request)]
        return .group(shared)
    }

    /// `retry: N` or `retry: {attempts: N, interval: DURATION}`.
    private mutating func pollingRetry(_ node: YAMLNode) -> PollingRetry? {
        func count(_ node: YAMLNode) -> Int? {
            guard let text = node.scalar, let value = Int(text), (1...PollingRetry.maximumAttempts).contains(value) else {
                fail(node.mark, "retry attempts is a whole number from 1 to \(PollingRetry.maximumAttempts): how many times the request is sent at most")
                return nil
            }
            return value
        }
        if node.scalar != nil {
            return count(node).map { PollingRetry(attempts: $0, interval: PollingRetry.defaultInterval, mark: node.mark) }
        }
        guard let pairs = mapping(node, "retry") else { return nil }
        checkKeys(pairs, allowed: PipelineKeys.retry, in: "retry")
        guard let attemptsNode = node["attempts"] else {
            fail(node.mark, "retry: needs attempts: (how many times the request is sent at most)")
            return nil
        }
        let interval = node["interval"].map { duration($0, "retry.interval") } ?? PollingRetry.defaultInterval
        guard let attempts = count(attemptsNode), let interval else { return nil }
        return PollingRetry(attempts: attempts, interval: interval, mark: node.mark)
    }

    /// `events: {count: N, within: DURATION}`, with one of the two at least.
    private mutating func eventReading(_ node: YAMLNode) -> EventReading? {
        guard let pairs = mapping(node, "events") else { return nil }
        checkKeys(pairs, allowed: PipelineKeys.events, in: "events")
        var reading = EventReading(count: nil, within: nil, mark: node.mark)
        if let count = node["count"] {
            if let text = count.scalar, let number = Int(text), number > 0 {
                reading.count = number
            } else {
                fail(count.mark, "events.count must be a whole number of events, 1 or more")
            }
        }
        reading.within = node["within"].flatMap { duration($0, "events.within") }
        if node["count"] == nil, node["within"] == nil {
            fail(node.mark, "events: needs count: (how many events to read), within: (for how long), or both")
        }
        return reading
    }

    private mutating func part(_ node: YAMLNode) -> RequestSpec.Part? {
        guard let pairs = node.pairs else {
            fail(node.mark, "a part is {name, value} or {name, file, filename?, content-type?}")
            return nil
        }
        checkKeys(pairs, allowed: PipelineKeys.part, in: "a part")
        guard let name = node["name"] else {
            fail(node.mark, "a part needs name:")
            return nil
        }
        let part = RequestSpec.Part(name: name, value: node["value"], file: node["file"], filename: node["filename"], contentType: node["content-type"])
        if (part.value == nil) == (part.file == nil) {
            fail(node.mark, "a part has either value: or file:")
        }
        for value in [part.name, part.value, part.file, part.filename, part.contentType].compactMap({ $0 }) where value.scalar == nil {
            fail(value.mark, "part entries are strings")
        }
        if let file = part.file, file.scalar?.isEmpty == true { fail(file.mark, "a part's file must be a path") }
        return part
    }

    /// The pattern of a `/regex/` header value, or `nil` for a plain value.
    package static func regexLiteral(_ text: String?) -> String? {
        guard let text, text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") else { return nil }
        return String(text.dropFirst().dropLast())
    }

    // MARK: Values

    /// Refuses a variable or capture name that is malformed or a template function's.
    mutating func checkVariableName(_ name: String, at mark: YAMLNode.Mark) {
        if let problem = TemplateString.problem(naming: name) { fail(mark, problem) }
    }

    /// Refuses keys that `allowed` does not describe, suggesting the nearest one.
    mutating func checkKeys(_ pairs: [YAMLNode.Pair], allowed descriptors: [OptionDescriptor], in owner: String) {
        let allowed = descriptors.map(\.name)
        for pair in pairs {
            guard let key = pair.key.scalar else {
                fail(pair.key.mark, "keys of \(owner) must be names")
                continue
            }
            guard !allowed.contains(key) else { continue }
            var message = "unknown key '\(key)' in \(owner)"
            if let near = OptionDescriptor.nearest(to: key, in: allowed) { message += "; did you mean '\(near)'?" }
            fail(pair.key.mark, message + " (keys: " + allowed.joined(separator: ", ") + ")")
        }
    }

    mutating func scalar(_ node: YAMLNode, _ name: String) -> String? {
        guard let text = node.scalar, !node.isNull else {
            fail(node.mark, "\(name) must be a string")
            return nil
        }
        return text
    }

    mutating func mapping(_ node: YAMLNode, _ name: String) -> [YAMLNode.Pair]? {
        guard let pairs = node.pairs else {
            fail(node.mark, "\(name) must be a mapping")
            return nil
        }
        return pairs
    }

    /// A request's `headers:`, one pair a field: a name's list of values (`Fruit: [Apple, Banana]`)
    /// is that many fields of the name, in order, as Hurl sends a header written twice.
    mutating func headerFields(_ node: YAMLNode, _ name: String = "headers") -> [YAMLNode.Pair]? {
        guard let pairs = mapping(node, name) else { return nil }
        var fields: [YAMLNode.Pair] = []
        for pair in pairs {
            let values = pair.value.elements ?? [pair.value]
            guard pair.key.scalar != nil, !values.isEmpty, values.allSatisfy({ $0.scalar != nil }) else {
                fail(pair.value.mark, "\(name) maps names to strings, or to lists of strings for a header sent more than once")
                continue
            }
            // A name or value with no ${...} is checked now, as the transport would refuse it.
            for value in values {
                guard let written = pair.key.scalar, let text = value.scalar else { continue }
                let checkedName = written.containsCodePoints("${") ? "X" : written
                // A control character in the name is shown escaped (Swift's debug spelling).
                let shown = written.unicodeScalars.contains { $0.properties.generalCategory == .control } ? written.debugDescription : "'\(written)'"
                if let problem = HTTPHeaders.problem(ofField: checkedName, value: "") {
                    fail(pair.key.mark, "\(name): header field \(shown): \(problem)")
                } else if !text.containsCodePoints("${"), let problem = HTTPHeaders.problem(ofField: checkedName, value: text) {
                    fail(value.mark, "\(name): header field \(shown): \(problem)")
                }
            }
            fields += values.map { YAMLNode.Pair(key: pair.key, value: $0) }
        }
        return fields
    }

    /// A mapping of names to scalars.
    mutating func scalarMapping(_ node: YAMLNode, _ name: String) -> [YAMLNode.Pair]? {
        guard let pairs = mapping(node, name) else { return nil }
        for pair in pairs where pair.key.scalar == nil || pair.value.scalar == nil {
            fail(pair.value.mark, "\(name) maps names to strings")
        }
        return pairs.filter { $0.key.scalar != nil && $0.value.scalar != nil }
    }

    /// A list of strings (or one string), each that holds no `${...}` checked now by `problem`,
    /// which says what is wrong with it or returns `nil`; an item that is not a string is
    /// refused with `notText`.
    mutating func textList(_ node: YAMLNode, _ notText: String, problem: (String) -> String?) -> [YAMLNode] {
        let items = node.elements ?? [node]
        for item in items {
            guard let text = item.scalar, !item.isNull else {
                fail(item.mark, notText)
                continue
            }
            if !text.containsCodePoints("${"), let message = problem(text) { fail(item.mark, message) }
        }
        return items
    }

    mutating func duration(_ node: YAMLNode, _ name: String) -> Duration? {
        guard let text = node.scalar, let duration = DurationText.parse(text) else {
            // A bare number is seconds to wrk and curl, milliseconds to Hurl: its unit is asked for.
            let bare = node.scalar.map { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } } ?? false
            fail(node.mark, "\(name) must be a duration such as 500ms, 30s, 2m or 1h30m" + (bare ? "; give \(node.scalar ?? "")'s unit (\(node.scalar ?? "")s for seconds)" : ""))
            return nil
        }
        return duration
    }

    /// A request's `connection:`: the `connection` stage's options, checked here (types, and the
    /// syntax of every entry without a `${...}`); the runner reads them when it sends.
    private mutating func connectionOverrides(_ node: YAMLNode) -> YAMLNode? {
        guard let pairs = node.pairs, !pairs.isEmpty else {
            fail(node.mark, "connection must be a mapping with unix-socket, resolve, connect-to or ip-version")
            return nil
        }
        let problems = OptionDescriptor.problems(in: pairs, at: node.mark, options: ConnectionOptions.descriptors, owner: "connection")
        for problem in problems { fail(problem.mark, problem.message) }
        for (key, parse) in [
            ("resolve", { (text: String) throws(SluiceError) in _ = try ConnectionOverrides.Resolve(curlSyntax: text) }),
            ("connect-to", { (text: String) throws(SluiceError) in _ = try ConnectionOverrides.ConnectTo(curlSyntax: text) }),
        ] as [(String, (String) throws(SluiceError) -> Void)] {
            guard let value = node[key] else { continue }
            for entry in value.elements ?? [value] {
                guard let text = entry.scalar, !text.containsCodePoints("${") else { continue }
                do {
                    try parse(text)
                } catch {
                    fail(entry.mark, "\(key): \(error.message)")
                }
            }
        }
        return problems.isEmpty ? node : nil
    }

    /// A request's `redirects:`: the `redirects` stage's options, checked here (but for values
    /// with a `${...}`); the runner reads them when it sends.
    private mutating func redirectRules(_ node: YAMLNode) -> YAMLNode? {
        guard let (pairs, templated) = optionsMapping(node, "redirects", RedirectOptions.descriptors, shape: "of follow, max-hops, allow-insecure, trusted or referer") else { return nil }
        let written = pairs.filter { !templated.contains($0.value.mark) }
        do {
            _ = try RedirectOptions.redirection(from: StageOptions(owner: "redirects", pairs: written, mark: node.mark, directory: nil, environment: [:]))
        } catch {
            fail(written.first { $0.key.scalar == error.option }?.key.mark ?? node.mark, "redirects: \(error.message)")
            return nil
        }
        return node
    }

    /// A request key that takes options (`redirects:`, `credential:`, `proxy:`): a mapping of
    /// them, checked here but for values with a `${...}`; `nil` once what is wrong is reported.
    private mutating func optionsMapping(
        _ node: YAMLNode, _ key: String, _ descriptors: [OptionDescriptor], shape: String
    ) -> (pairs: [YAMLNode.Pair], templated: Set<YAMLNode.Mark>)? {
        guard let pairs = node.pairs, !pairs.isEmpty else {
            fail(node.mark, "\(key) must be a mapping \(shape)")
            return nil
        }
        let templated = Set(node.references().references.map(\.mark))
        let problems = OptionDescriptor.problems(in: pairs, at: node.mark, options: descriptors, owner: key).filter { !templated.contains($0.mark) }
        for problem in problems { fail(problem.mark, problem.message) }
        return problems.isEmpty ? (pairs, templated) : nil
    }

    /// A `max-response-size`: a size, or `none` for no limit at all (`Int64.max`), which also
    /// lifts the 64 MiB default for bodies held in memory.
    private mutating func byteCount(_ node: YAMLNode, _ name: String) -> Int64? {
        if let text = node.scalar, text.hasSameCodePoints(as: "none") { return Int64.max }
        guard let text = node.scalar, let count = ByteCountText.parse(text) else {
            fail(node.mark, "\(name) must be a size such as 1048576, 512KiB, 10MB or 1GiB, or none")
            return nil
        }
        return count
    }

    /// A request's `credential:`, checked as far as it can be before its `${...}` are filled in.
    private mutating func credentialOptions(_ node: YAMLNode) -> YAMLNode? {
        let shape = "of username, password and schemes, or netrc-file and schemes"
        guard let (pairs, _) = optionsMapping(node, "credential", CredentialOptions.descriptors, shape: shape) else { return nil }
        if let problem = CredentialOptions.problem(in: pairs) {
            fail(node.mark, problem)
            return nil
        }
        return node
    }

    /// A request's `proxy:`, checked as far as it can be before its `${...}` are filled in.
    private mutating func proxyOptions(_ node: YAMLNode) -> YAMLNode? {
        let shape = "with url (and username, password, no-proxy, ca-bundle)"
        guard let (pairs, templated) = optionsMapping(node, "proxy", ProxyOptions.descriptors, shape: shape) else { return nil }
        if templated.isEmpty {
            // Without ${...} the route is known now: a bad URL is refused at load time.
            let options = StageOptions(owner: "proxy", pairs: pairs, mark: node.mark, directory: nil, environment: [:])
            do {
                _ = try ProxyOptions.route(from: options)
            } catch {
                fail(error.option.map { options.mark(of: $0) } ?? node.mark, error.message)
                return nil
            }
        }
        return node
    }

    /// An `http-version`: `1.0`, `1.1` or `2`.
    private mutating func httpVersion(_ node: YAMLNode) -> HTTPVersion? {
        switch node.scalar {
        case "1.0": return .http1_0
        case "1.1": return .http1_1
        case "2": return .http2
        default:
            fail(node.mark, "http-version is 1.0, 1.1 or 2 (HTTP/3 is not offered by this libcurl)")
            return nil
        }
    }

    mutating func jsonPath(_ text: String, at mark: YAMLNode.Mark) -> JSONPath? {
        do {
            return try JSONPath(text)
        } catch {
            fail(mark, "invalid JSONPath '\(text)': \(error)")
            return nil
        }
    }

    mutating func checkRegex(_ pattern: String, at mark: YAMLNode.Mark) {
        do {
            _ = try TextPattern(pattern)
        } catch {
            fail(mark, "'\(pattern)' is not a regular expression: \(error)")
        }
    }
}
