import Foundation
import Testing
@testable import SluiceCore

/// Hex text read strictly and written in lower case.
@Suite("Hex text: two digits a byte, nothing else")
struct HexTextTests {
    @Test("digits of either case read; a sign, a space, another letter or an odd count is no hex text", arguments: [
        ("A1b2", [0xA1, 0xB2] as [UInt8]?),
        ("", []),
        ("00ff", [0x00, 0xFF]),
        ("+f", nil),
        ("-1", nil),
        (" a", nil),
        ("0g", nil),
        ("abc", nil),
        ("0x12", nil),
    ])
    func reading(text: String, bytes: [UInt8]?) {
        #expect(HexText.bytes(text).map(Array.init) == bytes)
    }

    @Test("written in lower case, two digits a byte, and read back")
    func roundTrip() {
        let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xAB, 0xFF]
        #expect(HexText.lowercase(bytes) == "00017f80abff")
        #expect(HexText.bytes(HexText.lowercase(bytes)).map(Array.init) == bytes)
    }
}
