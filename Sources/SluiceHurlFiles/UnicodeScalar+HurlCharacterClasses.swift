/// Character classes of Hurl's lexical grammar.
extension Unicode.Scalar {
    /// A space or a tab (`sp` in the grammar).
    var isHurlSpace: Bool { self == " " || self == "\t" }

    /// A line feed.
    var isHurlNewline: Bool { self == "\n" }

    /// An ASCII digit.
    var isHurlDigit: Bool { ("0"..."9").contains(self) }

    /// An ASCII hexadecimal digit.
    var isHurlHexDigit: Bool { isHurlDigit || ("a"..."f").contains(self) || ("A"..."F").contains(self) }

    /// An ASCII letter.
    var isHurlLetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }

    /// An ASCII uppercase letter.
    var isHurlUppercaseLetter: Bool { ("A"..."Z").contains(self) }

    /// An ASCII lowercase letter.
    var isHurlLowercaseLetter: Bool { ("a"..."z").contains(self) }

    /// A letter or digit of any script.
    var isHurlAlphanumeric: Bool {
        properties.isAlphabetic || properties.numericType != nil
    }

    /// A character of a keyword (query, filter, predicate or function name).
    var isHurlKeywordCharacter: Bool { isHurlLetter || isHurlDigit }

    /// A character of a variable name after the first one.
    var isHurlVariableNameCharacter: Bool { isHurlLetter || isHurlDigit || self == "_" || self == "-" }

    /// A character of an option name.
    var isHurlOptionNameCharacter: Bool {
        isHurlLowercaseLetter || isHurlDigit || self == "-" || self == "." || self == "_"
    }

    /// A character of a key that needs no escaping.
    var isHurlKeyCharacter: Bool {
        isHurlAlphanumeric || "_-.[]@$".unicodeScalars.contains(self)
    }
}
