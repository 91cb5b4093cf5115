import Foundation

/// What a dry run (`sluice run --dry-run`, `sluice curl`) puts where a capture's value will go,
/// since only a run of the file gives it one: `<NAME>`.
///
/// In a URL the stages escape the angle brackets (`%3CNAME%3E`), as they escape any such byte a
/// value brings; the URL is shown with the placeholder as written, so that it reads as the
/// stand-in it is rather than as bytes that will be sent.
public enum CapturePlaceholder {
    /// The placeholder of the capture `name`.
    public static func text(for name: String) -> String {
        "<\(name)>"
    }

    /// `url`'s text with the placeholder of each of `names` as written, wherever the URL holds it
    /// escaped; everything else as the URL holds it.
    public static func shown(_ url: URL, names: some Sequence<String>) -> String {
        var shown = url.absoluteString
        for name in names {
            let placeholder = text(for: name)
            // Escaped as URL resolution escapes a path: the angle brackets, and any byte of the
            // name a path does not allow.
            guard let escaped = placeholder.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { continue }
            shown = shown.replacingOccurrences(of: escaped, with: placeholder)
        }
        return shown
    }
}
