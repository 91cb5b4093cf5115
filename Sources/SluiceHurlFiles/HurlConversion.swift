import Foundation
import SluiceStageRegistry

/// A Hurl file made into the document a pipeline file would be: the same requests, checks and
/// captures in the pipeline format's words, each node marked where the Hurl file wrote it, so
/// that the loader's diagnostics point into the `.hurl` file. `sluice run FILE.hurl` loads the
/// document; `sluice convert FILE.hurl` writes it out as YAML.
///
/// Hurl's defaults that differ from a pipeline file's are written out: redirects are not
/// followed unless an entry asks (`location: true`), and each entry's request is named by its
/// place in the file (`entry 1`), as Hurl's reports number them.
public struct HurlConversion {
    /// The problems found so far.
    private(set) var problems: [HurlConversionError.Problem] = []
    /// Whether an entry sends a multipart body, which needs the serialization stage.
    var needsMultipart = false
    /// The Hurl file's folder, which `file,NAME;` values to compare with are read from.
    var directory: URL?
    /// What the command line sets for every entry.
    var defaults = HurlDefaults()

    /// The pipeline document of a Hurl file.
    /// - Throws: ``HurlConversionError`` naming every construct that has no pipeline spelling.
    /// - Parameters:
    ///   - file: the parsed file.
    ///   - directory: its folder: a `file,NAME;` a response is compared with is read from there
    ///     and written into the document as bytes.
    ///   - defaults: what Hurl's command line sets for every entry.
    public static func pipelineDocument(of file: HurlFile, directory: URL? = nil, defaults: HurlDefaults = HurlDefaults()) throws(HurlConversionError) -> YAMLNode {
        var conversion = HurlConversion()
        conversion.directory = defaults.fileRoot.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? directory
        conversion.defaults = defaults
        let start = file.entries.first?.request.position ?? HurlSourcePosition(line: 1, column: 1)
        let numbered = Array(zip(1..., file.entries))
        let chosen = defaults.entries.map { range in numbered.filter { range.contains($0.0) } } ?? numbered
        if let range = defaults.entries, chosen.isEmpty {
            conversion.refuse(start, "--from-entry \(range.lowerBound): the file has \(numbered.count) entries")
        }
        let requests = chosen.map { number, entry in conversion.request(entry, number: number, isLast: number == chosen.last?.0) }
        guard conversion.problems.isEmpty else { throw HurlConversionError(conversion.problems) }
        var redirects = [("follow", plain(defaults.followsRedirects || defaults.trustsOtherOrigins ? "true" : "false", at: start))]
        if let hops = defaults.maximumRedirects { redirects.append(("max-hops", plain(String(hops), at: start))) }
        if defaults.trustsOtherOrigins { redirects.append(("trusted", plain("true", at: start))) }
        var stages: [YAMLNode] = [node(["redirects": mapping(followingOnly(redirects), at: start)], at: start)]
        if defaults.cookieInput != nil || defaults.cookieOutput != nil {
            let files = [("read", defaults.cookieInput), ("write", defaults.cookieOutput)].compactMap { key, path in path.map { (key, text($0, at: start)) } }
            stages.append(node(["cookies": mapping(files, at: start)], at: start))
        }
        if conversion.needsMultipart {
            stages.append(node(["serialization": node(["format": text("multipart", at: start)], at: start)], at: start))
        }
        var file: [(String, YAMLNode)] = [("stages", .init(.sequence(stages), mark: mark(start))), ("requests", .init(.sequence(requests), mark: mark(start)))]
        // Hurl stops a file after an entry fails, unless --continue-on-error.
        if !defaults.continuesOnError { file.insert(("fail-fast", plain("true", at: start)), at: 0) }
        return mapping(file, at: start)
    }

    /// Records a construct that has no pipeline spelling.
    mutating func refuse(_ position: HurlSourcePosition, _ message: String) {
        problems.append(HurlConversionError.Problem(position: position, message: message))
    }

    /// `redirects` options without those that act only on a redirect followed when `follow`
    /// (the last one given) is `false`: Hurl takes `--max-redirs` and `location-trusted: false`
    /// without `--location` and does nothing with them, where a pipeline refuses them.
    static func followingOnly(_ redirects: [(String, YAMLNode)]) -> [(String, YAMLNode)] {
        guard let follow = redirects.last(where: { $0.0 == "follow" })?.1.scalar, follow.lowercased() == "false" else { return redirects }
        return redirects.filter { $0.0 == "follow" }
    }

    // MARK: Nodes

    /// The mark of a Hurl position.
    static func mark(_ position: HurlSourcePosition) -> YAMLNode.Mark {
        YAMLNode.Mark(line: position.line, column: position.column)
    }

    /// A quoted scalar: text, never read as a number, a Boolean or null.
    static func text(_ value: String, at position: HurlSourcePosition) -> YAMLNode {
        YAMLNode(.scalar(value, quoted: true), mark: mark(position))
    }

    /// A plain scalar, read by YAML's core schema: `200`, `true`, `null`, or nothing.
    static func plain(_ value: String, at position: HurlSourcePosition) -> YAMLNode {
        YAMLNode(.scalar(value, quoted: false), mark: mark(position))
    }

    /// A mapping, its keys in the order given.
    static func node(_ pairs: KeyValuePairs<String, YAMLNode>, at position: HurlSourcePosition) -> YAMLNode {
        mapping(pairs.map { ($0.key, $0.value) }, at: position)
    }

    /// A mapping from an ordered list of pairs.
    static func mapping(_ pairs: [(String, YAMLNode)], at position: HurlSourcePosition) -> YAMLNode {
        YAMLNode(.mapping(pairs.map { YAMLNode.Pair(key: text($0.0, at: position), value: $0.1) }), mark: mark(position))
    }

    /// A mapping from an ordered list of pairs, each key marked at its own position (a capture's
    /// or a response header's line), so that what is reported of it names that line.
    static func mapping(keyedAtTheirLines pairs: [(String, HurlSourcePosition, YAMLNode)], at position: HurlSourcePosition) -> YAMLNode {
        YAMLNode(.mapping(pairs.map { YAMLNode.Pair(key: text($0.0, at: $0.1), value: $0.2) }), mark: mark(position))
    }

    /// A sequence.
    static func list(_ elements: [YAMLNode], at position: HurlSourcePosition) -> YAMLNode {
        YAMLNode(.sequence(elements), mark: mark(position))
    }
}
