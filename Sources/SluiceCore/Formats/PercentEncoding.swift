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

    /// `text` with every byte `keeps` refuses percent-encoded; a space as `+` when `spaceAsPlus`.
    package static func encode(_ text: String, spaceAsPlus: Bool = false, keeping keeps: (UInt8) -> Bool) -> String {
        // Most keys and values need no escaping: the text itself, with nothing allocated.
        if text.utf8.allSatisfy(keeps) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if keeps(byte) {
                output.append(byte)
            } else if byte == 0x20 && spaceAsPlus {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
