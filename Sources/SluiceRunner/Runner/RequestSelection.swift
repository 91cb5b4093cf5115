import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// Which requests of a pipeline a run sends: `--only` names or globs, `--tag` and `--skip-tag`.
///
/// A request is selected when `only` is empty or one of its patterns matches the request's name
/// (as written, or as shown with its `for-each` row), when `tags` is empty or the request has one
/// of them, and when it has none of `skipTags`. Patterns are POSIX globs (`*`, `?`, `[...]`, read
/// by code point as `fnmatch(3)` reads them in a UTF-8 locale); a pattern that is a request's
/// name, code point by code point, matches it whatever characters it holds.
public struct RequestSelection: Sendable, Hashable {
    /// `--only` patterns.
    public var only: [String]
    /// `--tag` tags: a request needs one of them.
    public var tags: [String]
    /// `--skip-tag` tags: a request with one of them is left out.
    public var skipTags: [String]

    /// Creates a selection; the default selects every request.
    public init(only: [String] = [], tags: [String] = [], skipTags: [String] = []) {
        self.only = only
        self.tags = tags
        self.skipTags = skipTags
    }

    /// Whether it selects every request.
    public var selectsAll: Bool { only.isEmpty && tags.isEmpty && skipTags.isEmpty }

    /// Whether `pattern` matches a name: when both have the same code points (so `fetch [b]`
    /// names the row it shows), or as a glob.
    public static func matches(_ pattern: String, _ name: String) -> Bool {
        pattern.hasSameCodePoints(as: name) || (pattern.unicodeScalars.contains(where: { "*?[".unicodeScalars.contains($0) }) && GlobPattern.matches(pattern, name))
    }

    /// Whether a pattern of `only` matches the request.
    func matchesOnly(_ pattern: String, _ request: RequestSpec) -> Bool {
        RequestSelection.matches(pattern, request.name) || RequestSelection.matches(pattern, request.displayName)
    }

    /// Whether the request is selected.
    public func selects(_ request: RequestSpec) -> Bool {
        let tagged = Set(request.tags.map(CodePointKey.init))
        return (only.isEmpty || only.contains { matchesOnly($0, request) })
            && (tags.isEmpty || tags.contains { tagged.contains(CodePointKey($0)) })
            && !skipTags.contains { tagged.contains(CodePointKey($0)) }
    }

    /// The patterns of `only` that match none of these requests.
    public func unmatchedPatterns(in requests: [RequestSpec]) -> [String] {
        only.filter { pattern in !requests.contains { matchesOnly(pattern, $0) } }
    }

    /// The first `--tag` or `--skip-tag` that none of these requests has, as its option writes it
    /// (`--tag smoke`), with the tags they have: most likely a typo, which would otherwise run
    /// nothing (or skip nothing) and pass.
    public func unknownTag(in requests: [RequestSpec]) -> (option: String, known: [String])? {
        let known = Set(requests.flatMap(\.tags).map(CodePointKey.init))
        let option = tags.first { !known.contains(CodePointKey($0)) }.map { "--tag \($0)" }
            ?? skipTags.first { !known.contains(CodePointKey($0)) }.map { "--skip-tag \($0)" }
        return option.map { ($0, known.map(\.text).sorted()) }
    }

    /// `OPTION: no request of PLACE has that tag (tags: a, b)`.
    public static func unknownTagMessage(_ unknown: (option: String, known: [String]), in place: String) -> String {
        "\(unknown.option): no request of \(place) has that tag " + (unknown.known.isEmpty ? "(no request has a tag)" : "(tags: \(unknown.known.joined(separator: ", ")))")
    }
}
