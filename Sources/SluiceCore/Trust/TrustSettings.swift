/// A trust policy as a user writes it, by file paths and switches: a pipeline's
/// `trust-evaluation` options and `sluice send`'s TLS flags are both read into this, and one set
/// of rules makes the ``TrustPolicy`` of either (which client options need a certificate, which
/// option a bad key or password is blamed on, which switches cannot go together).
///
/// Each front end names the fields its own way (`client-key`, `--key`), so messages are made
/// with the names it gives.
///
/// ```swift
/// var settings = TrustSettings()
/// settings.clientKey = "client.key"
/// let names: [TrustSettings.Field: String] = [.clientCertificate: "--cert", .clientKey: "--key", .clientKeyPassword: "--pass"]
/// do {
///     _ = try settings.policy { names[$0] }
/// } catch {
///     print(error.message)   // --key and --pass go with --cert
/// }
/// ```
public struct TrustSettings: Sendable {
    /// One setting, for a message to name.
    public enum Field: Sendable, Hashable {
        case pins, caBundle, allowsInvalidCertificates, clientCertificate, clientKey, clientKeyPassword, clientIntermediates, crlFile, requiresStapledOCSP
    }

    /// Settings that make no policy: the field at fault (`nil` for the policy as a whole) and why.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// The setting at fault; `nil` when none is more at fault than another.
        public var field: Field?
        /// What is wrong, naming the settings as the front end names them.
        public var message: String
        /// Whether the client certificate, its key or its password could not be used (curl's
        /// exit status 58), rather than a combination of settings.
        public var isClientIdentity = false
        /// The message.
        public var description: String { message }
    }

    /// What is pinned.
    public var pinning: TrustPolicy.Pinning = .none
    /// The pins, read with ``TrustPin/pins(from:relativeTo:)``.
    public var pins: [TrustPin] = []
    /// A PEM file of trust anchors used instead of the system's.
    public var caBundle: String?
    /// Accept certificates that do not validate.
    public var allowsInvalidCertificates = false
    /// Check the certificate's name against the host.
    public var validatesDomainName = true
    /// The hosts the policy governs; every host when `nil`.
    public var hosts: [String]?
    /// Mutual TLS: a PEM certificate (intermediates may follow) or a PKCS#12 file.
    public var clientCertificate: String?
    /// The certificate's PEM key, when it is not in the certificate's file.
    public var clientKey: String?
    /// The password of the key or of the PKCS#12 file.
    public var clientKeyPassword: String?
    /// A PEM file of intermediates sent after the client certificate.
    public var clientIntermediates: String?
    /// A PEM file of certificate revocation lists.
    public var crlFile: String?
    /// Require a good stapled OCSP answer.
    public var requiresStapledOCSP = false

    /// Settings with every default: the system's trust anchors, nothing pinned.
    public init() {}

    /// The policy the settings describe.
    /// - Parameter name: how the front end names a field in messages; `nil` for a field it has
    ///   no way to set.
    /// - Throws: ``Invalid``: a client key, password or intermediates without a certificate;
    ///   revocation beside accepting invalid certificates; a client certificate, key or password
    ///   that cannot be used (``Invalid/isClientIdentity``, blamed on the file at fault); a CRL
    ///   file that cannot be read.
    public func policy(naming name: (Field) -> String?) throws(Invalid) -> TrustPolicy {
        let identity = try clientIdentity(naming: name)
        if allowsInvalidCertificates, crlFile != nil {
            throw Invalid(
                field: .crlFile,
                message: "\(name(.allowsInvalidCertificates) ?? "accepting invalid certificates") turns certificate validation off, so a revocation list (\(name(.crlFile) ?? "a CRL file")) could not refuse anything"
            )
        }
        do {
            return try TrustPolicy(
                pinning: pinning, pins: pins, caBundle: caBundle, allowsInvalidCertificates: allowsInvalidCertificates,
                validatesDomainName: validatesDomainName, hosts: hosts, clientIdentity: identity, crlFile: crlFile,
                requiresStapledOCSP: requiresStapledOCSP
            )
        } catch {
            throw Invalid(field: nil, message: error.message)
        }
    }

    /// The client identity, when a certificate is given.
    private func clientIdentity(naming name: (Field) -> String?) throws(Invalid) -> ClientIdentity? {
        let given: [Field: String?] = [.clientKey: clientKey, .clientKeyPassword: clientKeyPassword, .clientIntermediates: clientIntermediates]
        guard let clientCertificate else {
            let dependents: [Field] = [.clientKey, .clientKeyPassword, .clientIntermediates]
            guard let first = dependents.first(where: { given[$0] ?? nil != nil }) else { return nil }
            let names = dependents.compactMap(name)
            throw Invalid(
                field: first,
                message: "\(spokenList(names)) \(names.count == 1 ? "goes" : "go") with \(name(.clientCertificate) ?? "a client certificate")"
            )
        }
        do {
            return try ClientIdentity(certificate: clientCertificate, key: clientKey, password: clientKeyPassword, intermediates: clientIntermediates)
        } catch {
            // The file at fault; a password that is missing is the key's fault when there is one.
            let candidates: [String: [Field]] = ["key": [.clientKey], "password": [.clientKeyPassword, .clientKey], "intermediates": [.clientIntermediates]]
            let field = candidates[error.part]?.first { given[$0] ?? nil != nil } ?? .clientCertificate
            throw Invalid(field: field, message: error.message, isClientIdentity: true)
        }
    }
}
