extension TrustPolicy {
    /// The policy as the cache tells policies apart: every field that decides which servers a
    /// connection under it accepts, or which identity it shows them, written out the same way in
    /// every process (a disk store is shared by runs), so a response is reused only under the
    /// policy it was fetched under (``VaryKey``). The CA bundle, CRL file and client certificate
    /// are named by path; the client certificate by its DER bytes' SHA-256 as well.
    var cacheIdentity: String {
        var fields = [
            "pinning=\(pinning.rawValue)",
            "pins=" + pins.map { SHA256.hex($0.isCertificate ? $0.certificateDER : $0.publicKeySHA256) }.joined(separator: ","),
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
    /// Whether the pin is a certificate, not a key hash alone.
    fileprivate var isCertificate: Bool {
        if case .certificate = self { return true }
        return false
    }

    /// A certificate pin's DER bytes; none for a key hash.
    fileprivate var certificateDER: [UInt8] {
        if case .certificate(let certificate) = self { return certificate.der }
        return []
    }
}
