/// Whether a byte is HTTP's optional whitespace (RFC 9110 section 5.6.3) or RFC 6265's WSP: a
/// space or a horizontal tab.
func isHTTPWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

extension Substring {
    /// The text without the spaces and horizontal tabs (HTTP's optional whitespace, RFC 9110
    /// section 5.6.3) at either end; other characters, Unicode spaces included, are kept.
    func trimmingHTTPWhitespace() -> Substring {
        guard let first = utf8.firstIndex(where: { !isHTTPWhitespace($0) }), let last = utf8.lastIndex(where: { !isHTTPWhitespace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

extension ArraySlice<UInt8> {
    /// The bytes without spaces and horizontal tabs at either end.
    func trimmingHTTPWhitespace() -> ArraySlice<UInt8> {
        guard let first = firstIndex(where: { !isHTTPWhitespace($0) }), let last = lastIndex(where: { !isHTTPWhitespace($0) }) else { return [] }
        return self[first...last]
    }
}
