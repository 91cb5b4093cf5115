import Foundation
import Testing
@testable import SluiceCore

/// Bodies read as text in the charset they name, through the C library's iconv: expected bytes
/// are Python's codecs' encodings of the same text (`"你好".encode("gb2312")`).
@Suite("Text in any charset iconv knows")
struct TextDecodingTests {
    private struct Failure: Error, Equatable {
        var message: String
    }

    private func decode(_ hex: String, _ charset: String?) throws(Failure) -> String {
        let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
        return try TextDecoding.string(from: Data(bytes), charset: charset) { Failure(message: $0) }
    }

    @Test("charsets and their aliases, multi-byte and single-byte", arguments: [
        ("c4e3bac3", "gb2312", "你好"), ("c4e3bac3", "GB2312", "你好"), ("d3e1c7e3", "cp1256", "سلام"),
        ("d3e1c7e3", "windows-1256", "سلام"), ("82b182f182c982bf82cd", "shift_jis", "こんにちは"),
        ("4772fcdf65", "iso-8859-1", "Grüße"), ("4772fcdf65", "latin1", "Grüße"), ("f0d2c9d7c5d4", "koi8-r", "Привет"),
        ("476f", nil, "Go"), ("e282ac", "utf-8", "€"),
    ])
    func charsets(hex: String, charset: String?, text: String) throws {
        #expect(try decode(hex, charset).unicodeScalars.elementsEqual(text.unicodeScalars))
    }

    @Test("bytes not valid in the charset, and a charset iconv does not know, are errors that say which")
    func failures() {
        #expect(throws: Failure(message: "the body is not valid gb2312 (at byte 0)")) { try decode("ff", "gb2312") }
        #expect(throws: Failure(message: "the body is not valid UTF-8")) { try decode("c3", "utf-8") }
        #expect(throws: Failure(message: "the charset x-klingon is not one the system's iconv knows")) { try decode("41", "x-klingon") }
    }
}
