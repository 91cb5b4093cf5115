import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// Mutual TLS against nginx with `ssl_verify_client on` and the test CA: a client certificate the
/// CA signed gets 200 and its own name back; none, or one from another CA, gets 400.
@Suite("Client certificates (mutual TLS) over real TLS", .timeLimit(.minutes(5)))
struct ClientCertificateTests {
    private func policy(_ servers: TestServers, _ identity: ClientIdentity?) throws -> TrustPolicy {
        try TrustPolicy(caBundle: servers.caBundle, clientIdentity: identity)
    }

    private func identity(_ servers: TestServers, _ certificate: String, key: String? = nil, password: String? = nil) throws -> ClientIdentity {
        try ClientIdentity(
            certificate: servers.certificates + "/" + certificate, key: key.map { servers.certificates + "/" + $0 }, password: password
        )
    }

    /// The body of a request to the mutual-TLS server under `policy`, or its status when not 200.
    private func answer(_ manager: SessionManager, _ policy: TrustPolicy, _ servers: TestServers) async throws -> String {
        var request = Request(url: servers.nginxHTTPSClientAuth.appendingPathComponent("who"))
        request.trustPolicy = policy
        let response = try await manager.send(request)
        return response.status == 200 ? String(decoding: response.body, as: UTF8.self) : "status \(response.status)"
    }

    @Test("PEM certificate and key, an encrypted key with its password, and PKCS#12 are accepted; none, or another CA's, refused")
    func identities() async throws {
        let servers = try TestServers.load()
        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport()))
        let accepted = [
            try identity(servers, "client.pem", key: "client.key"),
            try identity(servers, "client.pem", key: "client-encrypted.key", password: "client-key-pass"),
            try identity(servers, "client.p12", password: "p12-pass"),
        ]
        for identity in accepted {
            #expect(try await answer(manager, policy(servers, identity), servers) == "client=CN=sluice-client\n", "\(identity)")
        }
        #expect(try await answer(manager, policy(servers, nil), servers) == "status 400")
        let stranger = try identity(servers, "stranger-client.pem", key: "stranger-client.key")
        #expect(try await answer(manager, policy(servers, stranger), servers) == "status 400")
    }

    @Test("a certificate from an intermediate CA is accepted when the intermediate is sent with it, refused without")
    func intermediates() async throws {
        let servers = try TestServers.load()
        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport()))
        let certs = servers.certificates
        let withIntermediate = try ClientIdentity(certificate: certs + "/client-3.pem", key: certs + "/client-3.key", intermediates: certs + "/client-intermediate.pem")
        #expect(try await answer(manager, policy(servers, withIntermediate), servers) == "client=CN=sluice-client-3\n")
        let alone = try ClientIdentity(certificate: certs + "/client-3.pem", key: certs + "/client-3.key")
        #expect(try await answer(manager, policy(servers, alone), servers) == "status 400")
    }

    @Test("a policy with an identity governs only its hosts: elsewhere the default applies, here the identity is sent")
    func onlyToItsHosts() async throws {
        let servers = try TestServers.load()
        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport()))
        let identity = try identity(servers, "client.pem", key: "client.key")
        let elsewhere = try TrustPolicy(caBundle: servers.caBundle, hosts: ["api.example"], clientIdentity: identity)
        var request = Request(url: servers.nginxHTTPSClientAuth.appendingPathComponent("who"))
        request.trustPolicy = elsewhere
        // The policy (its CA bundle too) does not cover localhost: the system store refuses the test CA.
        let error = await #expect(throws: SluiceError.self) { try await manager.send(request) }
        #expect(error?.kind == .tls)
        let here = try TrustPolicy(caBundle: servers.caBundle, hosts: ["localhost"], clientIdentity: identity)
        #expect(try await answer(manager, here, servers) == "client=CN=sluice-client\n")
    }

    @Test("identities are never mixed on a connection: 60 interleaved requests under two identities and none on one transport")
    func notMixed() async throws {
        let servers = try TestServers.load()
        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport()))
        let first = try policy(servers, identity(servers, "client.pem", key: "client.key"))
        let second = try policy(servers, identity(servers, "client-2.pem", key: "client-2.key"))
        let none = try policy(servers, nil)
        let expected = [(first, "client=CN=sluice-client\n"), (second, "client=CN=sluice-client-2\n"), (none, "status 400")]
        try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<60 {
                let (policy, wanted) = expected[index % 3]
                group.addTask { (try await answer(manager, policy, servers), wanted) }
            }
            for try await (got, wanted) in group {
                #expect(got == wanted)
            }
        }
    }

    @Test("from YAML: the identity is sent; a missing file, a key that is not the certificate's and a wrong password are load-time errors at their line")
    func fromYAML() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let certs = servers.certificates
        func pipeline(_ options: String) throws -> String {
            let path = directory.file("mtls.yaml")
            try """
                stages:
                  - trust-evaluation:
                      ca-bundle: "\(servers.caBundle)"
                \(options)
                requests:
                  - name: who
                    path: \(servers.nginxHTTPSClientAuth.absoluteString)/who
                    expect:
                      status: 200

                """.write(to: path, atomically: true, encoding: .utf8)
            return path.path
        }
        let good = try pipeline("      client-certificate: \"\(certs)/client.pem\"\n      client-key: \"\(certs)/client-encrypted.key\"\n      client-key-password: client-key-pass")
        let passed = try await SluiceProcess.launch(["run", "--no-color", good])
        #expect(passed.status == 0, "\(passed.output)\(passed.error)")
        let failures: [(String, String)] = [
            ("      client-certificate: \"\(certs)/missing.pem\"", ":4:7: error: cannot read the client certificate"),
            ("      client-certificate: \"\(certs)/client.pem\"\n      client-key: \"\(certs)/client-2.key\"", ":5:7: error: the key in"),
            ("      client-certificate: \"\(certs)/client.pem\"\n      client-key: \"\(certs)/client-encrypted.key\"\n      client-key-password: wrong", ":6:7: error: the password does not decrypt"),
            ("      client-certificate: \"\(certs)/client.pem\"\n      client-key: \"\(certs)/client-encrypted.key\"", ":5:7: error: \(certs)/client-encrypted.key is encrypted: give its password"),
            ("      client-certificate: \"\(certs)/client.p12\"", ":4:7: error: \(certs)/client.p12 is encrypted: give its password"),
            ("      client-key: \"\(certs)/client.key\"", ":4:7: error: client-key, client-key-password and client-intermediates go with client-certificate"),
        ]
        for (options, expected) in failures {
            let result = try await SluiceProcess.launch(["validate", try pipeline(options)])
            #expect(result.status == 2, "\(options)")
            #expect(result.error.contains(expected), "\(options): \(result.error)")
        }
    }
}
