import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluicePipelineFiles

/// Revocation against nginx serving leaves of a CA made with `openssl ca`: one good, one revoked
/// in the CA's CRL, each stapling the answer `openssl ocsp` gave for it, and the good one again
/// with no staple. curl, run with the same `--crlfile` and `--cert-status`, is the reference.
@Suite("Revocation: a CRL file and a required OCSP staple, against nginx and beside curl")
struct RevocationTests {
    static func send(_ url: URL, _ policy: TrustPolicy?, manager: SessionManager? = nil) async -> Result<Int, SluiceError> {
        do {
            var request = Request(url: url)
            request.trustPolicy = policy
            let manager = try manager ?? SessionManager(pipeline: Pipeline(transport: CurlTransport.shared, redirects: nil))
            return .success(try await manager.send(request).status)
        } catch {
            return .failure(error as? SluiceError ?? SluiceError(kind: .transport, message: "\(error)"))
        }
    }

    @Test("the library: a revoked leaf is refused saying revoked, by the CRL and by its stapled answer; a good one passes; a missing staple fails only when required")
    func library() async throws {
        let servers = try TestServers.load()
        let crl = try TrustPolicy(caBundle: servers.revocationCA, crlFile: servers.revocationCRL)
        let staple = try TrustPolicy(caBundle: servers.revocationCA, requiresStapledOCSP: true)
        let plain = try TrustPolicy(caBundle: servers.revocationCA)
        let good = servers.nginxRevocationGood.appendingPathComponent("hello.txt")
        let revoked = servers.nginxRevocationRevoked.appendingPathComponent("hello.txt")
        let unstapled = servers.nginxRevocationUnstapled.appendingPathComponent("hello.txt")

        for (url, policy, expected) in [
            (good, plain, nil), (revoked, plain, nil), (unstapled, plain, nil),
            (good, crl, nil), (revoked, crl, "certificate revoked"), (unstapled, crl, nil),
            (good, staple, nil), (revoked, staple, "certificate is revoked"), (unstapled, staple, "stapled no OCSP answer"),
        ] as [(URL, TrustPolicy, String?)] {
            switch await Self.send(url, policy) {
            case .success(let status):
                #expect(expected == nil && status == 200, "\(url) \(policy.crlFile != nil ? "crl" : policy.requiresStapledOCSP ? "staple" : "plain")")
            case .failure(let error):
                #expect(error.kind == .tls && expected.map(error.message.contains) == true, "\(url): \(error.message)")
            }
        }
    }

    @Test("a pin of the revoked leaf's own key does not let it through; a connection made without the CRL is not reused for a request that names one (CVE-2021-22924)")
    func attacks() async throws {
        let servers = try TestServers.load()
        let revoked = servers.nginxRevocationRevoked.appendingPathComponent("hello.txt")
        let leaf = URL(fileURLWithPath: servers.certificates).appendingPathComponent("revocation-revoked.pem").path
        let pinned = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: leaf), caBundle: servers.revocationCA, crlFile: servers.revocationCRL)
        guard case .failure(let error) = await Self.send(revoked, pinned) else {
            Issue.record("a pinned revoked leaf was accepted")
            return
        }
        #expect(error.message.contains("revoked"))

        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport.shared, redirects: nil))
        let plain = try TrustPolicy(caBundle: servers.revocationCA)
        #expect(try await Self.send(revoked, plain, manager: manager).get() == 200)
        let crl = try TrustPolicy(caBundle: servers.revocationCA, crlFile: servers.revocationCRL)
        guard case .failure(let reused) = await Self.send(revoked, crl, manager: manager) else {
            Issue.record("the connection made without the CRL was reused")
            return
        }
        #expect(reused.message.contains("revoked"))
    }

    @Test("certificate pinning of a leaf with a CRL and no ca-bundle leaves the list's issuer out of the anchors: refused, saying so and what to add; the CA pinned too, or as ca-bundle, passes the good server")
    func certificatePinningWithACRL() async throws {
        let servers = try TestServers.load()
        let good = servers.nginxRevocationGood.appendingPathComponent("hello.txt")
        let leaf = URL(fileURLWithPath: servers.certificates).appendingPathComponent("revocation-good.pem").path
        let leafOnly = try TrustPolicy(pinning: .certificate, pins: TrustPin.pins(from: leaf), crlFile: servers.revocationCRL)
        guard case .failure(let error) = await Self.send(good, leafOnly) else {
            Issue.record("the list was checked without its issuer")
            return
        }
        #expect(error.message.contains("pin that CA too, or give it as ca-bundle"), "\(error)")
        let withCA = try TrustPolicy(pinning: .certificate, pins: TrustPin.pins(from: leaf) + TrustPin.pins(from: servers.revocationCA), crlFile: servers.revocationCRL)
        #expect(try await Self.send(good, withCA).get() == 200)
        let withBundle = try TrustPolicy(pinning: .certificate, pins: TrustPin.pins(from: leaf), caBundle: servers.revocationCA, crlFile: servers.revocationCRL)
        #expect(try await Self.send(good, withBundle).get() == 200)
    }

    @Test("what cannot work is refused when the policy is made: a missing or non-CRL file, a CRL beside allow-invalid-certificates; a required staple beside it is taken")
    func refused() throws {
        let servers = try TestServers.load()
        #expect(throws: SluiceError.self) { try TrustPolicy(crlFile: "/nonexistent/crl.pem") }
        #expect(throws: SluiceError.self) { try TrustPolicy(crlFile: servers.revocationCA) }
        #expect(throws: SluiceError.self) { try TrustPolicy(allowsInvalidCertificates: true, validatesDomainName: false, crlFile: servers.revocationCRL) }
        #expect(try TrustPolicy(allowsInvalidCertificates: true, validatesDomainName: false, requiresStapledOCSP: true).requiresStapledOCSP)
    }

    @Test("sluice send --crlfile and --cert-status: the exit status curl gives with the same flags, on each server")
    func sendFlags() async throws {
        let servers = try TestServers.load()
        for server in [servers.nginxRevocationGood, servers.nginxRevocationRevoked, servers.nginxRevocationUnstapled] {
            for flags in [[], ["--crlfile", servers.revocationCRL], ["--cert-status"], ["--crlfile", servers.revocationCRL, "--cert-status"]] {
                let arguments = ["--cacert", servers.revocationCA] + flags + ["-o", "/dev/null", server.appendingPathComponent("hello.txt").absoluteString]
                let reference = try await CurlCLI.run(arguments)
                let sent = try await SluiceProcess.launch(["send"] + arguments)
                #expect(sent.status == reference.status, "\(server) \(flags): \(sent.error)")
            }
        }
        // -k leaves the staple required, as curl checks it: 91 where curl gives 91.
        for server in [servers.nginxRevocationGood, servers.nginxRevocationRevoked, servers.nginxRevocationUnstapled] {
            for flags in [["-k", "--cert-status"], ["-k", "--cacert", servers.revocationCA, "--cert-status"]] {
                let arguments = flags + ["-o", "/dev/null", server.appendingPathComponent("hello.txt").absoluteString]
                let reference = try await CurlCLI.run(arguments)
                let sent = try await SluiceProcess.launch(["send"] + arguments)
                #expect(sent.status == reference.status, "\(server) \(flags): \(sent.error)")
            }
        }
        let insecure = try await SluiceProcess.launch(["send", "-k", "--crlfile", servers.revocationCRL, servers.nginxRevocationGood.absoluteString])
        #expect(insecure.status == 2 && insecure.error.contains("-k turns certificate validation off, so a revocation list (--crlfile)"), "named by its flags: \(insecure.error)")
    }

    @Test("YAML: trust-evaluation's crl-file and cert-status refuse the revoked server in a run, saying revoked")
    func pipelineFile() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        for (option, said) in [("crl-file: \(servers.revocationCRL)", "certificate revoked"), ("cert-status: true", "certificate is revoked")] {
            let file = try directory.write("""
                name: revocation
                stages:
                  - url-resolution:
                      base-url: \(servers.nginxRevocationRevoked.absoluteString)
                  - trust-evaluation:
                      ca-bundle: \(servers.revocationCA)
                      \(option)
                requests:
                  - name: revoked
                    path: /hello.txt
                """, to: "revocation.yaml")
            let result = try await SluiceProcess.launch(["run", "--format", "json", file])
            #expect(result.status != 0 && result.output.contains(said), "\(option): \(result.output) \(result.error)")
        }
    }
}
