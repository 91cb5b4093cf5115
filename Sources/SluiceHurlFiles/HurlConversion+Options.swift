import Foundation
import SluiceCore
import SluicePipelineFiles
import SluiceStageRegistry

extension HurlConversion {
    /// An `[Options]` line as the request keys it stands for; an option with no pipeline
    /// spelling is refused, never dropped.
    mutating func option(
        _ option: HurlOption, redirects: inout [(String, YAMLNode)],
        connection: inout [String: [YAMLNode]], variables: inout [(String, YAMLNode)], removedHeaders: inout [YAMLNode], headerLines: inout [YAMLNode],
        retry: inout (attempts: YAMLNode?, interval: YAMLNode?), credential: inout HurlEntryCredential, trust: inout [(String, YAMLNode)],
        rest: inout [(String, YAMLNode)]
    ) {
        let at = option.position
        let name = option.name.rawValue
        if trustOption(option, into: &trust) { return }
        switch (option.name, option.value) {
        case (.location, _):
            redirects.append(("follow", optionScalar(option.value, at: at)))
        case (.locationTrusted, _):
            redirects.append(("follow", optionScalar(option.value, at: at)))
            redirects.append(("trusted", optionScalar(option.value, at: at)))
        case (.maxRedirections, .integer(let digits)):
            guard !digits.hasPrefix("-") else { return refuse(at, "max-redirs -1 (no limit) has no pipeline spelling; give a number") }
            redirects.append(("max-hops", HurlConversion.plain(digits, at: at)))
        case (.variable, .variableDefinition(let definition)):
            HurlConversion.assign(definition.name, value(definition.value), to: &variables)
        case (.variablesFile, .text(let written)):
            guard let path = written.literalValue else { return refuse(at, "variables-file with {{...}}: the file is read when converting") }
            // Hurl reads it from the working folder; its values are written into the entry.
            do {
                let values = try VariablesFile.load(path: URL(fileURLWithPath: path).path)
                for (name, text) in values.text.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                    HurlConversion.assign(name, HurlConversion.plain(text, at: at), to: &variables)
                }
                // A dotenv file's quoted values, strings.
                for (name, typed) in values.typed.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                    guard case .string(let text) = typed else { continue }
                    HurlConversion.assign(name, HurlConversion.text(text, at: at), to: &variables)
                }
            } catch {
                refuse(at, "variables-file \(path): \(error.diagnostics.map(\.message).joined(separator: "; "))")
            }
        case (.header, .text(let written)):
            // A line (a variable may hold all of it), sent after the entry's headers and the
            // command line's --header, as Hurl sends it.
            let line = template(written)
            if written.literalValue != nil, HeaderLine(line) == nil { return refuse(at, "header takes NAME: VALUE") }
            headerLines.append(HurlConversion.text(line, at: at))
        case (.awsSigV4, .text(let written)):
            credential.awsSigV4 = written
        case (.user, .text(let written)):
            credential.user = written
            credential.position = credential.position ?? at
        case (.digest, .boolean(let on)):
            credential.digest = on
            credential.position = credential.position ?? at
        case (.netrcFile, .text(let written)):
            credential.netrcFile = written
            credential.position = credential.position ?? at
        case (.repeat, .integer(let digits)):
            // Each row an empty mapping: the request runs once a row, binding no variable.
            guard let times = Int(digits), times >= 0, times <= ForEachSpec.maximumRows else {
                return refuse(at, "repeat takes a count from 0 to \(ForEachSpec.maximumRows) (-1, for ever, has no pipeline spelling)")
            }
            if times == 0 {
                // As Hurl: repeat 0 is a skip.
                rest.append(("skip", HurlConversion.plain("true", at: at)))
            } else {
                rest.append(("for-each", HurlConversion.list(Array(repeating: HurlConversion.mapping([], at: at), count: times), at: at)))
            }
        case (.maxTime, .duration), (.maxTime, .integer):
            if let text = option.value.durationText { HurlConversion.assign("timeout", HurlConversion.text(text, at: at), to: &rest) }
        case (.delay, .duration), (.delay, .integer):
            if let text = option.value.durationText { rest.append(("delay", HurlConversion.text(text, at: at))) }
        case (.retry, .integer(let digits)):
            guard let count = Int(digits), count >= 0 else { return refuse(at, "retry -1 (without end) has no pipeline spelling; give a number") }
            retry.attempts = HurlConversion.plain(String(count + 1), at: at)
        case (.retryInterval, .duration), (.retryInterval, .integer):
            retry.interval = option.value.durationText.map { HurlConversion.text($0, at: at) }
        case (.noHeader, .text(let written)):
            removedHeaders.append(templateNode(written))
        case (.skip, _):
            rest.append(("skip", optionScalar(option.value, at: at)))
        case (.output, .text(let written)):
            // Hurl's `-` is standard output, a file named `-` to a pipeline.
            rest.append(("output", written.literalValue == "-" ? HurlConversion.text("/dev/stdout", at: at) : pathNode(written)))
        case (.connectTo, .text(let written)):
            connection["connect-to", default: []].append(templateNode(written))
        case (.resolve, .text(let written)):
            connection["resolve", default: []].append(templateNode(written))
        case (.unixSocket, .text(let written)):
            connection["unix-socket"] = [templateNode(written)]
        case (.ipv4, .boolean(true)):
            connection["ip-version"] = [HurlConversion.text("4", at: at)]
        case (.ipv6, .boolean(true)):
            connection["ip-version"] = [HurlConversion.text("6", at: at)]
        case (.http1_0, .boolean(let on)), (.http1_1, .boolean(let on)), (.http2, .boolean(let on)):
            // false asks for nothing: the transport's own choice, as Hurl's.
            if on { rest.append(("http-version", HurlConversion.text(option.name == .http1_0 ? "1.0" : option.name == .http1_1 ? "1.1" : "2", at: at))) }
        case (.http3, .boolean(true)):
            refuse(at, "http3: this libcurl does not offer HTTP/3")
        case (.limitRate, .integer(let digits)):
            rest.append(("limit-rate", HurlConversion.plain(digits, at: at)))
        case (.proxy, .text(let written)):
            rest.append(("proxy", proxyNode(templateNode(written), at: at)))
        case (.pathAsIs, .boolean(let on)):
            if on { rest.append(("path-as-is", HurlConversion.plain("true", at: at))) }
        case (.compressed, .boolean(_)):
            // Read by request(_:number:isLast:): without `true` no Accept-Encoding goes out.
            break
        case (.verbose, _), (.veryVerbose, _):
            // They change only what Hurl prints.
            break
        default:
            refuse(at, "the option \(name) has no pipeline spelling yet")
        }
    }

    /// A request's `proxy:` for a proxy URL, with the hosts `--no-proxy` (or `no_proxy`) sends
    /// direct.
    func proxyNode(_ url: YAMLNode, at position: HurlSourcePosition) -> YAMLNode {
        var pairs = [("url", url)]
        if !defaults.noProxy.isEmpty {
            pairs.append(("no-proxy", HurlConversion.list(defaults.noProxy.map { HurlConversion.text($0, at: position) }, at: position)))
        }
        return HurlConversion.mapping(pairs, at: position)
    }

    /// Sets a variable of the entry: one set again moves to the end with its new value (a mapping
    /// holds a name once; the later assignment is the one the entry and those after it see).
    static func assign(_ name: String, _ value: YAMLNode, to variables: inout [(String, YAMLNode)]) {
        variables.removeAll { $0.0.utf8.elementsEqual(name.utf8) }
        variables.append((name, value))
    }

    /// A Boolean or templated option value as a scalar.
    private mutating func optionScalar(_ value: HurlOptionValue, at position: HurlSourcePosition) -> YAMLNode {
        switch value {
        case .boolean(let flag): return HurlConversion.plain(flag ? "true" : "false", at: position)
        case .integer(let digits): return HurlConversion.plain(digits, at: position)
        case .text(let written): return templateNode(written)
        case .expression(let expression): return HurlConversion.text(self.expression(expression) ?? "", at: expression.position)
        case .duration(let duration): return HurlConversion.text(duration.pipelineText, at: position)
        case .variableDefinition(let definition): return HurlConversion.text(definition.name, at: definition.position)
        }
    }
}

extension HurlOptionValue {
    /// A duration option's value as a pipeline writes it: its digits and unit, milliseconds when
    /// it has none (a bare number, as Hurl reads it); `nil` for any other value.
    var durationText: String? {
        switch self {
        case .duration(let duration): duration.pipelineText
        case .integer(let digits): HurlDuration(value: digits, unit: nil).pipelineText
        default: nil
        }
    }
}

extension HurlDuration {
    /// The duration as a pipeline writes it: its digits and unit, milliseconds when it has none.
    var pipelineText: String { value + (unit?.rawValue ?? "ms") }
}
