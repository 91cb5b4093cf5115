internal import COpenSSL
import Foundation

/// A public-key file as curl's `--pinnedpubkey` takes one: PEM (`PUBLIC KEY` blocks) or DER, a
/// SubjectPublicKeyInfo each, read as the SHA-256 its `sha256//` pin would name.
enum PublicKeyFile {
    /// The SHA-256 of each SubjectPublicKeyInfo in `data`, or `nil` when `data` is not a public-key
    /// file (a certificate file, say).
    /// - Throws: `InvalidCertificate` for a `PUBLIC KEY` block that is not a key.
    static func hashes(in data: Data) throws(X509Certificate.InvalidCertificate) -> [[UInt8]]? {
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") else {
            return isKey(Array(data)) ? [SHA256.digest(Array(data))] : nil
        }
        var hashes: [[UInt8]] = []
        var rest = Substring(text)
        while let begin = rest.range(of: "-----BEGIN PUBLIC KEY-----") {
            guard let end = rest.range(of: "-----END PUBLIC KEY-----", range: begin.upperBound..<rest.endIndex) else {
                throw X509Certificate.InvalidCertificate(reason: "a PEM PUBLIC KEY block has no END line")
            }
            let base64 = rest[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(base64)), isKey(Array(der)) else {
                throw X509Certificate.InvalidCertificate(reason: "a PEM PUBLIC KEY block is not a public key")
            }
            hashes.append(SHA256.digest(Array(der)))
            rest = rest[end.upperBound...]
        }
        if !hashes.isEmpty, text.contains("-----BEGIN CERTIFICATE-----") {
            throw X509Certificate.InvalidCertificate(reason: "it holds PUBLIC KEY and CERTIFICATE blocks both; give a file of one kind, so that no pin is left out")
        }
        return hashes.isEmpty ? nil : hashes
    }

    /// Whether `der` is exactly one SubjectPublicKeyInfo OpenSSL reads.
    private static func isKey(_ der: [UInt8]) -> Bool {
        der.withUnsafeBufferPointer { sluice_spki_is_valid($0.baseAddress, $0.count) == 1 }
    }
}
