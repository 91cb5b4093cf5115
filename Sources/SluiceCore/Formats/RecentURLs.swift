import Foundation

/// Foundation's URLs for the texts parsed lately, found by the text compared code point by code
/// point.
///
/// A client sends the same few URLs again and again (a load run, a poll, an API's endpoints with
/// the same parameters), and Foundation's parser costs a microsecond or more a URL where a lookup
/// costs a hash. Parsing is a function of the text alone, so a remembered URL is the one the
/// parser would make again. ``URLText`` and ``Serialization`` parse through it.
enum RecentURLs {
    /// The most texts remembered; past it the memory starts over, so a run of ever new URLs pays
    /// a hash and an insertion a URL, and holds no more than this many.
    static let limit = 256

    private static let urls = Locked<[CodePointKey: URL]>([:])

    /// `URL(string: text)`, remembered.
    static func url(_ text: String) -> URL? {
        let key = CodePointKey(text)
        if let url = urls.withLock({ $0[key] }) { return url }
        guard let url = URL(string: text) else { return nil }
        urls.withLock { urls in
            if urls.count >= limit { urls.removeAll(keepingCapacity: true) }
            urls[key] = url
        }
        return url
    }
}
