import Foundation
import Testing
@testable import SluiceCore

/// curl's `--resolve` and `--connect-to` syntax, read as curl reads it, and which override a
/// connection takes.
@Suite("Connection overrides: curl's syntax and which entry applies")
struct ConnectionOverridesTests {
    @Test("--resolve HOST:PORT:ADDRESS, IPv6 in brackets or not; a wildcard, a list of addresses, a name for an address, a bad port are refused")
    func resolveSyntax() throws {
        let v4 = try ConnectionOverrides.Resolve(curlSyntax: "api.example.test:443:127.0.0.1")
        #expect(v4.host == "api.example.test" && v4.port == 443 && v4.address == "127.0.0.1")
        let v6 = try ConnectionOverrides.Resolve(curlSyntax: "api.example.test:8443:[::1]")
        #expect(v6.address == "::1" && v6.description == "api.example.test:8443:[::1]")
        #expect(try ConnectionOverrides.Resolve(curlSyntax: "a.test:80:::1").address == "::1")
        for bad in ["a.test:443", "a.test:https:127.0.0.1", "*:443:127.0.0.1", "a.test:443:127.0.0.1,127.0.0.2", "a.test:443:localhost", "a.test:0:127.0.0.1", "a.test:65536:127.0.0.1", ":443:127.0.0.1"] {
            #expect(throws: SluiceError.self, "\(bad)") { try ConnectionOverrides.Resolve(curlSyntax: bad) }
        }
    }

    @Test("--connect-to HOST:PORT:TO-HOST:TO-PORT, any part empty, IPv6 hosts in brackets")
    func connectToSyntax() throws {
        let full = try ConnectionOverrides.ConnectTo(curlSyntax: "a.test:443:b.test:8443")
        #expect(full.host == "a.test" && full.port == 443 && full.toHost == "b.test" && full.toPort == 8443)
        let any = try ConnectionOverrides.ConnectTo(curlSyntax: "::b.test:")
        #expect(any.host == nil && any.port == nil && any.toHost == "b.test" && any.toPort == nil)
        let v6 = try ConnectionOverrides.ConnectTo(curlSyntax: "[::1]:80:[fe80::1]:8080")
        #expect(v6.host == "::1" && v6.toHost == "fe80::1" && v6.description == "[::1]:80:[fe80::1]:8080")
        #expect(try ConnectionOverrides.ConnectTo(toHost: "::1").description == "::[::1]:")
        for bad in ["a.test:443:b.test", "a.test:x:b.test:1", "a.test:1:b.test:99999", "[::1:80:a:1"] {
            #expect(throws: SluiceError.self, "\(bad)") { try ConnectionOverrides.ConnectTo(curlSyntax: bad) }
        }
    }

    @Test("the target of a connection: resolve first, then the first connect-to that applies; names compared without ASCII case; none for a socket")
    func target() throws {
        let overrides = ConnectionOverrides(
            resolve: [try .init(curlSyntax: "API.example.test:443:10.0.0.1")],
            connectTo: [try .init(curlSyntax: "api.example.test::10.0.0.2:"), try .init(curlSyntax: "::10.0.0.3:9000")]
        )
        #expect(overrides.target(host: "api.example.test", port: 443)! == ("10.0.0.1", 443))
        #expect(overrides.target(host: "api.example.test", port: 80)! == ("10.0.0.2", 80))
        #expect(overrides.target(host: "other.test", port: 80)! == ("10.0.0.3", 9000))
        #expect(ConnectionOverrides().target(host: "[::1]", port: 80)! == ("::1", 80))
        #expect(ConnectionOverrides(unixSocketPath: "/run/docker.sock").target(host: "docker", port: 80) == nil)
        // A name that only looks the same (Kelvin sign, U+212A) is another name.
        #expect(overrides.target(host: "api.example.tes\u{212A}", port: 443)! != ("10.0.0.1", 443))
    }
}
