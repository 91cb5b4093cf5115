/// A parsed Hurl file: its entries in order, plus every comment written in it.
public struct HurlFile: Sendable, Hashable {
    /// The entries (a request and its optional expected response), in file order.
    public var entries: [HurlEntry]
    /// Every comment of the file, in file order.
    public var comments: [HurlComment]

    /// Creates a file from entries and comments.
    public init(entries: [HurlEntry], comments: [HurlComment] = []) {
        self.entries = entries
        self.comments = comments
    }

    /// Parses a Hurl file's text.
    ///
    /// Accepts LF and CRLF line endings and an optional UTF-8 byte order mark.
    /// - Throws: ``HurlSyntaxError`` at the first text that does not follow Hurl's grammar.
    public static func parse(_ text: String) throws(HurlSyntaxError) -> HurlFile {
        var parser = HurlParser(text: text)
        return try parser.parseFile()
    }
}
