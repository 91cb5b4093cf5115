import Foundation

/// Bytes to text in a charset named by `Content-Type`.
enum TextDecoding {
    /// The text of `data` in `charset` (UTF-8 when `nil`).
    /// - Throws: the error `failure` makes of a message, for an unknown charset or bytes that are
    ///   not valid in it.
    static func string<E: Error>(from data: Data, charset: String?, failure: (String) -> E) throws(E) -> String {
        let name = (charset ?? "utf-8").lowercased()
        if name == "utf-8" || name == "utf8" {
            guard let text = String(validating: data, as: UTF8.self) else {
                throw failure("the body is not valid UTF-8")
            }
            return text
        }
        guard let encoding = encodings[name] else {
            throw failure("the body's charset \(name) is not one Sluice decodes (\(encodings.keys.sorted().joined(separator: ", ")), utf-8)")
        }
        guard let text = String(data: data, encoding: encoding) else {
            throw failure("the body is not valid \(name)")
        }
        return text
    }

    private static let encodings: [String: String.Encoding] = [
        "us-ascii": .ascii, "ascii": .ascii, "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso-8859-2": .isoLatin2,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252, "windows-1250": .windowsCP1250,
        "windows-1251": .windowsCP1251, "utf-16": .utf16, "utf-16le": .utf16LittleEndian,
        "utf-16be": .utf16BigEndian, "utf-32": .utf32, "utf-32le": .utf32LittleEndian, "utf-32be": .utf32BigEndian,
        "shift_jis": .shiftJIS, "euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP,
    ]
}
