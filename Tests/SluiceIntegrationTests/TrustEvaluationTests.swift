import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// Trust policies enforced over real TLS, against nginx with the certificates the test setup made.
@Suite("Trust evaluation over real TLS")
struct TrustEvaluationTests {
    /// A manager whose pipeline puts `policy` on every request, over `transport` (which trusts
    /// only the system store: the test CA comes from the policy).
    private func manager(_ policy: TrustPolicy?, _ transport: CurlTransport = CurlTransport(), monitors: [any EventMonitor] = []) throws -> SessionManager {
        try SessionManager(pipeline: Pipeline(stages: policy.map { [TrustEvaluation(policy: $0)] } ?? [], transport: transport), monitors: monitors)
    }

    private func publicKey(_ pins: String..., servers: TestServers, caBundle: Bool = true) throws -> TrustPolicy {
        try TrustPolicy(pinning: .publicKey, pins: pins.flatMap { try TrustPin.pins(from: $0) }, caBundle: caBundle ? servers.caBundle : nil)
    }

    private func body(_ response: Response) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test("with no policy the private CA is refused; ca-bundle accepts it")
    func caBundle() async throws {
        let servers = try TestServers.load()
        let refused = await #expect(throws: SluiceError.self) { try await manager(nil).send(Request(url: servers.nginxTLS("hello.txt"))) }
        #expect(refused?.kind == .tls)
        let accepted = try await manager(TrustPolicy(caBundle: servers.caBundle)).send(Request(url: servers.nginxTLS("hello.txt")))
        #expect(body(accepted) == "hello from nginx\n")
    }

    @Test("a pin of the leaf's key, or of the CA's (any certificate of the chain), passes; backup pins too")
    func keyPins() async throws {
        let servers = try TestServers.load()
        for pins in [[servers.pins.localhost], [servers.pins.ca], [servers.pins.selfSigned, servers.pins.localhost]] {
            let policy = try TrustPolicy(pinning: .publicKey, pins: pins.flatMap { try TrustPin.pins(from: $0) }, caBundle: servers.caBundle)
            let response = try await manager(policy).send(Request(url: servers.nginxTLS("hello.txt")))
            #expect(body(response) == "hello from nginx\n", "\(pins)")
        }
        let fromFile = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: servers.certificates + "/ca.pem"), caBundle: servers.caBundle)
        #expect(try await manager(fromFile).send(Request(url: servers.nginxTLS("hello.txt"))).status == 200)
    }

    @Test("a public-key file, PEM or DER as openssl writes it, pins its key, as curl's --pinnedpubkey reads the same file")
    func publicKeyFiles() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let pem = directory.file("localhost.pub.pem").path, der = directory.file("localhost.pub.der").path
        let openssl = URL(fileURLWithPath: "/usr/bin/openssl")
        _ = try await SluiceProcess.launch(["x509", "-in", servers.certificates + "/localhost.pem", "-pubkey", "-noout", "-out", pem], executable: openssl)
        _ = try await SluiceProcess.launch(["pkey", "-pubin", "-in", pem, "-outform", "DER", "-out", der], executable: openssl)
        for file in [pem, der] {
            #expect(try TrustPin.pins(from: file).map(\.description) == [servers.pins.localhost], "\(file)")
            let policy = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: file), caBundle: servers.caBundle)
            #expect(try await manager(policy).send(Request(url: servers.nginxTLS("hello.txt"))).status == 200)
            let curl = try await CurlCLI.run(["--cacert", servers.caBundle, "--pinnedpubkey", file, servers.nginxTLS("hello.txt").absoluteString])
            #expect(curl.status == 0, "curl takes \(file) too")
        }
        // A PUBLIC KEY block that holds no key is refused, naming the file.
        let broken = try directory.write("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", to: "broken.pem")
        let error = #expect(throws: SluiceError.self) { try TrustPin.pins(from: broken) }
        #expect(error?.message == "pin file \(broken) is not a PEM or DER certificate or public key: a PEM PUBLIC KEY block is not a public key")
    }

    @Test("a wrong pin fails before the request is sent, naming host, mode, pins and the server's keys")
    func wrongPin() async throws {
        let servers = try TestServers.load()
        let probe = "pin-probe-\(UUID().uuidString)"
        let logStart = (try? FileManager.default.attributesOfItem(atPath: servers.nginxAccessLog)[.size] as? Int) ?? 0
        let policy = try publicKey(servers.pins.selfSigned, servers: servers)
        let error = await #expect(throws: SluiceError.self) {
            try await manager(policy).send(Request(url: servers.nginxTLS("hello.txt?\(probe)")))
        }
        #expect(error?.kind == .trustEvaluation)
        #expect(error?.stage == "trust-evaluation")
        let message = error?.message ?? ""
        for expected in ["localhost", "public-key", servers.pins.selfSigned, servers.pins.localhost, servers.pins.ca] {
            #expect(message.contains(expected), "\(expected) missing from: \(message)")
        }
        // A request that passes, logged after the refused one would have been.
        let marker = "pin-marker-\(UUID().uuidString)"
        _ = try await manager(TrustPolicy(caBundle: servers.caBundle)).send(Request(url: servers.nginxTLS("hello.txt?\(marker)")))
        var log = ""
        for _ in 0..<100 {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: servers.nginxAccessLog))
            try handle.seek(toOffset: UInt64(logStart))
            log = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
            try handle.close()
            if log.contains(marker) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(log.contains(marker))
        #expect(!log.contains(probe), "the server saw no request from the refused task")
    }

    @Test("certificate pinning: a pinned self-signed certificate is its own anchor; a pinned CA or leaf passes")
    func certificatePins() async throws {
        let servers = try TestServers.load()
        let selfSigned = try TrustPolicy(pinning: .certificate, pins: TrustPin.pins(from: servers.selfSignedCertificate))
        let response = try await manager(selfSigned).send(Request(url: servers.nginxHTTPSSelfSigned.appendingPathComponent("hello.txt")))
        #expect(body(response) == "hello from nginx\n")
        for file in ["ca.pem", "localhost.pem"] {
            let policy = try TrustPolicy(pinning: .certificate, pins: TrustPin.pins(from: "\(servers.certificates)/\(file)"))
            #expect(try await manager(policy).send(Request(url: servers.nginxTLS("hello.txt"))).status == 200, "\(file)")
        }
        let wrong = await #expect(throws: SluiceError.self) {
            try await manager(selfSigned).send(Request(url: servers.nginxTLS("hello.txt")))
        }
        #expect(wrong?.kind == .tls || wrong?.kind == .trustEvaluation)
        let noPolicy = await #expect(throws: SluiceError.self) {
            try await manager(nil).send(Request(url: servers.nginxHTTPSSelfSigned.appendingPathComponent("hello.txt")))
        }
        #expect(noPolicy?.kind == .tls)
    }

    @Test("a certificate for another name fails unless validates-domain-name is off")
    func hostName() async throws {
        let servers = try TestServers.load()
        let url = servers.nginxHTTPSWrongHost.appendingPathComponent("hello.txt")
        let error = await #expect(throws: SluiceError.self) { try await manager(TrustPolicy(caBundle: servers.caBundle)).send(Request(url: url)) }
        #expect(error?.kind == .tls)
        let lenient = try TrustPolicy(caBundle: servers.caBundle, validatesDomainName: false)
        #expect(try await manager(lenient).send(Request(url: url)).status == 200)
        let pinnedButInvalid = try TrustPolicy(
            pinning: .publicKey, pins: TrustPin.pins(from: servers.pins.wrongHost), caBundle: servers.caBundle, allowsInvalidCertificates: true
        )
        let stillChecked = await #expect(throws: SluiceError.self) { try await manager(pinnedButInvalid).send(Request(url: url)) }
        #expect(stillChecked?.kind == .tls || stillChecked?.kind == .trustEvaluation, "the name is checked even with validation off")
    }

    @Test("an expired certificate fails unless allow-invalid-certificates")
    func expired() async throws {
        let servers = try TestServers.load()
        let url = servers.nginxHTTPSExpired.appendingPathComponent("hello.txt")
        let error = await #expect(throws: SluiceError.self) { try await manager(TrustPolicy(caBundle: servers.caBundle)).send(Request(url: url)) }
        #expect(error?.kind == .tls)
        #expect(error?.message.contains("expired") == true, "\(error?.message ?? "")")
        let allowed = try TrustPolicy(caBundle: servers.caBundle, allowsInvalidCertificates: true, validatesDomainName: false)
        #expect(try await manager(allowed).send(Request(url: url)).status == 200)
        let pinned = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: servers.pins.expired), allowsInvalidCertificates: true)
        #expect(try await manager(pinned).send(Request(url: url)).status == 200)
        let wrongPin = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: servers.pins.localhost), allowsInvalidCertificates: true)
        let rejected = await #expect(throws: SluiceError.self) { try await manager(wrongPin).send(Request(url: url)) }
        #expect(rejected?.kind == .trustEvaluation, "pins still apply when validation is off")
    }

    @Test("a handshake libcurl refuses names the host, why, and every certificate presented: subject, issuer, validity, pin")
    func refusedHandshakeNamesTheChain() async throws {
        let servers = try TestServers.load()
        let trusted = try TrustPolicy(caBundle: servers.caBundle)
        let cases: [(URL, TrustPolicy?, [String])] = [
            (servers.nginxHTTPSExpired, trusted, ["certificate has expired", "valid 2020-01-01 to 2020-01-02", servers.pins.expired]),
            (servers.nginxHTTPSWrongHost, trusted, ["no alternative certificate subject name matches", "wrong-host.example", servers.pins.wrongHost]),
            (servers.nginxHTTPS, nil, ["self-signed certificate in certificate chain", "issued by /CN=Sluice Test CA", servers.pins.localhost, servers.pins.ca]),
            (servers.nginxHTTPSSelfSigned, trusted, ["self-signed certificate", servers.pins.selfSigned]),
        ]
        for (url, policy, expected) in cases {
            let error = await #expect(throws: SluiceError.self) { try await manager(policy).send(Request(url: url.appendingPathComponent("hello.txt"))) }
            #expect(error?.kind == .tls)
            let message = error?.message ?? ""
            #expect(message.hasPrefix("the TLS handshake with localhost failed: "), "\(message)")
            for text in expected { #expect(message.contains(text), "\(text) missing from: \(message)") }
            #expect(error?.presentedCertificates.isEmpty == false)
        }
        // With validation off, the chain's verdict was not the cause: the host name is, alone.
        let unverified = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: servers.pins.wrongHost), allowsInvalidCertificates: true)
        let named = await #expect(throws: SluiceError.self) { try await manager(unverified).send(Request(url: servers.nginxHTTPSWrongHost.appendingPathComponent("hello.txt"))) }
        #expect(named?.message.hasPrefix("the TLS handshake with localhost failed: SSL: no alternative certificate subject name matches") == true, "\(String(describing: named))")
        #expect(named?.message.contains("self-signed") == false, "\(String(describing: named))")
        // The same in the runner's JSON and in the HAR file.
        let directory = try TemporaryDirectory()
        let har = directory.file("tls.har")
        let pipeline = directory.file("tls.yaml")
        try """
            stages:
              - har-recorder: { path: "\(har.path)" }
              - trust-evaluation: { ca-bundle: "\(servers.caBundle)" }
            requests:
              - name: expired
                path: \(servers.nginxHTTPSExpired.absoluteString)/hello.txt
            """.write(to: pipeline, atomically: true, encoding: .utf8)
        let result = try SluiceProcess.run(["run", "--format", "json", pipeline.path])
        #expect(result.output.contains("certificate has expired") && result.output.contains(servers.pins.expired), "\(result.output)")
        let recorded = try String(contentsOf: har, encoding: .utf8)
        #expect(recorded.contains("certificate has expired") && recorded.contains(servers.pins.expired), "\(recorded)")
    }

    @Test("tasks under different policies on one transport never share a connection, nor a verdict")
    func policiesDoNotShareConnections() async throws {
        let servers = try TestServers.load()
        let transport = CurlTransport()
        let leaf = try manager(publicKey(servers.pins.localhost, servers: servers), transport)
        let wrong = try manager(publicKey(servers.pins.selfSigned, servers: servers), transport)
        let ca = try manager(publicKey(servers.pins.ca, servers: servers), transport)
        #expect(try await leaf.send(Request(url: servers.nginxTLS("hello.txt"))).status == 200)
        let handle = wrong.task(Request(url: servers.nginxTLS("hello.txt")))
        let error = await #expect(throws: SluiceError.self) { try await handle.value }
        #expect(error?.kind == .trustEvaluation)
        #expect(handle.context.metrics.transfers.last?.connectionReused == false, "its own connection, not the first policy's")
        let other = try await ca.send(Request(url: servers.nginxTLS("hello.txt")))
        #expect(other.status == 200)
        #expect(other.metrics?.connectionReused == false)
        let unpinned = try await manager(TrustPolicy(caBundle: servers.caBundle), transport).send(Request(url: servers.nginxTLS("hello.txt")))
        #expect(unpinned.metrics?.connectionReused == false)
        let sameAsFirst = try await leaf.send(Request(url: servers.nginxTLS("hello.txt")))
        #expect(sameAsFirst.metrics?.connectionReused == true, "the first policy's own connection is still there for it")
        await transport.shutdown()
    }

    @Test("a pin file that is a certificate chain (a leaf and its CA), or mixes public keys and certificates, is refused, naming why, in Swift, a pipeline and sluice send; backup certificates that do not issue one another are pins each")
    func chainFilesRefusedAsPins() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let certificates = URL(fileURLWithPath: servers.certificates)
        let chain = certificates.appendingPathComponent("localhost-chain.pem").path
        let chainError = #expect(throws: SluiceError.self) { try TrustPin.pins(from: chain) }
        #expect(chainError?.message.contains("is a certificate chain") == true && chainError?.message.contains("Sluice Test CA") == true, "\(String(describing: chainError))")
        let leaf = try String(contentsOf: certificates.appendingPathComponent("localhost.pem"), encoding: .utf8)
        let publicKey = try await SluiceProcess.launch(["-c", "openssl x509 -pubkey -noout -in '\(certificates.appendingPathComponent("localhost.pem").path)'"], executable: URL(fileURLWithPath: "/bin/sh"))
        let mixed = try directory.write(publicKey.output + leaf, to: "mixed.pem")
        let mixedError = #expect(throws: SluiceError.self) { try TrustPin.pins(from: mixed) }
        #expect(mixedError?.message.contains("PUBLIC KEY and CERTIFICATE blocks both") == true, "\(String(describing: mixedError))")
        let backups = try directory.write(leaf + (try String(contentsOf: certificates.appendingPathComponent("wrong-host.pem"), encoding: .utf8)), to: "backups.pem")
        #expect(try TrustPin.pins(from: backups).count == 2)

        let sent = try await SluiceProcess.launch(["send", "--cacert", servers.caBundle, "--pinnedpubkey", chain, servers.nginxTLS("hello.txt").absoluteString])
        #expect(sent.status == 2 && sent.error.contains("is a certificate chain"), "\(sent.error)")
        let pipeline = try directory.write("stages:\n  - trust-evaluation: { pinning: public-key, pins: [\(chain)] }\nrequests:\n  - path: \(servers.nginxTLS("hello.txt").absoluteString)\n", to: "chain.yaml")
        let loaded = try await SluiceProcess.launch(["validate", pipeline])
        #expect(loaded.status == 2 && loaded.error.contains("is a certificate chain"), "\(loaded.error)")
    }

    @Test("sluice curl writes a hosts-scoped policy's CA bundle and client certificate for its hosts alone, as the run applies it; the command for another host gets curl's defaults and, run, shows no certificate")
    func curlExportKeepsPolicyScope() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let certificates = servers.certificates
        let port = servers.nginxHTTPSClientAuth.port!
        let path = try directory.write("""
            stages:
              - trust-evaluation: { ca-bundle: \(servers.caBundle), client-certificate: \(certificates)/client.pem, client-key: \(certificates)/client.key, hosts: [localhost] }
            requests:
              - name: covered
                path: https://localhost:\(port)/
              - name: outside
                path: https://127.0.0.1:\(port)/
            """, to: "scoped.yaml")
        let exported = try await SluiceProcess.launch(["curl", path])
        let commands = exported.output.split(separator: "\n").filter { $0.hasPrefix("curl ") }
        #expect(commands.count == 2 && commands[0].contains("--cert ") && commands[0].contains("--cacert "), "\(exported.output)")
        #expect(!commands[1].contains("--cert ") && !commands[1].contains("--cacert ") && !commands[1].contains("--key "), "\(exported.output)")
        #expect(exported.output.contains("not to 127.0.0.1: curl's defaults apply"), "\(exported.output)")
    }

    @Test("the in-memory transport checks pins against the certificates it presents, and refuses a pinned request with none")
    func inMemoryPins() async throws {
        let servers = try TestServers.load()
        let ca = try X509Certificate.certificates(in: Data(contentsOf: URL(fileURLWithPath: servers.caBundle)))
        let stranger = try X509Certificate.certificates(in: Data(contentsOf: URL(fileURLWithPath: servers.selfSignedCertificate)))
        let policy = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: servers.caBundle))
        func send(presenting certificates: [X509Certificate], _ url: String = "https://api.test/") async throws -> Response {
            let transport = InMemoryTransport(presenting: certificates) { Response(status: 200, url: $0.url) }
            return try await SessionManager(pipeline: Pipeline(stages: [TrustEvaluation(policy: policy)], transport: transport)).send(Request(url: URL(string: url)!))
        }
        #expect(try await send(presenting: ca).status == 200, "the pinned CA is in the chain shown")
        for certificates in [[], stranger] {
            let error = await #expect(throws: SluiceError.self) { try await send(presenting: certificates) }
            #expect(error?.kind == .trustEvaluation, "\(String(describing: error))")
        }
        let plain = await #expect(throws: SluiceError.self) { try await send(presenting: ca, "http://api.test/") }
        #expect(plain?.kind == .trustEvaluation && plain?.message.contains("plain http") == true, "a pinned host over plain http is refused")
    }

    @Test("a reused connection is checked again before each request")
    func reusedConnectionChecked() async throws {
        let servers = try TestServers.load()
        let recorder = TrustRecorder()
        let transport = CurlTransport()
        let pipeline = try Pipeline(
            stages: [TrustEvaluation(policy: publicKey(servers.pins.localhost, servers: servers))],
            transport: TrustRecordingTransport(inner: transport, recorder: recorder)
        )
        let manager = SessionManager(pipeline: pipeline)
        let first = try await manager.send(Request(url: servers.nginxTLS("hello.txt")))
        let second = try await manager.send(Request(url: servers.nginxTLS("hello.txt")))
        #expect(first.metrics?.connectionReused == false)
        #expect(second.metrics?.connectionReused == true)
        #expect(recorder.calls.count == 2, "checked on the new connection and again on the reused one")
        #expect(recorder.calls.allSatisfy { $0.showsCertificates && $0.answer == .proceed }, "the pin checked, and passed, each time")
        await transport.shutdown()
    }

    @Test("a pinned host is refused over plain http; hosts limits the policy to its hosts")
    func hostsAndPlainHTTP() async throws {
        let servers = try TestServers.load()
        let pinnedEverywhere = try publicKey(servers.pins.localhost, servers: servers)
        let plain = await #expect(throws: SluiceError.self) { try await manager(pinnedEverywhere).send(Request(url: servers.nginx("hello.txt"))) }
        #expect(plain?.kind == .trustEvaluation)
        #expect(plain?.message.contains("plain http") == true)
        let elsewhere = try TrustPolicy(pinning: .publicKey, pins: TrustPin.pins(from: servers.pins.selfSigned), hosts: ["api.example"])
        #expect(try await manager(elsewhere).send(Request(url: servers.nginx("hello.txt"))).status == 200)
        let wrongPinOtherHost = await #expect(throws: SluiceError.self) {
            try await manager(elsewhere).send(Request(url: servers.nginxTLS("hello.txt")))
        }
        #expect(wrongPinOtherHost?.kind == .tls, "other hosts get the default policy: the private CA is unknown")
    }
}
