import Foundation

/// Foundation's URLs for the texts parsed lately.
///
/// A client sends the same few URLs again and again (a load run, a poll, an API's endpoints with
/// the same parameters), and Foundation's parser costs a microsecond or more a URL where a lookup
/// costs a hash. Parsing is a function of the text alone, so a remembered URL is the one the
/// parser would make again. ``URLText`` and ``Serialization`` parse through it.
enum RecentURLs {
    /// The most texts remembered (``RecentTexts``).
    static let limit = 256

    private static let urls = RecentTexts<URL>(limit: limit)

    /// `URL(string: text)`, remembered.
    static func url(_ text: String) -> URL? {
        let key = CodePointKey(text)
        if let url = urls.value(for: key) { return url }
        guard let url = URL(string: text) else { return nil }
        urls.remember(url, for: key)
        return url
    }
}
