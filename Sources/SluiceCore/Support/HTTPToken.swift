extension UInt8 {
    /// Whether the byte is a `tchar` of RFC 9110 section 5.6.2, what tokens (methods, field
    /// names, authentication schemes and parameters) are made of: a letter, a digit or one of
    /// !#$%&'*+-.^_`|~.
    var isTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(self)
        }
    }
}
