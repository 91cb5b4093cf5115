import Foundation

/// One pin of a trust policy: the SHA-256 of a public key, or a certificate.
public enum TrustPin: Sendable, Hashable, CustomStringConvertible {
    /// A `sha256//BASE64` pin: the SHA-256 of a SubjectPublicKeyInfo.
    case publicKeySHA256([UInt8])
    /// A certificate, read from a PEM or DER file.
    case certificate(X509Certificate)

    /// The public key hash this pin names.
    public var publicKeySHA256: [UInt8] {
        switch self {
        case .publicKeySHA256(let hash): hash
        case .certificate(let certificate): certificate.publicKeySHA256
        }
    }

    /// `sha256//BASE64`, with the subject for a certificate.
    public var description: String {
        switch self {
        case .publicKeySHA256(let hash): "sha256//" + Data(hash).base64EncodedString()
        case .certificate(let certificate): certificate.description
        }
    }

    /// Reads a pin as a pipeline writes it: `sha256//BASE64`, or the path of a PEM or DER
    /// certificate file (relative paths from `directory`), which may hold several certificates
    /// (backup pins), or of a PEM or DER public-key file, as curl's `--pinnedpubkey` reads one.
    /// - Throws: `.configuration` for an empty pin (an unset shell variable must not turn
    ///   pinning off), a malformed hash, an unreadable or malformed file, a file that mixes
    ///   public keys and certificates, or a certificate chain (a certificate with its issuer).
    public static func pins(from text: String, relativeTo directory: URL? = nil) throws(SluiceError) -> [TrustPin] {
        guard !text.isEmpty else {
            throw failure("a pin is empty: give sha256// and the base64 of 32 bytes, or the path of a PEM or DER file")
        }
        if text.hasPrefix("sha256//") {
            guard let hash = Data(base64Encoded: String(text.dropFirst(8))), hash.count == 32 else {
                throw failure("pin \(text) is not sha256// followed by the base64 of 32 bytes")
            }
            return [.publicKeySHA256(Array(hash))]
        }
        let url = text.hasPrefix("/") ? URL(fileURLWithPath: text) : URL(fileURLWithPath: text, relativeTo: directory)
        let data: Data
        do {
            data = try InputFile.data(at: url.path, role: "pin file")
        } catch {
            throw failure(error.description)
        }
        let certificates: [X509Certificate]
        do {
            // A public-key file, as curl's --pinnedpubkey takes one, pins its keys.
            if let hashes = try PublicKeyFile.hashes(in: data) { return hashes.map(TrustPin.publicKeySHA256) }
            certificates = try X509Certificate.certificates(in: data)
        } catch {
            throw failure("pin file \(url.path) is not a PEM or DER certificate or public key: \(error.reason)")
        }
        // A server's chain file (fullchain.pem) holds its CA too: pinning each of its certificates
        // would pin the CA, which accepts every certificate it issues, when one server was meant.
        for certificate in certificates where certificate.issuer != certificate.subject {
            if let issuer = certificates.first(where: { $0.subject == certificate.issuer && $0.der != certificate.der }) {
                throw failure(
                    "pin file \(url.path) is a certificate chain: it holds \(certificate.subject) and its issuer \(issuer.subject), and pinning "
                        + "every certificate of it would pin the issuer's key, which accepts every certificate that CA issues; give a file of the "
                        + "certificates to pin alone, or their sha256// pins"
                )
            }
        }
        return certificates.map(TrustPin.certificate)
    }

    static func failure(_ message: String) -> SluiceError {
        SluiceError(kind: .configuration, stage: "trust-evaluation", message: message)
    }
}
