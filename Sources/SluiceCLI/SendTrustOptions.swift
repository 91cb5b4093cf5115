import ArgumentParser
import Foundation
import Sluice

/// `sluice send`'s TLS and trust options, as curl names them, and the trust policy they describe.
struct SendTrustOptions: ParsableArguments {
    @Option(name: [.customLong("ca-bundle"), .customLong("cacert")], help: "A PEM file of trust anchors to use instead of the system's.")
    var caBundle: String?

    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Accept any certificate, for any name (pins still apply).")
    var insecure = false

    @Option(
        name: .customLong("pinnedpubkey"),
        help: ArgumentHelp(
            "Public-key pins, sha256//BASE64 separated by ';' (or PEM/DER files), matched against the verified chain: a CA's pin works, unlike curl's. An empty pin is refused.",
            valueName: "PINS"
        )
    )
    var pinnedPublicKeys: String?

    @Option(
        name: [.customShort("E"), .customLong("cert")],
        help: ArgumentHelp("A client certificate, PEM or PKCS#12, as curl's -E: FILE or FILE:PASSWORD.", valueName: "FILE[:PASSWORD]")
    )
    var clientCertificate: String?

    @Option(name: .customLong("key"), help: "The client certificate's PEM key, when it is not in the certificate's file.")
    var clientKey: String?

    @Option(name: .customLong("pass"), help: "The password of the client key or PKCS#12 file.")
    var clientKeyPassword: String?

    @Option(name: .customLong("crlfile"), help: ArgumentHelp("A PEM file of certificate revocation lists, as curl's --crlfile: a revoked certificate fails the handshake (exit 60).", valueName: "FILE"))
    var crlFile: String?

    @Flag(name: .customLong("cert-status"), help: "Require the server to staple a good OCSP answer, as curl's --cert-status: revoked, missing or bad fails (exit 91).")
    var certStatus = false

    /// The trust policy the TLS options ask for; `nil` when none is given.
    /// - Throws: `RequestFailure` with curl's exit status 58 for a client certificate that cannot be
    ///   used, and `.configuration` for pins that cannot be read.
    func trustPolicy() throws -> TrustPolicy? {
        guard insecure || pinnedPublicKeys != nil || clientCertificate != nil || clientKey != nil || clientKeyPassword != nil || crlFile != nil || certStatus
        else { return nil }
        var settings = TrustSettings()
        settings.caBundle = caBundle
        settings.allowsInvalidCertificates = insecure
        settings.validatesDomainName = !insecure
        settings.clientCertificate = clientCertificate
        settings.clientKey = clientKey
        settings.clientKeyPassword = clientKeyPassword
        if let clientCertificate, clientKeyPassword == nil, let colon = clientCertificate.lastIndex(of: ":"), !FileManager.default.fileExists(atPath: clientCertificate) {
            // curl's -E FILE:PASSWORD; a colon in the path itself needs --pass instead.
            settings.clientCertificate = String(clientCertificate[..<colon])
            settings.clientKeyPassword = String(clientCertificate[clientCertificate.index(after: colon)...])
        }
        // Every piece is a pin: '' or 'a;' names an empty one, refused, never read as no pin.
        for text in pinnedPublicKeys.map({ $0.split(separator: ";", omittingEmptySubsequences: false) }) ?? [] {
            settings.pins += try TrustPin.pins(from: text.trimmingCharacters(in: .whitespaces))
        }
        settings.pinning = settings.pins.isEmpty ? .none : .publicKey
        settings.crlFile = crlFile
        settings.requiresStapledOCSP = certStatus
        do throws(TrustSettings.Invalid) {
            return try settings.policy { SendTrustOptions.flags[$0] }
        } catch where error.isClientIdentity {
            throw RequestFailure(error: SluiceError(kind: .tls, stage: "transport", message: error.message, transportCode: 58))
        } catch {
            // The flags together, a CRL file that cannot be read: the command line is at fault.
            throw ValidationError(error.message)
        }
    }

    /// The flag of each trust setting, for messages.
    private static let flags: [TrustSettings.Field: String] = [
        .pins: "--pinnedpubkey", .caBundle: "--cacert", .allowsInvalidCertificates: "-k", .clientCertificate: "--cert", .clientKey: "--key",
        .clientKeyPassword: "--pass", .crlFile: "--crlfile", .requiresStapledOCSP: "--cert-status",
    ]
}
