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
    ///
    /// Most keys, values and URLs need no escaping: they come back as they are, and nothing is
    /// allocated. Otherwise the bytes are read twice, once to size the result and once to write
    /// it, so that the result is the one allocation.
    package static func encode(_ text: String, spaceAsPlus: Bool = false, keepingEscapes: Bool = false, keeping keeps: (UInt8) -> Bool) -> String {
        var text = text
        text.makeContiguousUTF8()
        let encoded = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            var length = 0
            var changes = false
            forEachByte(of: bytes, keepingEscapes: keepingEscapes, keeping: keeps) { kept, byte in
                length += kept || (byte == 0x20 && spaceAsPlus) ? 1 : 3
                changes = changes || !kept
            }
            guard changes else { return nil }
            return String(unsafeUninitializedCapacity: length) { output in
                var count = 0
                forEachByte(of: bytes, keepingEscapes: keepingEscapes, keeping: keeps) { kept, byte in
                    if kept {
                        output[count] = byte
                        count += 1
                    } else if byte == 0x20 && spaceAsPlus {
                        output[count] = UInt8(ascii: "+")
                        count += 1
                    } else {
                        output[count] = UInt8(ascii: "%")
                        output[count + 1] = hexDigits[Int(byte >> 4)]
                        output[count + 2] = hexDigits[Int(byte & 0x0F)]
                        count += 3
                    }
                }
                return count
            }
        }
        guard let encoded else { preconditionFailure("a contiguous string gives its UTF-8 bytes") }
        return encoded ?? text
    }

    /// Calls `body` with each byte and whether it is kept as written: the ones `keeps` accepts,
    /// and with `keepingEscapes` each `%` that starts a valid escape (two hex digits follow it)
    /// and its digits.
    private static func forEachByte(
        of bytes: UnsafeBufferPointer<UInt8>, keepingEscapes: Bool, keeping keeps: (UInt8) -> Bool, _ body: (_ kept: Bool, _ byte: UInt8) -> Void
    ) {
        var escapeBytesLeft = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if escapeBytesLeft > 0 {
                escapeBytesLeft -= 1
                body(true, byte)
            } else if keeps(byte) {
                body(true, byte)
            } else if keepingEscapes, byte == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1].isASCIIHexDigit,
                bytes[index + 2].isASCIIHexDigit
            {
                escapeBytesLeft = 2
                body(true, byte)
            } else {
                body(false, byte)
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
