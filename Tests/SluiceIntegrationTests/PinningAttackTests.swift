import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// CVE-2016-2402 against Sluice: a server with a certificate for the host from another CA the
/// client trusts (the test setup's "interception CA", as a company proxy's or a mis-issuing public
/// CA) sends its chain with the genuine, pinned CA and leaf appended, since they are public. Every
/// pin must refuse it before a byte of the request is sent, whatever the pinning mode, the pinned
/// certificate and where trust comes from; the genuine server with the same policy still passes.
@Suite("Pinning against an attacker who appends the pinned certificates", .timeLimit(.minutes(5)))
struct PinningAttackTests {
    /// A pinning configuration: its name and how to make its policy.
    struct Mode: CustomStringConvertible, Sendable {
        let description: String
        let pinning: TrustPolicy.Pinning
        /// The pin: a `sha256//` text or a certificate file under the certificates folder.
        let pin: @Sendable (TestServers) -> String

        func policy(_ servers: TestServers, caBundle: String?, allowsInvalid: Bool = false) throws -> TrustPolicy {
            try TrustPolicy(
                pinning: pinning, pins: TrustPin.pins(from: pin(servers)), caBundle: caBundle,
                allowsInvalidCertificates: allowsInvalid, validatesDomainName: !allowsInvalid
            )
        }
    }

    static let modes: [Mode] = [
        Mode(description: "public-key pin of the genuine CA", pinning: .publicKey) { $0.pins.ca },
        Mode(description: "public-key pin of the genuine leaf", pinning: .publicKey) { $0.pins.localhost },
        Mode(description: "certificate pin of the genuine CA", pinning: .certificate) { $0.certificates + "/ca.pem" },
        Mode(description: "certificate pin of the genuine leaf", pinning: .certificate) { $0.certificates + "/localhost.pem" },
    ]

    private func send(_ url: URL, _ policy: TrustPolicy) async throws -> Response {
        let pipeline = try Pipeline(stages: [TrustEvaluation(policy: policy)], transport: CurlTransport())
        return try await SessionManager(pipeline: pipeline).send(Request(url: url))
    }

    /// Whether the attacker's access log holds `probe`, after a marker request that validation
    /// alone lets through has reached it (so the log is written up to that point).
    private func attackerSaw(_ probe: String, _ servers: TestServers) async throws -> Bool {
        let marker = "marker-\(UUID().uuidString)"
        _ = try await send(servers.nginxHTTPSInterceptor.appendingPathComponent("hello.txt").appending(queryItems: [URLQueryItem(name: marker, value: nil)]), TrustPolicy(caBundle: servers.bothCAsBundle))
        var log = ""
        for _ in 0..<100 {
            log = (try? String(contentsOfFile: servers.interceptorAccessLog, encoding: .utf8)) ?? ""
            if log.contains(marker) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(log.contains(marker), "the marker request never reached the attacker's log")
        return log.contains(probe)
    }

    @Test("trust from ca-bundle (both CAs): every pin refuses the attacker, which sees no request; the genuine server passes", arguments: modes)
    func caBundle(mode: Mode) async throws {
        let servers = try TestServers.load()
        let policy = try mode.policy(servers, caBundle: servers.bothCAsBundle)
        // Validation alone accepts the attacker: only the pin stands in its way.
        #expect(try await send(servers.nginxHTTPSInterceptor.appendingPathComponent("hello.txt"), TrustPolicy(caBundle: servers.bothCAsBundle)).status == 200)
        let probe = "probe-\(UUID().uuidString)"
        let error = await #expect(throws: SluiceError.self) {
            try await send(servers.nginxHTTPSInterceptor.appendingPathComponent(probe), policy)
        }
        #expect(error?.kind == .trustEvaluation, "\(String(describing: error))")
        #expect(error?.message.contains(servers.pins.interceptor) == true, "the message names the key the attacker showed")
        #expect(try await !attackerSaw(probe, servers))
        #expect(try await send(servers.nginxTLS("hello.txt"), policy).status == 200)
    }

    @Test("validation off (allow-invalid-certificates): pins match only the chain linked to the leaf, never a stray certificate", arguments: modes)
    func validationOff(mode: Mode) async throws {
        let servers = try TestServers.load()
        let policy = try mode.policy(servers, caBundle: nil, allowsInvalid: true)
        let probe = "probe-\(UUID().uuidString)"
        let error = await #expect(throws: SluiceError.self) {
            try await send(servers.nginxHTTPSInterceptor.appendingPathComponent(probe), policy)
        }
        #expect(error?.kind == .trustEvaluation, "\(String(describing: error))")
        #expect(error?.message.contains("the chain linked to the leaf") == true, "\(String(describing: error?.message))")
        #expect(try await !attackerSaw(probe, servers))
        #expect(try await send(servers.nginxTLS("hello.txt"), policy).status == 200)
    }

    /// Whether this process may make a mount namespace (root, with `unshare`): the system-store
    /// test swaps the store's bundle inside one, leaving the machine's untouched.
    static let canSwapSystemStore = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && FileManager.default.fileExists(atPath: "/etc/ssl/certs/ca-certificates.crt")

    @Test(
        "trust from the system store (both CAs added, in a mount namespace of its own): every pin refuses the attacker; the genuine server passes",
        .enabled(if: canSwapSystemStore), arguments: modes
    )
    func systemStore(mode: Mode) async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let bundle = directory.file("system-bundle.crt")
        try (Data(contentsOf: URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt")) + Data(contentsOf: URL(fileURLWithPath: servers.bothCAsBundle)))
            .write(to: bundle)
        let pin = mode.pin(servers)
        let pipeline = directory.file("attack.yaml")
        let probe = "probe-\(UUID().uuidString)"
        try """
            stages:
              - trust-evaluation: { pinning: \(mode.pinning.rawValue), pins: ["\(pin)"], hosts: [localhost] }
            requests:
              - name: attacker
                path: \(servers.nginxHTTPSInterceptor.absoluteString)/\(probe)
              - name: genuine
                path: \(servers.nginxTLS("hello.txt").absoluteString)
              - name: validation-alone-accepts-the-attacker
                path: \(servers.nginxHTTPSInterceptor.absoluteString)/hello.txt?\(probe)-unpinned
              - name: another-spelling-of-the-host
                path: https://LocalHost:\(servers.nginxHTTPSInterceptor.port!)/\(probe)-spelled

            """.write(to: pipeline, atomically: true, encoding: .utf8)
        let unpinned = directory.file("unpinned.yaml")
        try """
            requests:
              - name: validation-alone-accepts-the-attacker
                path: \(servers.nginxHTTPSInterceptor.absoluteString)/hello.txt
            """.write(to: unpinned, atomically: true, encoding: .utf8)
        func inNamespace(_ file: URL) async throws -> SluiceProcess.Result {
            let script = "mount --bind \"$1\" /etc/ssl/certs/ca-certificates.crt && exec \"$2\" run --no-color --format json \"$3\""
            return try await SluiceProcess.launch(
                ["--mount", "sh", "-c", script, "sh", bundle.path, SluiceProcess.executable.path, file.path],
                executable: URL(fileURLWithPath: "/usr/bin/unshare")
            )
        }
        let unpinnedRun = try await inNamespace(unpinned)
        #expect(unpinnedRun.status == 0, "the system store in the namespace trusts the interception CA: \(unpinnedRun.output)\(unpinnedRun.error)")
        let result = try await inNamespace(pipeline)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)\(result.error)")
        let results = try #require(document["results"] as? [[String: Any]])
        // Certificate pinning with no ca-bundle makes the pinned certificates the only anchors, so
        // libcurl's own verification refuses the attacker first (a TLS failure); public-key
        // pinning keeps the system store, so the pin check does.
        let refusal = mode.pinning == .certificate ? "TLS failure" : "trust evaluation failed"
        #expect((results[0]["error"] as? [String: Any])?["kind"] as? String == refusal, "\(results[0])")
        #expect(results[1]["ok"] as? Bool == true, "\(results[1])")
        #expect((results[2]["error"] as? [String: Any])?["kind"] as? String == refusal, "pins apply to every request of the file")
        // `LocalHost` is `localhost`: the policy written for it holds. (`localhost.` does not resolve
        // here; TrustPolicyTests covers the trailing dot and IDNA spellings.)
        #expect((results[3]["error"] as? [String: Any])?["kind"] as? String == refusal, "\(results[3])")
        let log = (try? String(contentsOfFile: servers.interceptorAccessLog, encoding: .utf8)) ?? ""
        #expect(!log.contains(probe), "the attacker saw a request")
    }

    @Test("the cache never answers a request with a response fetched under another trust policy: an unpinned fetch from the attacker does not satisfy a pinned request, and one client certificate's answer is not given to another, or to none; the same policy is a hit")
    func cacheKeepsPoliciesApart() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let certificates = servers.certificates
        let probe = "cached/hello.txt?trust-\(UUID().uuidString)"
        let pinned = "{ pinning: public-key, pins: [\"\(servers.pins.localhost)\"], ca-bundle: \(servers.caBundle) }"
        let path = try directory.write("""
            stages:
              - cache
            requests:
              - name: unchecked
                path: \(servers.nginxHTTPSInterceptor.absoluteString)/\(probe)
                stages: [{ trust-evaluation: { allow-invalid-certificates: true, validates-domain-name: false } }]
              - name: unchecked again
                path: \(servers.nginxHTTPSInterceptor.absoluteString)/\(probe)
                stages: [{ trust-evaluation: { allow-invalid-certificates: true, validates-domain-name: false } }]
              - name: pinned
                path: \(servers.nginxHTTPSInterceptor.absoluteString)/\(probe)
                stages: [{ trust-evaluation: \(pinned) }]
              - name: client
                path: \(servers.nginxHTTPSClientAuth.absoluteString)/cached-me
                stages: [{ trust-evaluation: { ca-bundle: \(servers.caBundle), client-certificate: \(certificates)/client.pem, client-key: \(certificates)/client.key } }]
              - name: other client
                path: \(servers.nginxHTTPSClientAuth.absoluteString)/cached-me
                stages: [{ trust-evaluation: { ca-bundle: \(servers.caBundle), client-certificate: \(certificates)/client-2.pem, client-key: \(certificates)/client-2.key } }]
              - name: no client
                path: \(servers.nginxHTTPSClientAuth.absoluteString)/cached-me
                stages: [{ trust-evaluation: { ca-bundle: \(servers.caBundle) } }]
                expect: { status: 400 }
              - name: client again
                path: \(servers.nginxHTTPSClientAuth.absoluteString)/cached-me
                stages: [{ trust-evaluation: { ca-bundle: \(servers.caBundle), client-certificate: \(certificates)/client.pem, client-key: \(certificates)/client.key } }]
            """, to: "cache-trust.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", "--format", "json", path])
        try #require(!run.output.isEmpty, "\(run.error)")
        let report = try JSONReader().value(from: run.output)
        func result(_ index: Int) -> (cache: String?, ok: Bool, error: String?) {
            let entry = report["results"]?[index]
            return (entry?["cache"]?.stringValue, entry?["ok"] == .bool(true), entry?["error"]?["message"]?.stringValue)
        }
        #expect(result(0).cache == "miss" && result(0).ok && result(1).cache == "hit", "\(run.output)")
        #expect(!result(2).ok && result(2).cache != "hit" && result(2).error?.contains("the TLS handshake with localhost failed") == true, "the connection is checked on a connection of its own: \(run.output)")
        #expect(result(3).ok && result(3).cache == "miss", "\(run.output)")
        #expect(result(4).ok && result(4).cache == "miss", "another certificate is another variant: \(run.output)")
        #expect(result(5).ok && result(5).cache != "hit", "\(run.output)")
        #expect(result(6).ok && result(6).cache == "miss", "the last variant stored was the unauthenticated one: \(run.output)")
    }
}
