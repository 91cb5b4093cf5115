import Foundation
import Testing

/// `expect.certificate` and `{certificate: FIELD}` captures over real TLS (nginx with the test
/// setup's certificates), each field checked against what the openssl CLI reads from the same
/// certificate file.
@Suite("Certificate expectations and captures over real TLS")
struct CertificateExpectationTests {
    /// `openssl x509 -noout ... -nameopt FORM` on a certificate file, as NAME=VALUE lines.
    private func openssl(_ file: String, names form: String = "RFC2253") throws -> [String: String] {
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["openssl", "x509", "-in", file, "-noout", "-subject", "-issuer", "-serial", "-enddate", "-nameopt", form],
            environment: ProcessInfo.processInfo.environment, directory: nil
        )
        let text = String(decoding: process.finish().output, as: UTF8.self)
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }


    @Test("every field matches openssl's reading of the served certificate; captures carry them forward; a reused connection still shows it")
    func fieldsMatchOpenSSL() async throws {
        let servers = try TestServers.load()
        let fields = try openssl(servers.certificates + "/localhost.pem")
        let subject = try #require(fields["subject"]), issuer = try #require(fields["issuer"]), serial = try #require(fields["serial"])
        // The forms curl's certinfo and Hurl give: OpenSSL's one-line names, the serial's octets.
        let oneLine = try openssl(servers.certificates + "/localhost.pem", names: "oneline")
        let subjectOneLine = try #require(oneLine["subject"]), issuerOneLine = try #require(oneLine["issuer"])
        let hex = Array((serial.count % 2 == 1 ? "0" : "") + serial.lowercased())
        let octets = stride(from: 0, to: hex.count, by: 2).map { String(hex[$0..<$0 + 2]) }.joined(separator: ":")
        // notAfter=Feb 24 18:52:59 2029 GMT, as ISO 8601.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy 'GMT'"
        let raw = try #require(fields["notAfter"]).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let notAfter = try #require(formatter.date(from: raw), "\(raw)")
        let days = Int((notAfter.timeIntervalSinceNow / 86_400).rounded(.down))
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - trust-evaluation: { ca-bundle: "\(servers.caBundle)" }
            requests:
              - name: check
                path: \(servers.nginxTLS("hello.txt").absoluteString)
                expect:
                  certificate:
                    subject: "\(subject)"
                    issuer: "\(issuer)"
                    serial-number: "\(serial)"
                    subject-oneline: "\(subjectOneLine)"
                    issuer-oneline: "\(issuerOneLine)"
                    serial-number-octets: "\(octets)"
                    not-after: "\(notAfter.formatted(.iso8601))"
                    days-to-expiry: { ge: \(days - 1), le: \(days) }
                    subject-alt-names: ["DNS:localhost", "IP:127.0.0.1"]
                capture:
                  serial: { certificate: serial-number }
              - name: reused
                path: \(servers.nginxTLS("hello.txt").absoluteString)?serial=${serial}
                expect:
                  certificate:
                    serial-number: "${serial}"

            """, to: "certificate.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains("2 passed, 0 failed"), "\(result.output)")
    }

    @Test("an expired certificate, let through with allow-invalid-certificates, fails days-to-expiry; a field name is checked at load time; http has none")
    func expiredAndMistakes() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - trust-evaluation: { allow-invalid-certificates: true, validates-domain-name: false }
            requests:
              - name: expired
                path: \(servers.nginxHTTPSExpired.absoluteString)/hello.txt
                expect:
                  certificate: { days-to-expiry: { gt: 0 }, not-after: { matches: "^2020-01-02T" } }
              - name: plain
                path: \(servers.nginxHTTP.absoluteString)/hello.txt
                expect:
                  certificate: { subject: { exists: true } }

            """, to: "certificate.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", "--format", "json", path])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        let results = try #require(document["results"] as? [[String: Any]])
        let expired = results[0]["failures"] as? [[String: Any]] ?? []
        #expect(expired.map { $0["expectation"] as? String } == ["certificate days-to-expiry gt"], "\(expired)")
        #expect((expired.first?["actual"] as? String)?.hasPrefix("-") == true, "negative once expired: \(expired)")
        let plain = results[1]["failures"] as? [[String: Any]] ?? []
        #expect(plain.first?["actual"] as? String == "none: the request is not https", "\(plain)")

        let typo = try directory.write("requests:\n  - path: https://h/\n    expect:\n      certificate: { expiry: 1 }\n", to: "certificate.yaml")
        let invalid = try await SluiceProcess.launch(["validate", typo])
        #expect(invalid.status == 2)
        #expect(invalid.error.contains("unknown certificate field 'expiry'"), "\(invalid.error)")
    }
}
