internal import COpenSSL
import Foundation

/// An X.509 certificate as trust evaluation compares it: its DER bytes, the SHA-256 of its
/// SubjectPublicKeyInfo (what a `sha256//` pin names), and its subject, issuer and validity for
/// messages.
public struct X509Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The certificate's DER encoding.
    public let der: [UInt8]
    /// SHA-256 of the DER of its SubjectPublicKeyInfo.
    public let publicKeySHA256: [UInt8]
    /// The subject, for example `/CN=localhost`.
    public let subject: String
    /// The issuer, for example `/CN=Sluice Test CA`.
    public let issuer: String
    /// The start of the validity period; `nil` when the certificate's date cannot be read.
    public let notBefore: Date?
    /// The end of the validity period; `nil` when the certificate's date cannot be read.
    public let notAfter: Date?

    /// Parses a DER certificate.
    /// - Throws: `InvalidCertificate` when the bytes are not exactly one certificate.
    public init(der: [UInt8]) throws(InvalidCertificate) {
        let parsed = der.withUnsafeBufferPointer { sluice_certificate_from_der($0.baseAddress, $0.count) }
        guard let parsed else { throw InvalidCertificate(reason: "not a DER X.509 certificate") }
        defer { sluice_certificate_free(parsed) }
        self.init(parsed, der: der)
    }

    /// Reads an OpenSSL certificate the caller owns.
    package init(_ certificate: OpaquePointer, der: [UInt8]? = nil) {
        self.der = der ?? X509Certificate.encode { sluice_certificate_der(certificate, $0, $1) }
        let spki = X509Certificate.encode { sluice_spki_der(certificate, $0, $1) }
        publicKeySHA256 = SHA256.digest(spki)
        var name = [CChar](repeating: 0, count: 512)
        subject = String(cString: sluice_certificate_subject(certificate, &name, Int32(name.count)))
        issuer = String(cString: sluice_certificate_issuer(certificate, &name, Int32(name.count)))
        var start: Int64 = 0
        var end: Int64 = 0
        let dated = sluice_certificate_validity(certificate, &start, &end) == 1
        notBefore = dated ? Date(timeIntervalSince1970: TimeInterval(start)) : nil
        notAfter = dated ? Date(timeIntervalSince1970: TimeInterval(end)) : nil
    }

    /// Why bytes are not a certificate.
    public struct InvalidCertificate: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// The public key pin for this certificate: `sha256//` and the base64 of `publicKeySHA256`.
    public var publicKeyPin: String {
        "sha256//" + Data(publicKeySHA256).base64EncodedString()
    }

    /// `SUBJECT (sha256//...)`.
    public var description: String { "\(subject) (\(publicKeyPin))" }

    /// `SUBJECT, issued by ISSUER, valid 2026-01-01 to 2027-01-01 (sha256//...)`: what a trust
    /// failure shows of each certificate the server presented.
    public var details: String {
        func day(_ date: Date?) -> String { date.map { $0.formatted(.iso8601.year().month().day()) } ?? "?" }
        return "\(subject), issued by \(issuer), valid \(day(notBefore)) to \(day(notAfter)) (\(publicKeyPin))"
    }

    /// Every certificate in a file: PEM (one or more `CERTIFICATE` blocks) or DER.
    /// - Throws: `InvalidCertificate` when the file holds no certificate or a malformed one.
    public static func certificates(in data: Data) throws(InvalidCertificate) -> [X509Certificate] {
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") else {
            return [try X509Certificate(der: Array(data))]
        }
        var certificates: [X509Certificate] = []
        var rest = Substring(text)
        while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----") {
            guard let end = rest.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<rest.endIndex) else {
                throw InvalidCertificate(reason: "a PEM CERTIFICATE block has no END line")
            }
            let base64 = rest[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(base64)) else {
                throw InvalidCertificate(reason: "a PEM CERTIFICATE block is not valid base64")
            }
            certificates.append(try X509Certificate(der: Array(der)))
            rest = rest[end.upperBound...]
        }
        guard !certificates.isEmpty else { throw InvalidCertificate(reason: "the PEM file holds no CERTIFICATE block") }
        return certificates
    }

    /// The certificate as a PEM block.
    public var pem: String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    /// Whether the certificate is valid for a host name or IP address (RFC 6125 matching by OpenSSL).
    func matches(host: String) -> Bool {
        der.withUnsafeBufferPointer { bytes in
            guard let parsed = sluice_certificate_from_der(bytes.baseAddress, bytes.count) else { return false }
            defer { sluice_certificate_free(parsed) }
            let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
            return sluice_certificate_matches_host(parsed, host, isAddress ? 1 : 0) == 1
        }
    }

    private static func encode(_ write: (UnsafeMutablePointer<UInt8>?, Int32) -> Int32) -> [UInt8] {
        let length = write(nil, 0)
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { write($0.baseAddress, length) }
        return written == length ? bytes : []
    }
}
