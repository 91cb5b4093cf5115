extension UInt8 {
    /// Whether the byte is an ASCII letter, `A`–`Z` or `a`–`z`.
    package var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    /// Whether the byte is an ASCII digit, `0`–`9`.
    package var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
    /// Whether the byte is an ASCII hex digit, `0`–`9`, `A`–`F` or `a`–`f`.
    package var isASCIIHexDigit: Bool { isASCIIDigit || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
