internal import COpenSSL
import Foundation

/// What `expect.certificate` and `{certificate: FIELD}` captures read of a server's certificate,
/// as Hurl's `certificate` query offers it: each field a JSON value, so the expectation operators
/// (`equals`, `contains`, `matches`, `gt`, ...) apply to it.
public enum CertificateField: String, Sendable, CaseIterable {
    /// The subject as RFC 2253 text: `CN=localhost,O=Example`.
    case subject
    /// The issuer as RFC 2253 text.
    case issuer
    /// The subject in OpenSSL's one-line form, as curl's certinfo and Hurl give it:
    /// `C = US, O = Example, CN = localhost`.
    case subjectOneLine = "subject-oneline"
    /// The issuer in OpenSSL's one-line form.
    case issuerOneLine = "issuer-oneline"
    /// The serial number in upper-case hex, without separators.
    case serialNumber = "serial-number"
    /// The serial number's octets in lower-case hex separated by colons, as curl and Hurl show
    /// it: `0f:4e:1d`.
    case serialNumberOctets = "serial-number-octets"
    /// The start of the validity period, ISO 8601 in UTC: `2026-11-22T18:03:00Z`.
    case notBefore = "not-before"
    /// The end of the validity period, ISO 8601 in UTC.
    case notAfter = "not-after"
    /// Whole days from now to the end of the validity period (negative once expired).
    case daysToExpiry = "days-to-expiry"
    /// The subject alternative names: `["DNS:localhost", "IP:127.0.0.1"]`.
    case subjectAlternativeNames = "subject-alt-names"

    /// The field's value for `certificate`, with days counted from `now`.
    public func value(of certificate: X509Certificate, now: Date = Date()) -> JSONValue {
        func date(_ date: Date?) -> JSONValue { date.map { .string($0.formatted(.iso8601)) } ?? .null }
        switch self {
        case .subject: return .string(certificate.text { sluice_certificate_name_rfc2253($0, 0, $1, $2) })
        case .issuer: return .string(certificate.text { sluice_certificate_name_rfc2253($0, 1, $1, $2) })
        case .subjectOneLine: return .string(certificate.text { sluice_certificate_name_oneline($0, 0, $1, $2) })
        case .issuerOneLine: return .string(certificate.text { sluice_certificate_name_oneline($0, 1, $1, $2) })
        case .serialNumber: return .string(certificate.text { sluice_certificate_serial_hex($0, $1, $2) })
        case .serialNumberOctets: return .string(certificate.text { sluice_certificate_serial_octets($0, $1, $2) })
        case .notBefore: return date(certificate.notBefore)
        case .notAfter: return date(certificate.notAfter)
        case .daysToExpiry:
            guard let notAfter = certificate.notAfter else { return .null }
            return .int(Int((notAfter.timeIntervalSince(now) / 86_400).rounded(.down)))
        case .subjectAlternativeNames:
            let names = certificate.text(capacity: 16_384) { sluice_certificate_alt_names($0, $1, $2) }
            return .array(names.split(separator: "\n").map { .string(String($0)) })
        }
    }
}

extension X509Certificate {
    /// Text an OpenSSL call writes for this certificate into a buffer; empty when it fails.
    fileprivate func text(capacity: Int = 4096, _ write: (OpaquePointer, UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String {
        der.withUnsafeBufferPointer { bytes in
            guard let parsed = sluice_certificate_from_der(bytes.baseAddress, bytes.count) else { return "" }
            defer { sluice_certificate_free(parsed) }
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = buffer.withUnsafeMutableBufferPointer { write(parsed, $0.baseAddress!, Int32(capacity)) }
            guard length > 0 else { return "" }
            return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
