import Foundation
import SluiceCore

/// Replaces secrets with `***` in anything the runner prints: text, JSON, verbose lines,
/// reports and curl commands.
///
/// It knows the secret values themselves and hides each in every form it is written in on the way
/// out: as it is; percent-encoded as a URL writes it (a capture sent in a path or a query: `a b/c`
/// as `a%20b/c`, every reserved character kept) or as a parameter is (`a%20b%2Fc`), with either
/// case of hex digit; form-encoded (`a+b%2Fc`); escaped inside a JSON string; and in base64 and
/// base64url, as the template functions write it.
/// Matching is on UTF-8 bytes, so a secret followed by a combining mark, which `String.contains`
/// would not find inside the larger character, is hidden too. The longest form is replaced first,
/// so a secret that contains another is hidden whole. It hides the credentials of `Authorization`
/// and `Proxy-Authorization` headers whatever they hold, keeping the scheme: `Bearer ***`.
public struct Redactor: Sendable {
    // The flag last: 17 bytes in all, so that a `RunInfo`, which the runner stores in every task,
    // fits in an existential's inline room and takes no box of its own.
    /// The secrets, longest first.
    public let secrets: [String]
    /// The UTF-8 bytes of every written form of every secret, longest first.
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

    /// Whether `text` shows a secret in any of its forms.
    public func reveals(_ text: String) -> Bool {
        !forms.isEmpty && firstMatch(in: Array(text.utf8), from: 0) != nil
    }

    /// The text with every secret, in every form, replaced by `***`.
    public func redact(_ text: String) -> String {
        guard !forms.isEmpty else { return text }
        let bytes = Array(text.utf8)
        guard var match = firstMatch(in: bytes, from: 0) else { return text }
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
        return String(decoding: output, as: UTF8.self)
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
            for form in forms where form.count <= bytes.count - index && bytes[index] == form[0] {
                if bytes[index..<index + form.count].elementsEqual(form) { return (index, form.count) }
            }
            index += 1
        }
        return nil
    }

    /// A secret as it is; percent-encoded as a parameter (unreserved bytes kept), as a form value
    /// and as a URL writes an invalid character (every reserved byte kept, `%` kept or not), each
    /// with both cases of hex digit; and as the inside of a JSON string.
    private static func writtenForms(of secret: String) -> [[UInt8]] {
        let encodings = [
            PercentEncoding.encode(secret, keeping: PercentEncoding.isUnreserved),
            PercentEncoding.encode(secret, spaceAsPlus: true, keeping: PercentEncoding.isUnreserved),
            PercentEncoding.encode(secret) { PercentEncoding.isUnreserved($0) || reserved.contains($0) },
            PercentEncoding.encode(secret) { PercentEncoding.isUnreserved($0) || reserved.contains($0) || $0 == UInt8(ascii: "%") },
        ]
        var forms = [secret] + encodings + encodings.map(lowercasingEscapes)
        if let json = try? JSONWriter().string(from: .string(secret)) {
            forms.append(String(json.dropFirst().dropLast()))
        }
        // As `${base64(NAME)}` and `${base64url(NAME)}` write it (`${urlencode(NAME)}` is above).
        let base64 = Data(secret.utf8).base64EncodedString()
        forms += [base64, Base64URL.encode(Data(secret.utf8))]
        return forms.filter { !$0.isEmpty }.map { Array($0.utf8) }
    }

    /// RFC 3986's reserved characters (gen-delims and sub-delims), which a URL may hold as they are.
    private static let reserved = Set(":/?#[]@!$&'()*+,;=".utf8)

    /// `%2F` as `%2f`: servers and proxies echo either.
    private static func lowercasingEscapes(_ encoded: String) -> String {
        var bytes = Array(encoded.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count {
                for offset in 1...2 where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[index + offset]) {
                    bytes[index + offset] += 0x20
                }
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
