import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// The real peers `scripts/test-servers start` runs on loopback, read from its servers.json
/// (or the file named by SLUICE_TEST_SERVERS).
struct TestServers: Decodable {
    let httpbin: URL
    /// The scenario server (Tests/Servers/scenario_server.py): flaky endpoints, an OAuth 2.0 token
    /// endpoint, SigV4 and HMAC verifiers.
    let scenario: URL
    /// The fault server (Tests/Servers/fault_server.py): one misbehaviour per path.
    let fault: URL
    /// The fault server's TLS port, which answers every ClientHello with a handshake-failure alert.
    let faultTLS: URL
    let nginxHTTP: URL
    let nginxHTTPS: URL
    /// A leaf for `wrong-host.example`, which the test CA signed: a made-up name, reached with
    /// `--resolve` or `--connect-to`.
    let nginxHTTPSWrongHost: URL
    /// nginx's files on a Unix domain socket; `/socket` answers `socket host=HOST` with the Host sent.
    let nginxUnixSocket: String
    let nginxHTTPSSelfSigned: URL
    let nginxHTTPSExpired: URL
    /// The pinning attacker: a leaf for localhost from a second CA ("interception CA"), sent with
    /// its CA and then the genuine CA and leaf appended (CVE-2016-2402's chain).
    let nginxHTTPSInterceptor: URL
    /// The attacker's own access log: a request that reached it leaves a line there.
    let interceptorAccessLog: String
    /// Mutual TLS: requires a client certificate the test CA signed (`client.pem`, `client-2.pem`,
    /// `client-encrypted.key` with password `client-key-pass`, `client.p12` with `p12-pass`; the
    /// interception CA's `stranger-client.pem` is refused) and answers `client=SUBJECT`; 400 without.
    let nginxHTTPSClientAuth: URL
    /// tinyproxy, open to loopback: adds `Via: 1.1 sluice-test-proxy` to responses and logs each
    /// CONNECT in `proxyLog`.
    let proxy: URL
    let proxyLog: String
    /// tinyproxy asking for Basic credentials `user` / `proxy-s3cret` (407 without them).
    let proxyWithAuth: URL
    /// The open tinyproxy behind stunnel: an `https://` proxy whose own certificate comes from the
    /// interception CA (`certificates/interceptor-ca.pem`).
    let httpsProxy: URL
    /// mitmproxy, intercepting TLS with certificates from its own CA (`interceptingProxyCA`).
    let interceptingProxy: URL
    /// The same mitmproxy as a SOCKS5 proxy that resolves names itself (`socks5h://`).
    let interceptingSOCKSProxy: URL
    let interceptingProxyCA: String
    let caBundle: String
    /// The genuine CA and the interception CA, so that validation alone accepts both servers.
    let bothCAsBundle: String
    let selfSignedCertificate: String
    /// The directory of the generated certificates (`ca.pem`, `localhost.pem`, ...).
    let certificates: String
    /// Each certificate's public key pin, as openssl computes it.
    let pins: Pins
    let wwwRoot: String
    let nginxAccessLog: String
    /// Apache httpd: `/digest/secret.txt` behind mod_auth_digest (realm "sluice digest") and
    /// `/basic/secret.txt` behind mod_auth_basic (realm "sluice basic"), both for user `alice`,
    /// password `wonder land 7`.
    let apacheDigest: URL
    /// Hurl's integration-test app (Tests/Fixtures/hurl/server), reached from the `.hurl` files'
    /// `localhost:8000` by these `--connect-to` entries.
    let hurlConnectTo: [String]
    /// nginx with a leaf of the revocation CA, stapling an OCSP answer that says good.
    let nginxRevocationGood: URL
    /// nginx with a revoked leaf of the revocation CA, stapling the answer that says revoked.
    let nginxRevocationRevoked: URL
    /// nginx with the good leaf and no stapled answer.
    let nginxRevocationUnstapled: URL
    /// The revocation CA (PEM).
    let revocationCA: String
    /// The revocation CA's CRL (PEM), which lists the revoked leaf.
    let revocationCRL: String

    struct Pins: Decodable {
        let ca: String
        let localhost: String
        let wrongHost: String
        let selfSigned: String
        let expired: String
        let interceptor: String
        let interceptorCA: String
    }

    struct NotRunning: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "the test servers are not running (no \(path)); start them with `scripts/test-servers start`, or run `scripts/test`"
        }
    }

    /// Loads the addresses; throws with the command to run when the servers are not up.
    static func load() throws -> TestServers {
        let path = ProcessInfo.processInfo.environment["SLUICE_TEST_SERVERS"] ?? URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".test-servers/servers.json").path
        guard let data = FileManager.default.contents(atPath: path) else { throw NotRunning(path: path) }
        return try JSONDecoder().decode(TestServers.self, from: data)
    }

    /// The httpbin URL for `path`, for example `get` or `delay/3`.
    func httpbin(_ path: String) -> URL {
        URL(string: path, relativeTo: httpbin)!.absoluteURL
    }

    /// The nginx plain-HTTP URL for `path`.
    func nginx(_ path: String) -> URL {
        URL(string: path, relativeTo: nginxHTTP)!.absoluteURL
    }

    /// The nginx HTTPS URL (certificate from the test CA) for `path`.
    func nginxTLS(_ path: String) -> URL {
        URL(string: path, relativeTo: nginxHTTPS)!.absoluteURL
    }

    /// The lines of nginx's access log that hold `marker`, searched as bytes: the log grows to
    /// megabytes over a run, where Foundation's `String.contains` on Linux takes seconds.
    func nginxLogLines(containing marker: String) -> [String] {
        guard let log = FileManager.default.contents(atPath: nginxAccessLog) else { return [] }
        let needle = Data(marker.utf8)
        var lines: [String] = []
        var searched = log.startIndex..<log.endIndex
        while let found = log.range(of: needle, in: searched) {
            let start = log[..<found.lowerBound].lastIndex(of: 10).map { $0 + 1 } ?? log.startIndex
            let end = log[found.upperBound...].firstIndex(of: 10) ?? log.endIndex
            lines.append(String(decoding: log[start..<end], as: UTF8.self))
            searched = end..<log.endIndex
        }
        return lines
    }

    /// A transport that trusts the test CA.
    func trustingTransport(_ configuration: CurlTransport.Configuration = .init()) -> CurlTransport {
        var configuration = configuration
        configuration.caBundle = caBundle
        return CurlTransport(configuration: configuration)
    }

    /// A manager over a transport that trusts the test CA.
    func manager(
        stages: [any Stage] = [], monitors: [any EventMonitor] = [], timeouts: Timeouts = .default,
        redirects: Redirection? = Redirection(), trustRecorder: TrustRecorder? = nil
    ) throws -> SessionManager {
        let transport: any Transport = trustRecorder.map { TrustRecordingTransport(inner: trustingTransport(), recorder: $0) } ?? trustingTransport()
        return SessionManager(
            pipeline: try Pipeline(stages: stages, transport: transport, timeouts: timeouts, redirects: redirects),
            monitors: monitors
        )
    }
}

extension Response {
    /// The body parsed as a JSON object.
    func jsonObject() throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: body) as? [String: Any])
    }
}

