extension HTTPHeaders {
    /// Why a header field cannot be sent as it is, `nil` when it can: its name must be a token
    /// (RFC 9110 section 5.6.2: letters, digits and !#$%&'*+-.^_`|~), and its value may hold no
    /// control character but a tab (section 5.5). A name with a tab or a `(` in it, or a value
    /// with a NUL or an escape, is read one way by one server and another way by the next (the
    /// ambiguity request smuggling lives on), so it is refused before anything is sent; bytes
    /// past ASCII in a value (UTF-8 text) are obs-text, and go as they are, as curl sends them.
    public static func problem(ofField name: String, value: String) -> String? {
        if name.isEmpty { return "a field name cannot be empty" }
        if let byte = name.utf8.first(where: { !$0.isTokenCharacter }) {
            return "its name holds \(shown(byte)), and a field name is a token (letters, digits and !#$%&'*+-.^_`|~; RFC 9110 section 5.6.2)"
        }
        if let byte = value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return "its value holds \(shown(byte)), and a field value holds no control character but a tab (RFC 9110 section 5.5)"
        }
        return nil
    }

    /// A byte as a message names it: `'('` for a visible ASCII character, else `byte 0x01`; for
    /// the field checks here and a cookie's (``Request/cookieProblem(name:value:)``).
    static func shown(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }
}
