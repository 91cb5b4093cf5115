import Foundation
import Testing

@testable import SluiceCore

/// One set of rules makes a trust policy from what a pipeline's options or `sluice send`'s flags
/// say, each front end's names in the messages.
@Suite("TrustSettings: the rules a pipeline's trust options and send's TLS flags share")
struct TrustSettingsTests {
    private static let yaml: [TrustSettings.Field: String] = [
        .allowsInvalidCertificates: "allow-invalid-certificates", .clientCertificate: "client-certificate", .clientKey: "client-key",
        .clientKeyPassword: "client-key-password", .clientIntermediates: "client-intermediates", .crlFile: "crl-file", .requiresStapledOCSP: "cert-status",
    ]
    private static let flags: [TrustSettings.Field: String] = [
        .allowsInvalidCertificates: "-k", .clientCertificate: "--cert", .clientKey: "--key", .clientKeyPassword: "--pass", .crlFile: "--crlfile",
        .requiresStapledOCSP: "--cert-status",
    ]

    private func invalid(_ settings: TrustSettings, _ names: [TrustSettings.Field: String]) -> TrustSettings.Invalid? {
        do {
            _ = try settings.policy { names[$0] }
            return nil
        } catch {
            return error
        }
    }

    @Test("a key, password or intermediates without a certificate: refused, blamed on the first given, in each front end's words")
    func dependentsNeedACertificate() {
        var settings = TrustSettings()
        settings.clientKeyPassword = "secret"
        let yaml = invalid(settings, Self.yaml)
        #expect(yaml?.field == .clientKeyPassword && yaml?.isClientIdentity == false)
        #expect(yaml?.message == "client-key, client-key-password and client-intermediates go with client-certificate")
        #expect(invalid(settings, Self.flags)?.message == "--key and --pass go with --cert", "send has no intermediates flag")
        settings.clientKeyPassword = nil
        settings.clientIntermediates = "chain.pem"
        #expect(invalid(settings, Self.yaml)?.field == .clientIntermediates)
    }

    @Test("a revocation list beside accepting invalid certificates could refuse nothing: refused, naming both switches; a required staple is still checked, as curl's -k --cert-status checks it")
    func revocationNeedsValidation() {
        var settings = TrustSettings()
        settings.allowsInvalidCertificates = true
        settings.validatesDomainName = false
        settings.requiresStapledOCSP = true
        #expect(invalid(settings, Self.flags) == nil)
        settings.requiresStapledOCSP = false
        settings.crlFile = "revoked.crl"
        let refused = invalid(settings, Self.yaml)
        #expect(refused?.field == .crlFile)
        #expect(refused?.message == "allow-invalid-certificates turns certificate validation off, so a revocation list (crl-file) could not refuse anything")
        #expect(invalid(settings, Self.flags)?.message == "-k turns certificate validation off, so a revocation list (--crlfile) could not refuse anything")
    }

    @Test("a client certificate or key that cannot be read: a client-identity failure blamed on the file at fault")
    func unreadableIdentity() {
        var settings = TrustSettings()
        settings.clientCertificate = "/nonexistent/client.pem"
        let certificate = invalid(settings, Self.yaml)
        #expect(certificate?.field == .clientCertificate && certificate?.isClientIdentity == true)
        #expect(certificate?.message.contains("/nonexistent/client.pem") == true)
    }

    @Test("no setting at all: the default policy")
    func defaults() throws {
        let policy = try TrustSettings().policy { _ in nil }
        #expect(try policy == TrustPolicy())
    }
}
