import Foundation
import SluiceCore
import SluicePipelineFiles

/// What a dry run (`sluice run --dry-run`, `sluice curl`) puts where a capture's value will go,
/// since only a run of the file gives it one: `<NAME>`, and `<base64(NAME)>` for a function of
/// one (`VariableScope.standIn(for:)`).
///
/// In a URL the stages escape the angle brackets (`%3CNAME%3E`), as they escape any such byte a
/// value brings; the URL is shown with the placeholder as written, so that it reads as the
/// stand-in it is rather than as bytes that will be sent. A placeholder cannot stand in a URL's
/// host, where no escape is allowed: there a token that can (``hostToken(for:)``) is parsed in
/// its place, and shown as the placeholder all the same.
public enum CapturePlaceholder {
    /// The placeholder of the capture `name`.
    public static func text(for name: String) -> String {
        VariableScope.standIn(for: name)
    }

    /// What stands for the capture `name` in a URL's host while the URL is parsed: a DNS label
    /// of lower-case letters, digits and hyphens (`sluice-capture-686f7374` for `host`).
    public static func hostToken(for name: String) -> String {
        "sluice-capture-" + name.utf8.map { String(format: "%02x", $0) }.joined()
    }

    /// `url`'s text with each placeholder of `names` as written: where the URL holds it escaped,
    /// a function of one (`%3Cbase64(token)%3E`) included, and where a host token stands for it.
    /// Everything else as the URL holds it: an escape the user wrote stays as written.
    public static func shown(_ url: URL, names: some Sequence<String>) -> String {
        let names = Set(names)
        var shown = url.absoluteString
        for name in names {
            shown = shown.replacingCodePoints(of: hostToken(for: name), with: text(for: name))
        }
        var result = ""
        var rest = Substring(shown)
        while let open = rest.range(of: "%3C"), let close = rest[open.upperBound...].range(of: "%3E") {
            result += rest[..<open.lowerBound]
            let inner = String(rest[open.upperBound..<close.lowerBound]).removingPercentEncoding ?? ""
            result += standsIn(inner, names: names) ? text(for: inner) : String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// Whether `expression` is one of `names`, or a call of a function of one.
    private static func standsIn(_ expression: String, names: Set<String>) -> Bool {
        if names.contains(expression) { return true }
        guard let template = try? TemplateString(parsing: "${\(expression)}"), template.parts.count == 1,
            case .function(let function) = template.parts[0]
        else { return false }
        return function.refers(toAnyOf: names)
    }
}
