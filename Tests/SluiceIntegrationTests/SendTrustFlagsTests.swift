import Foundation
import Testing

/// `sluice send` takes curl's TLS flags and exits as curl does on a trust failure; each case runs
/// the curl CLI with the same arguments against the same nginx, and the exit statuses must agree,
/// except where Sluice's verified-chain rule is deliberately wider (a CA's `--pinnedpubkey`).
@Suite("sluice send speaks curl's TLS flags, with curl's exit statuses")
struct SendTrustFlagsTests {
    /// curl's exit status for `arguments` (its output discarded).
    private func curl(_ arguments: [String]) throws -> Int32 {
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: "/usr/bin/curl"), arguments: ["--silent", "--output", "/dev/null"] + arguments,
            environment: ProcessInfo.processInfo.environment, directory: nil, captures: false
        )
        return process.finish().status
    }

    @Test("--cacert, -k, --pinnedpubkey, -E/--cert, --key and --pass: the same exit status as curl (60, 90, 58, 0)")
    func sameExitStatusAsCurl() async throws {
        let servers = try TestServers.load()
        let certs = servers.certificates
        let cacert = ["--cacert", servers.caBundle]
        let cases: [(arguments: [String], status: Int32)] = [
            (cacert + [servers.nginxHTTPSExpired.absoluteString + "/hello.txt"], 60),
            ([servers.nginxHTTPSSelfSigned.absoluteString + "/hello.txt"], 60),
            (["-k", servers.nginxHTTPSSelfSigned.absoluteString + "/hello.txt"], 0),
            (cacert + ["--pinnedpubkey", servers.pins.selfSigned, servers.nginxTLS("hello.txt").absoluteString], 90),
            (cacert + ["--pinnedpubkey", servers.pins.localhost, servers.nginxTLS("hello.txt").absoluteString], 0),
            (cacert + ["--cert", certs + "/ca.srl", servers.nginxHTTPSClientAuth.absoluteString], 58),
            (cacert + ["--cert", certs + "/client.pem", "--key", certs + "/client.key", servers.nginxHTTPSClientAuth.absoluteString], 0),
            (cacert + ["--cert", certs + "/client.pem", "--key", certs + "/client-encrypted.key", "--pass", "wrong", servers.nginxHTTPSClientAuth.absoluteString], 58),
            (cacert + ["-E", certs + "/client.pem", "--key", certs + "/client-encrypted.key", "--pass", "client-key-pass", servers.nginxHTTPSClientAuth.absoluteString], 0),
        ]
        for (arguments, status) in cases {
            #expect(try curl(arguments) == status, "curl \(arguments)")
            let sent = try await SluiceProcess.launch(["send", "-o", "/dev/null"] + arguments)
            #expect(sent.status == status, "sluice send \(arguments): \(sent.error)")
            if status != 0 { #expect(sent.error.hasPrefix("sluice: error: "), "\(sent.error)") }
        }
    }

    @Test("a client certificate that cannot be used (a key not its own, a wrong or missing password, a missing file) fails as curl's transfer does: 58, no message under -s, -w's line with 000")
    func unusableClientCertificate() async throws {
        let servers = try TestServers.load()
        let certs = servers.certificates
        let writeOut = ["-s", "-w", "[%{http_code} %{exitcode}]", "--cacert", servers.caBundle]
        for identity in [
            ["-E", certs + "/client.pem", "--key", certs + "/client-2.key"],
            ["-E", certs + "/client.pem", "--key", certs + "/client-encrypted.key", "--pass", "wrong"],
            ["-E", certs + "/client.pem", "--key", certs + "/client-encrypted.key"],
            ["-E", certs + "/missing.pem"],
        ] {
            let arguments = writeOut + identity + [servers.nginxHTTPSClientAuth.absoluteString]
            let reference = try await SluiceProcess.launch(arguments, executable: URL(fileURLWithPath: "/usr/bin/curl"))
            let sent = try await SluiceProcess.launch(["send"] + arguments)
            #expect(reference.status == 58 && reference.output == "[000 58]", "curl \(identity): \(reference.output)")
            #expect(sent.status == 58 && sent.output == reference.output && sent.error.isEmpty, "\(identity): \(sent.output) \(sent.error)")
        }
    }

    @Test("an empty pin (--pinnedpubkey \"$PIN\" with PIN unset, ';', a trailing ';' beside the right pin) is refused before anything is sent, never read as no pin: curl fails 90 on each")
    func emptyPinIsRefused() async throws {
        let servers = try TestServers.load()
        let interceptor = servers.nginxHTTPSInterceptor.absoluteString + "/hello.txt"
        for pins in ["", ";", " ", "\(servers.pins.interceptor);", ";\(servers.pins.interceptor)"] {
            let arguments = ["-k", "--pinnedpubkey", pins, interceptor]
            #expect(try curl(arguments) == 90, "curl \(arguments)")
            let sent = try await SluiceProcess.launch(["send", "-o", "/dev/null"] + arguments)
            #expect(sent.status == 2 && sent.error.contains("a pin is empty"), "sluice send \(arguments): \(sent.status) \(sent.error)")
        }
    }

    @Test("a CA's pin passes sluice send (the verified chain holds the CA) where curl's leaf-only check exits 90; -E FILE:PASSWORD reads a PKCS#12 file")
    func widerThanCurl() async throws {
        let servers = try TestServers.load()
        let arguments = ["--cacert", servers.caBundle, "--pinnedpubkey", servers.pins.ca, servers.nginxTLS("hello.txt").absoluteString]
        #expect(try curl(arguments) == 90)
        #expect(try await SluiceProcess.launch(["send", "-o", "/dev/null"] + arguments).status == 0)
        let p12 = try await SluiceProcess.launch(["send", "--cacert", servers.caBundle, "-E", servers.certificates + "/client.p12:p12-pass", servers.nginxHTTPSClientAuth.absoluteString])
        #expect(p12.status == 0 && p12.output == "client=CN=sluice-client\n", "\(p12.output)\(p12.error)")
    }
}
