/// Percent-encoding (RFC 3986 section 2.1): each byte of the UTF-8 text outside a set kept as is
/// written as `%` and two uppercase hex digits.
package enum PercentEncoding {
    /// The bytes RFC 3986 calls unreserved: `A-Z a-z 0-9 - . _ ~`.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// `text` with every byte `keeps` refuses percent-encoded; a space as `+` when `spaceAsPlus`;
    /// with `keepingEscapes`, a valid escape (`%` and two hex digits) kept as written, so that
    /// encoding again changes nothing.
    package static func encode(_ text: String, spaceAsPlus: Bool = false, keepingEscapes: Bool = false, keeping keeps: (UInt8) -> Bool) -> String {
        let utf8 = text.utf8
        // Most keys, values and URLs need no escaping: the text itself, with nothing allocated
        // until the first byte that changes.
        var output: [UInt8]?
        var escapeBytesLeft = 0
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            var kept = escapeBytesLeft > 0 || keeps(byte)
            if escapeBytesLeft > 0 {
                escapeBytesLeft -= 1
            } else if !kept, keepingEscapes, byte == UInt8(ascii: "%"), startsEscape(utf8, at: index) {
                kept = true
                escapeBytesLeft = 2
            }
            if kept {
                output?.append(byte)
            } else {
                if output == nil {
                    output = Array(utf8[..<index])
                    output?.reserveCapacity(utf8.count + 16)
                }
                if byte == 0x20 && spaceAsPlus {
                    output?.append(UInt8(ascii: "+"))
                } else {
                    output?.append(contentsOf: [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
                }
            }
            index = utf8.index(after: index)
        }
        return output.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// Whether the `%` at `index` starts a valid escape: two hex digits follow it.
    private static func startsEscape(_ utf8: String.UTF8View, at index: String.Index) -> Bool {
        let digits = utf8[utf8.index(after: index)...].prefix(2)
        return digits.count == 2 && digits.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
