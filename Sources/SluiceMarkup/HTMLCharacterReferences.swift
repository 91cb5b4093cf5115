import CLibXML2

/// HTML's character references: `&amp;`, `&eacute;`, `&#233;`, `&#xE9;`. Named references are
/// looked up in libxml2's table of HTML 4's entities, not in one of Sluice's own.
public enum HTMLCharacterReferences {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as references, for an element's text or an
    /// attribute's value.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#x27;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `text` with every reference it holds replaced by its character; a reference that names no
    /// character (`&bogus;`, `&#xD800;`) stays as written. A numeric reference may end without
    /// its `;` (`&#65 foo`), as HTML reads it.
    public static func unescape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "&", let (character, next) = reference(in: scalars, at: index) else {
                result.append(scalars[index])
                index += 1
                continue
            }
            result.append(character)
            index = next
        }
        return String(result)
    }

    /// The character of the reference starting at `start` (an `&`) and the index after it.
    private static func reference(in scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        if let end = scalars[start...].prefix(40).firstIndex(of: ";"),
            let character = character(named: String(String.UnicodeScalarView(scalars[(start + 1)..<end])))
        {
            return (character, end + 1)
        }
        guard start + 2 < scalars.count, scalars[start + 1] == "#" else { return nil }
        let isHex = scalars[start + 2] == "x" || scalars[start + 2] == "X"
        let digitsStart = start + (isHex ? 3 : 2)
        var end = digitsStart
        while end < scalars.count, end - digitsStart < 8, isHex ? scalars[end].properties.isASCIIHexDigit : ("0"..."9").contains(scalars[end]) {
            end += 1
        }
        guard end > digitsStart, let value = UInt32(String(String.UnicodeScalarView(scalars[digitsStart..<end])), radix: isHex ? 16 : 10),
            let character = Unicode.Scalar(value)
        else { return nil }
        return (character, end)
    }

    /// The character a reference's name (between `&` and `;`) stands for.
    private static func character(named name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        }
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) }),
            let entity = htmlEntityLookup(name)
        else { return nil }
        return Unicode.Scalar(entity.pointee.value)
    }
}
