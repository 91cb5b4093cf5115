extension TrustPolicy {
    /// The policy as the cache tells policies apart: every field that decides which servers a
    /// connection under it accepts, or which identity it shows them, written out the same way in
    /// every process (a disk store is shared by runs), so a response is reused only under the
    /// policy it was fetched under (``VaryKey``). The CA bundle, CRL file and client certificate
    /// are named by path; the client certificate by its DER bytes' SHA-256 as well.
    var cacheIdentity: String {
        var fields = [
            "pinning=\(pinning.rawValue)",
            "pins=" + pins.map(\.cacheIdentity).joined(separator: ","),
            "ca=\(caBundle ?? "")",
            "invalid=\(allowsInvalidCertificates)",
            "name=\(validatesDomainName)",
            "crl=\(crlFile ?? "")",
            "ocsp=\(requiresStapledOCSP)",
        ]
        if let clientIdentity {
            fields.append("client=\(clientIdentity.certificateFile) \(SHA256.hex(clientIdentity.certificate.der))")
        }
        return fields.joined(separator: "\n")
    }
}

extension TrustPin {
    /// The pin as the cache tells pins apart: a key pin as its `sha256//` text, a certificate pin
    /// by its DER bytes' SHA-256 (certificate pinning trusts that certificate, not only its key).
    fileprivate var cacheIdentity: String {
        switch self {
        case .publicKeySHA256: description
        case .certificate(let certificate): "certificate " + SHA256.hex(certificate.der)
        }
    }
}
