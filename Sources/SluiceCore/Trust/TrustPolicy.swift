import Foundation

/// How the TLS peers of a pipeline's requests are trusted: AFSecurityPolicy's semantics, enforced
/// by the transport after the TLS handshake and before any byte of a request is written.
///
/// - `pinning: .none` validates the server's chain against the system trust store (or
///   `caBundle`) and its name against the host.
/// - `.publicKey` also requires that some certificate of the verified chain (from the leaf to the
///   trust anchor OpenSSL chained it to) has a SubjectPublicKeyInfo whose SHA-256 is pinned.
/// - `.certificate` requires that some certificate of the verified chain is byte for byte a pinned
///   one; the pinned certificates are trust anchors as well, so a pinned self-signed certificate
///   passes.
///
/// Pins never match a certificate the server merely sent: an attacker with a certificate for the
/// host from another trusted CA could append the (public) pinned ones (CVE-2016-2402). With
/// `allowsInvalidCertificates`, where nothing is verified, pins match the leaf and the certificates
/// linked to it by issuer name and signature.
///
/// A configuration that cannot work is refused when the policy is made: pinning without pins,
/// `sha256//` pins for certificate pinning, `allowsInvalidCertificates` with `validatesDomainName`
/// and no pinning (a name cannot be validated for a certificate nobody vouches for), and an
/// unreadable CA bundle.
public struct TrustPolicy: Sendable, Hashable {
    /// What must match besides the chain's validity.
    public enum Pinning: String, Sendable, Hashable, CaseIterable {
        /// Nothing: validation alone.
        case none
        /// A pinned public key somewhere in the chain.
        case publicKey = "public-key"
        /// A pinned certificate somewhere in the chain.
        case certificate
    }

    /// What must match besides the chain's validity.
    public let pinning: Pinning
    /// The pins; backup pins welcome.
    public let pins: [TrustPin]
    /// A PEM file of trust anchors used instead of the system store.
    public let caBundle: String?
    /// Whether an invalid chain (expired, unknown issuer, self-signed) is accepted. Pins still apply.
    public let allowsInvalidCertificates: Bool
    /// Whether the certificate must name the host.
    public let validatesDomainName: Bool
    /// The hosts the policy applies to; `nil` for every host. Other hosts get the default: full
    /// validation against the system store. Names are compared normalized (lower case, no trailing
    /// dot, IDNA A-labels: `API.Example.com.` and `api.example.com` are one host, and so are
    /// `bücher.example` and `xn--bcher-kva.example`). `*.example.com` covers every name below
    /// `example.com`, at any depth (wider than OkHttp's one label, so that a deeper host is never
    /// silently left unpinned); `**.example.com` covers `example.com` itself too, as OkHttp's does.
    /// Stored normalized.
    public let hosts: [String]?
    /// The certificate and key shown to a server that asks for one (mutual TLS); `nil` for none.
    /// Shown only to the hosts the policy covers.
    public let clientIdentity: ClientIdentity?
    /// A PEM file of certificate revocation lists (curl's `--crlfile`): a certificate of the
    /// chain that a list revokes fails the handshake with an error that says revoked. OpenSSL
    /// then wants the list of every CA in the chain below the trust anchor, so a chain whose
    /// issuing CA has no list in the file fails too. `nil` checks no list.
    public let crlFile: String?
    /// Whether the server must staple a good OCSP answer for its certificate (curl's
    /// `--cert-status`): a revoked one fails saying revoked, and so does a missing or unverifiable
    /// answer. Connections under it keep no TLS session cache, so every handshake shows a staple.
    public let requiresStapledOCSP: Bool
    /// The trust anchors for certificate pinning, as PEM: the pinned certificates and the CA bundle.
    package let anchorsPEM: Data?

    /// Creates a policy.
    /// - Throws: `.configuration` when the combination cannot work.
    public init(
        pinning: Pinning = .none,
        pins: [TrustPin] = [],
        caBundle: String? = nil,
        allowsInvalidCertificates: Bool = false,
        validatesDomainName: Bool = true,
        hosts: [String]? = nil,
        clientIdentity: ClientIdentity? = nil,
        crlFile: String? = nil,
        requiresStapledOCSP: Bool = false
    ) throws(SluiceError) {
        // A CRL is read while the chain is verified, and nothing is verified then; a stapled
        // OCSP answer is still required and checked, as curl's -k --cert-status checks it.
        if allowsInvalidCertificates, crlFile != nil {
            throw TrustPin.failure("allow-invalid-certificates turns certificate validation off, so a revocation list (crl-file) could not refuse anything")
        }
        if let crlFile {
            do {
                let text = try InputFile.data(at: crlFile, role: "the CRL file")
                guard text.range(of: Data("-----BEGIN X509 CRL-----".utf8)) != nil else {
                    throw TrustPin.failure("the CRL file \(crlFile) holds no PEM revocation list (-----BEGIN X509 CRL-----)")
                }
            } catch let error as SluiceError {
                throw error.kind == .configuration ? error : TrustPin.failure("\(error.message)")
            } catch {
                throw TrustPin.failure("\(error)")
            }
        }
        if pinning != .none && pins.isEmpty {
            throw TrustPin.failure("\(pinning.rawValue) pinning needs at least one pin")
        }
        if pinning == .certificate, let hash = pins.first(where: { if case .publicKeySHA256 = $0 { true } else { false } }) {
            throw TrustPin.failure("certificate pinning needs certificate files; \(hash) is a public-key pin")
        }
        if allowsInvalidCertificates && validatesDomainName && pinning == .none {
            throw TrustPin.failure(
                "allow-invalid-certificates with validates-domain-name needs pinning: a domain name cannot be validated for a certificate nobody vouches for"
            )
        }
        var bundle: Data?
        if let caBundle {
            do {
                bundle = try InputFile.data(at: caBundle, role: "the CA bundle")
                _ = try X509Certificate.certificates(in: bundle!)
            } catch let error as X509Certificate.InvalidCertificate {
                throw TrustPin.failure("the CA bundle \(caBundle) is not a PEM file of certificates: \(error.reason)")
            } catch {
                throw TrustPin.failure("\(error)")
            }
        }
        if let hosts, hosts.isEmpty {
            throw TrustPin.failure("hosts is empty; leave it out to apply the policy to every host")
        }
        var patterns: [String]?
        if let hosts {
            patterns = []
            for host in hosts {
                guard let pattern = HostName.normalizedPattern(host) else {
                    throw TrustPin.failure("hosts: '\(host)' is not a host name, nor *.NAME or **.NAME")
                }
                patterns?.append(pattern)
            }
        }
        self.pinning = pinning
        self.pins = pins
        self.caBundle = caBundle
        self.allowsInvalidCertificates = allowsInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.hosts = patterns
        self.clientIdentity = clientIdentity
        self.crlFile = crlFile
        self.requiresStapledOCSP = requiresStapledOCSP
        if pinning == .certificate {
            var anchors = Data(pins.compactMap { if case .certificate(let certificate) = $0 { certificate.pem } else { nil } }.joined().utf8)
            if let bundle { anchors.append(bundle) }
            anchorsPEM = anchors
        } else {
            anchorsPEM = nil
        }
    }

    /// Whether the policy governs requests to this host, compared normalized (see ``hosts``).
    public func applies(to host: String) -> Bool {
        guard let hosts else { return true }
        guard let host = HostName.normalized(host) else { return false }
        return hosts.contains { HostName.matches(host, pattern: $0) }
    }

    /// What the runner should warn about: `allowsInvalidCertificates`, which turns validation off.
    public var warnings: [String] {
        allowsInvalidCertificates
            ? ["allow-invalid-certificates is on: expired, self-signed and unknown certificates are accepted\(pinning == .none ? "" : " (pins still apply)")"]
            : []
    }

    /// The certificates of `.certificate` pins.
    var pinnedCertificates: [X509Certificate] {
        pins.compactMap { if case .certificate(let certificate) = $0 { certificate } else { nil } }
    }

    /// Judges a TLS connection to `host` against the pins (and the host name, when
    /// `allowsInvalidCertificates` turns the transport's validation off). Without pinning there is
    /// nothing to judge here: the transport validated the chain.
    /// - Parameters:
    ///   - chain: the certificates pins may match: the chain that was verified, leaf first, or
    ///     with validation off the chain linked to the leaf; never simply what the
    ///     server sent. An empty chain never passes a pin.
    ///   - presented: what the server sent, named in a rejection's message; `chain` when `nil`.
    ///   - host: the host the request is for.
    public func evaluate(chain: [X509Certificate], presented: [X509Certificate]? = nil, host: String) -> TrustDecision {
        guard applies(to: host), pinning != .none else { return .proceed }
        guard let leaf = chain.first else {
            return .reject(reason: "no verified certificate chain is visible on the connection to \(host), so \(pinning.rawValue) pinning cannot pass")
        }
        // With validation off nothing was verified: the chain is the one linked to the leaf.
        let checked = allowsInvalidCertificates ? "the chain linked to the leaf" : "the verified chain"
        let shown = "Checked, \(checked): \(TrustPolicy.describe(chain)). The server presented: \(TrustPolicy.describe(presented ?? chain))."
        if allowsInvalidCertificates && validatesDomainName && !leaf.matches(host: host) {
            return .reject(reason: "the certificate \(leaf.subject) does not name \(host)")
        }
        switch pinning {
        case .none:
            return .proceed
        case .publicKey:
            if chain.contains(where: { certificate in pins.contains { $0.publicKeySHA256 == certificate.publicKeySHA256 } }) {
                return .proceed
            }
            return .reject(
                reason: "public-key pinning failed for \(host): no certificate of \(checked) has a pinned key. "
                    + "Pins expected: \(pins.map { "sha256//" + Data($0.publicKeySHA256).base64EncodedString() }.joined(separator: ", ")). "
                    + shown
            )
        case .certificate:
            let isPinned = { (certificate: X509Certificate) in
                pins.contains { if case .certificate(let pinned) = $0 { pinned.der == certificate.der } else { false } }
            }
            if chain.contains(where: isPinned) { return .proceed }
            return .reject(
                reason: "certificate pinning failed for \(host): no certificate of \(checked) is a pinned one. "
                    + "Pinned: \(pins.map(\.description).joined(separator: ", ")). " + shown
            )
        }
    }

    /// Every certificate as `SUBJECT (sha256//...)`, for a rejection's message.
    private static func describe(_ chain: [X509Certificate]) -> String {
        chain.map(\.details).joined(separator: "; ")
    }
}
