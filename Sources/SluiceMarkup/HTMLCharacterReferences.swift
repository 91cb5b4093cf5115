import CLibXML2
import Foundation

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

    /// `text` with every reference it holds replaced by its character; a named reference that
    /// names no character (`&bogus;`) stays as written. A numeric reference is read as the HTML
    /// Standard's tokenizer reads it (and Python's `html.unescape`, which Hurl's `htmlUnescape`
    /// follows): it may end without its `;` (`&#65 foo`); `&#0;`, a surrogate and a number past
    /// U+10FFFF are U+FFFD; `&#x80;` to `&#x9F;` are the Windows-1252 characters those bytes
    /// stand for (`&#x80;` is `€`); and another control or a noncharacter gives nothing, so that
    /// no reference can put a NUL or an escape character into the text. Named references need
    /// their `;`, where Python's also reads HTML's legacy names without one (`&amp` alone).
    public static func unescape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "&", let (characters, next) = reference(in: scalars, at: index) else {
                result.append(scalars[index])
                index += 1
                continue
            }
            result.append(contentsOf: characters)
            index = next
        }
        return String(result)
    }

    /// What the reference starting at `start` (an `&`) stands for (no character, one, or
    /// several) and the index after it.
    private static func reference(in scalars: [Unicode.Scalar], at start: Int) -> ([Unicode.Scalar], Int)? {
        guard start + 2 < scalars.count, scalars[start + 1] == "#" else {
            guard let end = scalars[start...].prefix(40).firstIndex(of: ";"),
                let character = character(named: String(String.UnicodeScalarView(scalars[(start + 1)..<end])))
            else { return nil }
            return ([character], end + 1)
        }
        let isHex = scalars[start + 2] == "x" || scalars[start + 2] == "X"
        let digitsStart = start + (isHex ? 3 : 2)
        var end = digitsStart
        // Every digit is read, however many: a number too large is past U+10FFFF all the same.
        var value: UInt32 = 0
        while end < scalars.count, let digit = digit(scalars[end], hex: isHex) {
            value = min(value * (isHex ? 16 : 10) + digit, 0x11_0000)
            end += 1
        }
        guard end > digitsStart else { return nil }
        if end < scalars.count, scalars[end] == ";" { end += 1 }
        return (numbered(value), end)
    }

    private static func digit(_ scalar: Unicode.Scalar, hex: Bool) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f" where hex: scalar.value - 0x61 + 10
        case "A"..."F" where hex: scalar.value - 0x41 + 10
        default: nil
        }
    }

    /// The characters of a numeric reference to `value` (at most 0x110000, which stands for any
    /// number past U+10FFFF), as the HTML Standard's "numeric character reference end state"
    /// gives them, controls and noncharacters left out as Python's `html.unescape` leaves them.
    private static func numbered(_ value: UInt32) -> [Unicode.Scalar] {
        switch value {
        case 0, 0xD800...0xDFFF, 0x11_0000...:
            return ["\u{FFFD}"]
        case 0x0D:
            return ["\r"]
        case 0x80...0x9F:
            // The byte's Windows-1252 character, from Foundation's table; the five bytes it leaves
            // undefined stand for themselves.
            let decoded = String(data: Data([UInt8(value)]), encoding: .windowsCP1252)?.unicodeScalars.first
            return [decoded ?? Unicode.Scalar(UInt8(value))]
        case 0x01...0x08, 0x0B, 0x0E...0x1F, 0x7F, 0xFDD0...0xFDEF:
            return []
        case _ where value & 0xFFFE == 0xFFFE:
            return []
        default:
            return Unicode.Scalar(value).map { [$0] } ?? ["\u{FFFD}"]
        }
    }

    /// The character a reference's name (between `&` and `;`) stands for.
    private static func character(named name: String) -> Unicode.Scalar? {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) }),
            let entity = htmlEntityLookup(name)
        else { return nil }
        return Unicode.Scalar(entity.pointee.value)
    }
}
