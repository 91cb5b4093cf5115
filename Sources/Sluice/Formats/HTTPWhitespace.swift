extension Substring {
    /// The text without the spaces and horizontal tabs (HTTP's optional whitespace, RFC 9110
    /// section 5.6.3) at either end; other characters, Unicode spaces included, are kept.
    func trimmingHTTPWhitespace() -> Substring {
        func isWhitespace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = utf8.firstIndex(where: { !isWhitespace($0) }), let last = utf8.lastIndex(where: { !isWhitespace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
