internal import COpenSSL
import Foundation

/// The certificate and key a client shows a server that asks for one (mutual TLS): a PEM
/// certificate (any intermediates after it, or in a file of their own) and a PEM key, or one
/// PKCS#12 file. An encrypted key's password is a secret.
///
/// The files are read and checked when the identity is made, the way the TLS library will use them:
/// a missing file, a key that is not the certificate's, or a wrong password is an error then, never
/// at send time. The transport hands libcurl the bytes (`CURLOPT_SSLCERT_BLOB`), not the paths.
/// A connection made with one identity is never reused for another or for none: identities are part
/// of the ``TrustPolicy``, and each policy has its own connection cache.
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible {
    /// How the certificate is written.
    public enum Format: String, Sendable, Hashable {
        /// PEM certificate (and intermediates) with a PEM key.
        case pem = "PEM"
        /// A PKCS#12 (`.p12`, `.pfx`) file holding certificate, key and intermediates.
        case pkcs12 = "P12"
    }

    /// Why files are not a usable identity.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// Which option's file is at fault: `certificate`, `key`, `password` or `intermediates`.
        public var part: String
        /// What is wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// How the certificate is written.
    public let format: Format
    /// The certificate (with intermediates) or PKCS#12 bytes, as libcurl takes them.
    package let certificateBytes: Data
    /// The PEM key, for `.pem`; `nil` when it follows the certificate in its file.
    package let keyBytes: Data?
    /// The key's or PKCS#12 file's password.
    package let password: String?
    /// The client certificate itself.
    public let certificate: X509Certificate
    /// The file the certificate was read from, as given, for a command that names it
    /// (`sluice curl`'s `--cert`).
    public let certificateFile: String
    /// The key's file, as given; `nil` when the key is in the certificate's file.
    public let keyFile: String?
    /// The intermediates' file, as given.
    public let intermediatesFile: String?

    /// Reads and checks an identity.
    /// - Parameters:
    ///   - certificate: a PEM file (the certificate, then any intermediates; the key may follow) or
    ///     a PKCS#12 file (`.p12`, `.pfx`, or any file that is not PEM).
    ///   - key: a PEM key file, when it is not in the certificate's file; not for PKCS#12.
    ///   - password: the key's or the PKCS#12 file's password.
    ///   - intermediates: a PEM file of intermediate certificates to send after the certificate.
    /// - Throws: `Invalid`, naming the part at fault.
    public init(certificate: String, key: String? = nil, password: String? = nil, intermediates: String? = nil) throws(Invalid) {
        func read(_ path: String, _ part: String) throws(Invalid) -> Data {
            do {
                return try InputFile.data(at: path, role: "the client \(part)")
            } catch {
                throw Invalid(part: part, message: error.description)
            }
        }
        var certificateBytes = try read(certificate, "certificate")
        let isPEM = certificateBytes.range(of: Data("-----BEGIN".utf8)) != nil
        format = isPEM ? .pem : .pkcs12
        if format == .pkcs12, key != nil {
            throw Invalid(part: "key", message: "\(certificate) is a PKCS#12 file, which holds its own key; leave the key out")
        }
        if let intermediates {
            guard format == .pem else {
                throw Invalid(part: "intermediates", message: "\(certificate) is a PKCS#12 file, which holds its own intermediates")
            }
            let extra = try read(intermediates, "intermediates")
            guard (try? X509Certificate.certificates(in: extra)) != nil else {
                throw Invalid(part: "intermediates", message: "\(intermediates) is not a PEM file of certificates")
            }
            certificateBytes.append(Data("\n".utf8) + extra)
        }
        let keyBytes = try key.map { (path: String) throws(Invalid) -> Data in try read(path, "key") }
        var leaf: OpaquePointer?
        let problem = certificateBytes.withUnsafeBytes { certificatePointer in
            (keyBytes ?? Data()).withUnsafeBytes { keyPointer in
                sluice_check_identity(
                    certificatePointer.bindMemory(to: UInt8.self).baseAddress, certificatePointer.count,
                    keyBytes == nil ? nil : keyPointer.bindMemory(to: UInt8.self).baseAddress, keyPointer.count,
                    isPEM ? 0 : 1, password, &leaf
                )
            }
        }
        let keyName = key ?? certificate
        switch Int(problem) {
        case Int(SLUICE_IDENTITY_NO_CERTIFICATE.rawValue):
            throw Invalid(part: "certificate", message: "\(certificate) holds no certificate (PEM, or PKCS#12)")
        case Int(SLUICE_IDENTITY_NO_KEY.rawValue):
            // OpenSSL's reason for a wrong password varies with the key's cipher and provider; the
            // PEM header says whether the key is encrypted.
            if (keyBytes ?? certificateBytes).range(of: Data("ENCRYPTED".utf8)) != nil {
                throw Invalid(part: "password", message: password == nil
                    ? "\(keyName) is encrypted: give its password"
                    : "the password does not decrypt \(keyName)")
            }
            throw Invalid(part: "key", message: "\(keyName) holds no private key")
        case Int(SLUICE_IDENTITY_BAD_PASSWORD.rawValue):
            throw Invalid(part: "password", message: password == nil
                ? "\(isPEM ? keyName : certificate) is encrypted: give its password"
                : "the password does not decrypt \(isPEM ? keyName : certificate)")
        case Int(SLUICE_IDENTITY_MISMATCH.rawValue):
            throw Invalid(part: "key", message: "the key in \(keyName) is not the key of the certificate in \(certificate)")
        default:
            break
        }
        guard let leaf else { throw Invalid(part: "certificate", message: "\(certificate) holds no certificate") }
        defer { sluice_certificate_free(leaf) }
        self.certificate = X509Certificate(leaf)
        (certificateFile, keyFile, intermediatesFile) = (certificate, key, intermediates)
        self.certificateBytes = certificateBytes
        self.keyBytes = keyBytes
        self.password = password
    }

    /// `client certificate SUBJECT (sha256//...)`, never the password.
    public var description: String { "client certificate \(certificate)" }
}
