import Foundation
import SluiceCore

/// Replaces secrets with `***` in anything the runner prints: text, JSON, verbose lines,
/// reports and curl commands.
///
/// It knows the secret values themselves and hides each in every form it is written in on the way
/// out: as it is; percent-encoded, whichever of its bytes are encoded and with either case of hex
/// digit (a URL keeps the reserved characters, a parameter encodes them, a server that echoes a
/// query may encode a third set: `a%20b/c`, `a%20b%2Fc`, `a+b%2fc` are all read back to the
/// secret, a space as `+` too); escaped inside a JSON string, whichever of its characters are
/// escaped and however (`\"`, `\/`, `\u00f6` or `\u00F6`, a surrogate pair: a server may escape
/// every character outside ASCII, as Python's `json` does); and in base64 and base64url, as the
/// template functions write it.
/// Matching is on UTF-8 bytes, so a secret followed by a combining mark, which `String.contains`
/// would not find inside the larger character, is hidden too. A secret under 4 bytes (a test
/// password such as `p`) is hidden only where it stands alone, not inside a word, a number or a
/// host name: replaced everywhere, it would mangle the output and show itself by where the `***`
/// fall (`htt***://`). The longest form is replaced first,
/// so a secret that contains another is hidden whole. It hides the credentials of `Authorization`
/// and `Proxy-Authorization` headers whatever they hold, keeping the scheme: `Bearer ***`.
public struct Redactor: Sendable {
    // The flag last: 17 bytes in all, so that a `RunInfo`, which the runner stores in every task,
    // fits in an existential's inline room and takes no box of its own.
    /// The secrets, longest first.
    public let secrets: [String]
    /// The UTF-8 bytes of the forms of every secret that are not its bytes with some of them
    /// percent-encoded or JSON-escaped (base64, base64url), longest first; those two are matched
    /// byte by byte against ``secrets``.
    private let forms: [[UInt8]]
    /// Whether credential headers are hidden whole.
    public let hidesCredentials: Bool

    /// A redactor that hides nothing, for `--show-secrets`.
    public static let none = Redactor(secrets: [], hidesCredentials: false)

    /// Creates a redactor for these values; empty ones are ignored.
    public init(secrets: [String], hidesCredentials: Bool = true) {
        let unique = Set(secrets.filter { !$0.isEmpty }.map(CodePointKey.init)).map(\.text)
        self.secrets = unique.sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0.utf8.lexicographicallyPrecedes($1.utf8) }
        self.hidesCredentials = hidesCredentials
        forms = Set(unique.flatMap(Redactor.writtenForms)).sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
    }

    /// This redactor with more secrets: values found at run time, such as a capture that holds one.
    public func adding(_ more: [String]) -> Redactor {
        more.isEmpty ? self : Redactor(secrets: secrets + more, hidesCredentials: hidesCredentials)
    }

    /// Whether `text`, 4 bytes or longer, is a piece of a secret as it is: a capture that took
    /// part of an echoed key (a `split`, a regular expression's group) shows that part.
    public func isPieceOfSecret(_ text: String) -> Bool {
        // Nothing made for a run with no secret: every capture of every request asks.
        guard !secrets.isEmpty, text.utf8.count >= Redactor.shortSecretBytes else { return false }
        let piece = Array(text.utf8)
        return secrets.contains { $0.utf8.count >= piece.count && Array($0.utf8).firstRange(of: piece) != nil }
    }

    /// Whether `text` shows a secret in any of its forms.
    public func reveals(_ text: String) -> Bool {
        !secrets.isEmpty && firstMatch(in: Array(text.utf8), from: 0) != nil
    }

    /// The text with every secret, in every form, replaced by `***`.
    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty, let output = redacted(Array(text.utf8)) else { return text }
        return String(decoding: output, as: UTF8.self)
    }

    /// Bytes that need not be text (a binary body shown as base64) with every secret, in every
    /// form, replaced by `***`.
    public func redact(_ data: Data) -> Data {
        guard !secrets.isEmpty, let output = redacted(Array(data)) else { return data }
        return Data(output)
    }

    /// `bytes` with every secret replaced; `nil` when none is there.
    private func redacted(_ bytes: [UInt8]) -> [UInt8]? {
        guard var match = firstMatch(in: bytes, from: 0) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        while true {
            output += bytes[position..<match.start]
            output += Redactor.mask
            position = match.start + match.length
            guard let next = firstMatch(in: bytes, from: position) else { break }
            match = next
        }
        output += bytes[position...]
        return output
    }

    /// A header's value as it may be shown: credentials hidden, secrets replaced.
    public func redact(header name: String, value: String) -> String {
        guard hidesCredentials, ["authorization", "proxy-authorization"].contains(name.lowercased()) else {
            return redact(value)
        }
        guard let space = value.firstIndex(of: " ") else { return "***" }
        return value[..<space] + " ***"
    }

    private static let mask = Array("***".utf8)

    /// The first place at or after `start` where a form begins, the longest form there.
    private func firstMatch(in bytes: [UInt8], from start: Int) -> (start: Int, length: Int)? {
        var index = start
        while index < bytes.count {
            var longest = 0
            for form in forms where form.count > longest && form.count <= bytes.count - index && bytes[index] == form[0] {
                if bytes[index..<index + form.count].elementsEqual(form) { longest = form.count }
            }
            for secret in secrets {
                var found = 0
                if let length = Redactor.encodedLength(of: secret, in: bytes, at: index), length > found { found = length }
                if bytes[index] == UInt8(ascii: "\\") || bytes[index] == secret.utf8.first,
                    let length = Redactor.jsonEscapedLength(of: secret, in: bytes, at: index), length > found
                {
                    found = length
                }
                guard found > longest else { continue }
                if secret.utf8.count >= Redactor.shortSecretBytes || Redactor.standsAlone(bytes, index, found) { longest = found }
            }
            if longest > 0 { return (index, longest) }
            index += 1
        }
        return nil
    }

    /// Secrets shorter than this (a test password such as `p`) are hidden only where they stand
    /// alone: hiding every `p` in `http` would mangle the output and give the secret away by
    /// where the `***` fall.
    static let shortSecretBytes = 4

    /// Whether the bytes `start..<start + length` stand alone: no letter, digit, `.`, `-` or
    /// `_` just before or just after them, so not inside a word, a number or a host name.
    private static func standsAlone(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Bool {
        func joins(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte >= 0x80
        }
        let end = start + length
        return (start == 0 || !joins(bytes[start - 1])) && (end == bytes.count || !joins(bytes[end]))
    }

    /// How many bytes of `bytes` from `index` spell `secret` with any of its bytes
    /// percent-encoded (`%2F` or `%2f`) and a space as `+`, or as it is; `nil` when they do not.
    private static func encodedLength(of secret: String, in bytes: [UInt8], at index: Int) -> Int? {
        var secretBytes = secret.utf8[...]
        return encodedLength(of: &secretBytes, in: bytes, at: index).map { $0 - index }
    }

    /// Where the spelling of `secret` that starts at `position` ends. Only a `%` of the secret's
    /// own can be read two ways (as itself, or `%25`), and both are tried.
    private static func encodedLength(of secret: inout Substring.UTF8View, in bytes: [UInt8], at start: Int) -> Int? {
        var position = start
        while let byte = secret.first {
            guard position < bytes.count else { return nil }
            let decoded: UInt8? =
                if bytes[position] == UInt8(ascii: "%"), position + 2 < bytes.count, let high = HexText.value(of: bytes[position + 1]), let low = HexText.value(of: bytes[position + 2]) {
                    high << 4 | low
                } else {
                    nil
                }
            secret.removeFirst()
            if bytes[position] == byte, decoded == byte {
                var rest = secret
                if let end = encodedLength(of: &rest, in: bytes, at: position + 3) { return end }
                position += 1
            } else if bytes[position] == byte || (byte == UInt8(ascii: " ") && bytes[position] == UInt8(ascii: "+")) {
                position += 1
            } else if decoded == byte {
                position += 3
            } else {
                return nil
            }
        }
        return position
    }

    /// How many bytes of `bytes` from `start` spell `secret` inside a JSON string with at least
    /// one of its characters escaped (`\"`, `\\`, `\/`, `\n`, `\u00f6` in either case, a
    /// surrogate pair for a character past U+FFFF); `nil` when they do not. The secret as it is
    /// is ``encodedLength(of:in:at:)``'s to find.
    private static func jsonEscapedLength(of secret: String, in bytes: [UInt8], at start: Int) -> Int? {
        var position = start
        var escaped = false
        for scalar in secret.unicodeScalars {
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: "\\"), let (decoded, length) = jsonEscape(in: bytes, at: position), decoded == scalar {
                position += length
                escaped = true
                continue
            }
            for byte in String(scalar).utf8 {
                guard position < bytes.count, bytes[position] == byte else { return nil }
                position += 1
            }
        }
        return escaped ? position - start : nil
    }

    /// The character a JSON escape at `start` (its backslash) stands for, and its length in bytes.
    private static func jsonEscape(in bytes: [UInt8], at start: Int) -> (Unicode.Scalar, Int)? {
        guard start + 1 < bytes.count else { return nil }
        switch bytes[start + 1] {
        case UInt8(ascii: "\""): return ("\"", 2)
        case UInt8(ascii: "\\"): return ("\\", 2)
        case UInt8(ascii: "/"): return ("/", 2)
        case UInt8(ascii: "b"): return ("\u{08}", 2)
        case UInt8(ascii: "f"): return ("\u{0C}", 2)
        case UInt8(ascii: "n"): return ("\n", 2)
        case UInt8(ascii: "r"): return ("\r", 2)
        case UInt8(ascii: "t"): return ("\t", 2)
        case UInt8(ascii: "u"):
            guard let unit = codeUnit(in: bytes, at: start + 2) else { return nil }
            if (0xD800..<0xDC00).contains(unit) {
                guard start + 11 < bytes.count, bytes[start + 6] == UInt8(ascii: "\\"), bytes[start + 7] == UInt8(ascii: "u"),
                    let low = codeUnit(in: bytes, at: start + 8), (0xDC00..<0xE000).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                else { return nil }
                return (scalar, 12)
            }
            return Unicode.Scalar(unit).map { ($0, 6) }
        default: return nil
        }
    }

    /// The four hex digits at `start`, either case, as a UTF-16 code unit.
    private static func codeUnit(in bytes: [UInt8], at start: Int) -> UInt32? {
        guard start + 3 < bytes.count else { return nil }
        var unit: UInt32 = 0
        for byte in bytes[start..<start + 4] {
            guard let digit = HexText.value(of: byte) else { return nil }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    /// The forms of a secret that neither percent-decoding nor JSON's escapes read back to it:
    /// base64 and base64url, as `${base64(NAME)}` and `${base64url(NAME)}` write it
    /// (`${urlencode(NAME)}` decodes back).
    private static func writtenForms(of secret: String) -> [[UInt8]] {
        let base64 = Data(secret.utf8).base64EncodedString()
        return [base64, Base64URL.encode(Data(secret.utf8))].filter { !$0.isEmpty }.map { Array($0.utf8) }
    }
}
