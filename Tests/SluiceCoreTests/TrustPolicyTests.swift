import Foundation
import Testing
@testable import SluiceCore

@Suite("Trust policies: pins and configuration errors")
struct TrustPolicyTests {
    /// A self-signed P-256 certificate for pin.example, and its pin as openssl computes it:
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl enc -base64`.
    static let pem = """
        -----BEGIN CERTIFICATE-----
        MIIBhDCCASmgAwIBAgIUL8w+niJ5I3HpZQkdysHC0eIZ1bEwCgYIKoZIzj0EAwIw
        FjEUMBIGA1UEAwwLcGluLmV4YW1wbGUwIBcNMjYxMTIxMDMxNDA5WhgPMjEyNjEw
        MjgwMzE0MDlaMBYxFDASBgNVBAMMC3Bpbi5leGFtcGxlMFkwEwYHKoZIzj0CAQYI
        KoZIzj0DAQcDQgAE1zdtIHBKpBK9qR2Zb2jquBf0EoFRy3U/atAXP/ggChA9yjvK
        TkCgpRASA+QEHxIVTawf/N0WIcZTefPemFKdtKNTMFEwHQYDVR0OBBYEFAjwv9Jw
        ds269V3sHvFfaFuRkzpBMB8GA1UdIwQYMBaAFAjwv9Jwds269V3sHvFfaFuRkzpB
        MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSQAwRgIhAImtWLrOnqWwoGOH
        z9WT7ZaYtQEv9HWGvS6glvhQN81eAiEAu0MkwjL9G2h22/WmpGQOq5Af65I7jsf+
        3LyVGOCuezg=
        -----END CERTIFICATE-----

        """
    static let pin = "sha256//fprVVDAQrGO/yt+9WgkCxkKV9PGg311lJJN9GM+HRrk="

    private func file(_ name: String, _ contents: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    @Test("a certificate's public key pin is openssl's; PEM and DER files read the same")
    func certificatePins() throws {
        let certificates = try X509Certificate.certificates(in: Data(Self.pem.utf8))
        #expect(certificates.count == 1)
        #expect(certificates[0].publicKeyPin == Self.pin)
        #expect(certificates[0].subject == "/CN=pin.example")
        let der = try X509Certificate.certificates(in: Data(certificates[0].der))
        #expect(der == certificates)
        let twice = try X509Certificate.certificates(in: Data((Self.pem + Self.pem).utf8))
        #expect(twice.count == 2, "a PEM file may hold several certificates")
    }

    @Test("pins read from sha256// text or from files, relative to a directory")
    func readingPins() throws {
        #expect(try TrustPin.pins(from: Self.pin).map(\.description) == [Self.pin])
        let pemFile = try file("server.pem", Data(Self.pem.utf8))
        let fromFile = try TrustPin.pins(from: "server.pem", relativeTo: pemFile.deletingLastPathComponent())
        #expect(fromFile.map { Data($0.publicKeySHA256).base64EncodedString() } == [String(Self.pin.dropFirst(8))])
        guard case .certificate(let certificate) = fromFile.first else {
            Issue.record("a file pin should be a certificate")
            return
        }
        let derFile = try file("server.der", Data(certificate.der))
        #expect(try TrustPin.pins(from: derFile.path) == fromFile)
    }

    static let badPins: [(String, String)] = [
        ("sha256//short", "not sha256// followed by the base64 of 32 bytes"),
        ("sha256//" + Data(count: 31).base64EncodedString(), "32 bytes"),
        ("/nonexistent/pin.pem", "cannot read pin file /nonexistent/pin.pem"),
        // Not the working folder read as a file: an unset variable must not become a path.
        ("", "a pin is empty"),
    ]

    @Test("malformed pins and unreadable pin files are configuration errors", arguments: badPins)
    func badPin(text: String, message: String) {
        #expect {
            try TrustPin.pins(from: text)
        } throws: { error in
            let error = error as? SluiceError
            return error?.kind == .configuration && error?.stage == "trust-evaluation" && error?.message.contains(message) == true
        }
    }

    @Test("a file that is no certificate is a configuration error naming it")
    func malformedFile() throws {
        for contents in [Data("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n".utf8), Data([0x30, 0x03, 0x01]),
                         Data("-----BEGIN CERTIFICATE-----\nAAAA\n".utf8)] {
            let url = try file("bad.pem", contents)
            let error = #expect(throws: SluiceError.self) { try TrustPin.pins(from: url.path) }
            #expect(error?.kind == .configuration)
            #expect(error?.message.contains(url.path) == true)
        }
    }

    @Test("combinations that cannot work are refused when the policy is made")
    func configurationErrors() throws {
        let hash = try TrustPin.pins(from: Self.pin)
        let certificate = try TrustPin.pins(from: file("c.pem", Data(Self.pem.utf8)).path)
        let cases: [(() throws -> TrustPolicy, String)] = [
            ({ try TrustPolicy(pinning: .publicKey) }, "needs at least one pin"),
            ({ try TrustPolicy(pinning: .certificate) }, "needs at least one pin"),
            ({ try TrustPolicy(pinning: .certificate, pins: hash) }, "needs certificate files"),
            ({ try TrustPolicy(allowsInvalidCertificates: true) }, "cannot be validated"),
            ({ try TrustPolicy(caBundle: "/nonexistent/ca.pem") }, "cannot read the CA bundle"),
            ({ try TrustPolicy(hosts: []) }, "hosts is empty"),
        ]
        for (make, message) in cases {
            let error = #expect(throws: SluiceError.self) { try make() }
            #expect(error?.kind == .configuration)
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        }
        #expect(throws: Never.self) { try TrustPolicy(allowsInvalidCertificates: true, validatesDomainName: false) }
        #expect(throws: Never.self) { try TrustPolicy(pinning: .publicKey, pins: hash, allowsInvalidCertificates: true) }
        #expect(throws: Never.self) { try TrustPolicy(pinning: .certificate, pins: certificate) }
        #expect(try TrustPolicy(allowsInvalidCertificates: true, validatesDomainName: false).warnings.count == 1)
        #expect(try TrustPolicy().warnings.isEmpty)
    }

    @Test("pinning on a pipeline whose base URL is plain http fails when the pipeline is built")
    func httpBase() throws {
        let pinned = TrustEvaluation(policy: try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: Self.pin)))
        let error = #expect(throws: SluiceError.self) {
            try Pipeline(stages: [URLResolution(baseURL: "http://api.example/v1"), pinned], transport: echoTransport())
        }
        #expect(error?.kind == .configuration)
        #expect(error?.stage == "trust-evaluation")
        #expect(error?.message.contains("http://api.example/v1/") == true)
        #expect(throws: Never.self) { try Pipeline(stages: [URLResolution(baseURL: "https://api.example/v1"), pinned], transport: echoTransport()) }
        let elsewhere = TrustEvaluation(policy: try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: Self.pin), hosts: ["secure.example"]))
        #expect(throws: Never.self, "the policy does not cover the base URL's host") {
            try Pipeline(stages: [URLResolution(baseURL: "http://api.example/v1"), elsewhere], transport: echoTransport())
        }
    }

    @Test("hosts limits the policy; *.domain covers subdomains only")
    func hosts() throws {
        let policy = try TrustPolicy(hosts: ["API.example", "*.cdn.example"])
        #expect(policy.applies(to: "api.example"))
        #expect(policy.applies(to: "a.cdn.example"))
        #expect(policy.applies(to: "a.b.cdn.example"))
        #expect(!policy.applies(to: "cdn.example"))
        #expect(!policy.applies(to: "other.example"))
        #expect(try TrustPolicy().applies(to: "anything"))
    }

    @Test("hosts compare normalized: case, a trailing dot and IDNA spellings are one host; **. covers the domain too")
    func normalizedHosts() throws {
        let policy = try TrustPolicy(hosts: ["api.example.com", "*.cdn.example", "**.bücher.example", "[::1]"])
        for host in ["api.example.com", "API.Example.COM", "api.example.com.", "a.cdn.example", "x.y.cdn.example.",
                     "bücher.example", "xn--bcher-kva.example", "BÜCHER.example", "shop.xn--bcher-kva.example", "::1", "[::1]"] {
            #expect(policy.applies(to: host), "\(host)")
        }
        for host in ["api.example.com.evil", "evilapi.example.com", "cdn.example", "xcdn.example", "bucher.example",
                     "api.example.com..", "", "xn--bcher-kva.example.evil"] {
            #expect(!policy.applies(to: host), "\(host)")
        }
        #expect(policy.hosts == ["api.example.com", "*.cdn.example", "**.xn--bcher-kva.example", "::1"])
    }

    @Test("a hosts entry that is no host name, or a * anywhere but a leading *. or **., is refused when the policy is made",
          arguments: ["a*.example", "*", "*.", "api..example", "ex ample.com", "a.*.example"])
    func badHosts(pattern: String) {
        #expect(throws: SluiceError.self) { try TrustPolicy(hosts: [pattern]) }
    }

    @Test("evaluation: any pinned key or certificate in the chain passes; an empty chain never does")
    func evaluation() throws {
        let certificate = try #require(X509Certificate.certificates(in: Data(Self.pem.utf8)).first)
        let byKey = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: Self.pin))
        #expect(byKey.evaluate(chain: [certificate], host: "pin.example") == .proceed)
        #expect(byKey.evaluate(chain: [], host: "pin.example") != .proceed)
        let other = try TrustPolicy(pinning: .publicKey, pins: [.publicKeySHA256(Array(repeating: 7, count: 32))])
        guard case .reject(let reason) = other.evaluate(chain: [certificate], host: "pin.example") else {
            Issue.record("a wrong pin passed")
            return
        }
        #expect(reason.contains("pin.example"))
        #expect(reason.contains("public-key"))
        #expect(reason.contains("sha256//" + Data(Array(repeating: 7, count: 32)).base64EncodedString()))
        #expect(reason.contains(Self.pin), "the message shows the key the server presented")
        let byCertificate = try TrustPolicy(pinning: .certificate, pins: [.certificate(certificate)])
        #expect(byCertificate.evaluate(chain: [certificate], host: "pin.example") == .proceed)
        #expect(byCertificate.anchorsPEM == Data(certificate.pem.utf8), "pinned certificates are trust anchors")
        let lenient = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: Self.pin), allowsInvalidCertificates: true)
        #expect(lenient.evaluate(chain: [certificate], host: "other.example") != .proceed, "the name is still checked when validation is off")
        #expect(lenient.evaluate(chain: [certificate], host: "pin.example") == .proceed)
    }
}
