internal import COpenSSL

/// The certificates of a TLS connection that pins may match, and those the server merely sent.
///
/// A server may send any certificates it likes after its own: pinned ones are public, so an
/// attacker holding a certificate for the host from another trusted CA (a mis-issuing public CA, a
/// company's interception CA) appends them to pass a check that looks at everything sent. That is
/// CVE-2016-2402, OkHttp's `CertificatePinner` before 2.7.5. Pins therefore match only:
/// - with validation on, the chain OpenSSL verified, from the leaf to the trust anchor it used
///   (`SSL_get0_verified_chain`);
/// - with validation off (`allowsInvalidCertificates`), where nothing was verified, the leaf and the
///   certificates linked to it one by one, each issued by the next (issuer name, and a signature
///   the next one's key verifies), as OkHttp's chain cleaner links them. Stray certificates never count.
package enum PeerChain {
    /// The most certificates a linked chain holds, leaf included (OkHttp's cleaner stops at 9
    /// signatures).
    static let maximumLength = 10

    /// `leaf`, then the certificate among `candidates` that issued it, then the one that issued
    /// that, and so on: each link checked by issuer name and signature, no certificate twice, until
    /// a self-signed certificate, no issuer among the candidates, or ``maximumLength``.
    static func linked(from leaf: X509Certificate, candidates: [X509Certificate]) -> [X509Certificate] {
        var chain = [leaf]
        while chain.count < maximumLength, let current = chain.last, !current.isIssued(by: current) {
            guard let issuer = candidates.first(where: { candidate in
                !chain.contains(candidate) && current.isIssued(by: candidate)
            }) else { break }
            chain.append(issuer)
        }
        return chain
    }

    /// The certificates pins may match on a connection under `policy`: the verified chain, or with
    /// `allowsInvalidCertificates` the chain linked to the leaf from what the server sent and the
    /// pinned certificates; `nil` when validation was on and OpenSSL verified no chain.
    static func pinnable(_ peer: any TLSPeer, under policy: TrustPolicy) -> [X509Certificate]? {
        guard policy.allowsInvalidCertificates else { return peer.verifiedChain() }
        let presented = peer.presentedCertificates()
        guard let leaf = presented.first else { return [] }
        return linked(from: leaf, candidates: Array(presented.dropFirst()) + policy.pinnedCertificates)
    }

}

/// The certificates of a connection of libcurl built on OpenSSL, read from its `SSL *`
/// (CURLINFO_TLS_SSL_PTR): the libcurl transport's ``TLSPeer``.
package struct OpenSSLPeer: TLSPeer {
    private let session: OpaquePointer

    /// The peer of the connection whose OpenSSL `SSL *` is `session`, valid while it is.
    package init(session: OpaquePointer) {
        self.session = session
    }

    package func presentedCertificates() -> [X509Certificate] {
        Self.certificates(in: sluice_peer_chain(session))
    }

    package func verifiedChain() -> [X509Certificate]? {
        guard let stack = sluice_verified_chain(session), sluice_chain_count(stack) > 0 else { return nil }
        return Self.certificates(in: stack)
    }

    private static func certificates(in stack: OpaquePointer?) -> [X509Certificate] {
        guard let stack else { return [] }
        return (0..<sluice_chain_count(stack)).compactMap { index in
            sluice_chain_certificate(stack, index).map { X509Certificate($0) }
        }
    }
}

extension X509Certificate {
    /// Whether `issuer` issued this certificate: OpenSSL's issuer check (names, key identifiers,
    /// key usage) and this certificate's signature verified with the issuer's public key.
    func isIssued(by issuer: X509Certificate) -> Bool {
        der.withUnsafeBufferPointer { subjectBytes in
            issuer.der.withUnsafeBufferPointer { issuerBytes in
                guard let subject = sluice_certificate_from_der(subjectBytes.baseAddress, subjectBytes.count) else { return false }
                defer { sluice_certificate_free(subject) }
                guard let parsedIssuer = sluice_certificate_from_der(issuerBytes.baseAddress, issuerBytes.count) else { return false }
                defer { sluice_certificate_free(parsedIssuer) }
                return sluice_certificate_issued_by(subject, parsedIssuer) == 1
            }
        }
    }
}
