import Foundation
import Testing
@testable import SluiceCore

/// `JSONReader` against JSONTestSuite (Nicolas Seriot's parser tests, vendored whole in
/// `Tests/Fixtures/JSONTestSuite`): every `y_` file accepted, every `n_` file refused, every `i_`
/// file read or refused without a crash.
@Suite("JSONTestSuite")
struct JSONTestSuiteTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/JSONTestSuite/test_parsing")

    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()

    /// The outcome JSONReader's documentation promises for some `i_` files, which the suite leaves
    /// to the parser: a byte-order mark is skipped, a lone surrogate is refused, an integer past
    /// 64 bits keeps its digits, a number past `Double`'s range is refused.
    static let implementationDefined: [String: Bool] = [
        "i_structure_UTF-8_BOM_empty_object.json": true,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_lone_second_surrogate.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_number_very_big_negative_int.json": true,
        "i_number_huge_exp.json": false,
        "i_number_real_underflow.json": true,
    ]

    @Test("the suite is here whole: 318 files, 95 to accept, 188 to refuse, 35 either way")
    func suiteIsWhole() {
        #expect(Self.files.count == 318)
        #expect(Self.files.filter { $0.hasPrefix("y_") }.count == 95)
        #expect(Self.files.filter { $0.hasPrefix("n_") }.count == 188)
        #expect(Self.files.filter { $0.hasPrefix("i_") }.count == 35)
    }

    @Test("each file is accepted or refused as its name says", arguments: files)
    func file(_ name: String) throws {
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let accepted: Bool
        do {
            _ = try JSONReader().value(from: bytes)
            accepted = true
        } catch {
            accepted = false
        }
        if name.hasPrefix("y_") {
            #expect(accepted, "\(name) must be accepted")
        } else if name.hasPrefix("n_") {
            #expect(!accepted, "\(name) must be refused")
        } else if let expected = Self.implementationDefined[name] {
            #expect(accepted == expected, "\(name)")
        }
    }

    @Test("a string's text is its bytes when they are UTF-8, and nothing is taken for it when they are not")
    func stringText() throws {
        let text = try JSONReader().value(from: Data(#"["caf\u00e9", "café", "e\u0301", "\ud83d\ude00 😀"]"#.utf8))
        guard case .array(let values) = text else { Issue.record("not an array"); return }
        let strings = values.compactMap { value -> [UInt8]? in
            if case .string(let string) = value { return Array(string.utf8) }
            return nil
        }
        #expect(strings == [Array("café".utf8), Array("café".utf8), Array("e\u{301}".utf8), Array("😀 😀".utf8)])
        // A repair would hold U+FFFD where the bad bytes were: refused instead. The last repair is
        // as long as what it replaces (a cut four-byte sequence, then "A").
        let bad: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x61, 0xE2, 0x82], [0xF0, 0x90, 0x80, 0x41]]
        for bytes in bad {
            #expect(throws: JSONSyntaxError.self) { try JSONReader().value(from: [0x22] + bytes + [0x22]) }
            #expect(throws: SampleFailure.self) { try TextDecoding.string(from: Data(bytes), charset: nil) { SampleFailure(message: $0) } }
        }
        let decoded = try TextDecoding.string(from: Data("café 😀".utf8), charset: "UTF-8") { SampleFailure(message: $0) }
        #expect(Array(decoded.utf8) == Array("café 😀".utf8))
    }

    @Test("integers are read exactly on each side of the digits summed in place (18) and of Int's range")
    func integers() throws {
        let cases: [(String, JSONValue)] = [
            ("0", .int(0)), ("-0", .int(0)), ("7", .int(7)), ("-7", .int(-7)),
            ("999999999999999999", .int(999_999_999_999_999_999)), ("-999999999999999999", .int(-999_999_999_999_999_999)),
            ("1000000000000000000", .int(1_000_000_000_000_000_000)), ("9223372036854775807", .int(Int.max)),
            ("-9223372036854775808", .int(Int.min)), ("9223372036854775808", .bigInteger("9223372036854775808")),
        ]
        for (text, expected) in cases {
            #expect(try JSONReader().value(from: text) == expected, "\(text)")
        }
    }
}

private struct SampleFailure: Error {
    let message: String
}
