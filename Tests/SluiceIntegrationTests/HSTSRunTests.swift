import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner

/// HSTS against nginx, reached as `wrong-host.example` (a certificate the test CA made for that
/// name) with `--connect-to`: port 443 to nginx's TLS server, whose `/sts` sends
/// `Strict-Transport-Security`, and port 80 to its plain server, whose `/sts` sends one that must be
/// ignored; `/which` says which one answered. curl's `--hsts` is the reference, file for file.
@Suite("HSTS over real sockets, beside curl --hsts")
struct HSTSRunTests {
    /// The flags that route wrong-host.example to nginx and trust its certificate.
    static func routing(_ servers: TestServers) throws -> [String] {
        let tls = try #require(servers.nginxHTTPSWrongHost.port)
        let plain = try #require(servers.nginxHTTP.port)
        return [
            "--cacert", servers.caBundle,
            "--connect-to", "wrong-host.example:443:127.0.0.1:\(tls)",
            "--connect-to", "wrong-host.example:80:127.0.0.1:\(plain)",
        ]
    }

    /// `sluice send`'s output for `arguments`.
    static func send(_ arguments: [String]) async throws -> String {
        let sent = try await SluiceProcess.launch(["send"] + arguments)
        #expect(sent.status == 0, "\(arguments): \(sent.error)")
        return sent.output
    }

    @Test("a host learned over https is then reached over https from an http URL; a header over plain http is ignored")
    func library() async throws {
        let servers = try TestServers.load()
        let routing = try Self.routing(servers)
        let store = HSTSStore()
        let transport = CurlTransport(configuration: CurlTransport.Configuration(caBundle: servers.caBundle))
        let manager = SessionManager(pipeline: try Pipeline(
            stages: [
                StrictTransportSecurity(store: store),
                ConnectionRouting(ConnectionOverrides(connectTo: try [routing[3], routing[5]].map(ConnectionOverrides.ConnectTo.init(curlSyntax:)))),
            ],
            transport: transport, redirects: nil
        ))
        func which() async throws -> (String, String?) {
            let response = try await manager.send(Request("http://wrong-host.example/which"))
            return (String(decoding: response.body, as: UTF8.self), response.url?.absoluteString)
        }
        #expect(try await which() == ("plain\n", "http://wrong-host.example/which"))
        _ = try await manager.send(Request("http://wrong-host.example/sts"))
        #expect(try await which() == ("plain\n", "http://wrong-host.example/which"), "the header came over plain http")
        _ = try await manager.send(Request("https://wrong-host.example/sts"))
        #expect(try await which() == ("tls\n", "https://wrong-host.example/which"))
        #expect(store.snapshot()["wrong-host.example"]?.includesSubdomains == true)
        await transport.shutdown()
    }

    @Test("curl's HSTS file upgrades sluice send, and sluice send's upgrades curl; neither learns over plain http")
    func sharedWithCurl() async throws {
        let servers = try TestServers.load()
        let routing = try Self.routing(servers)
        let directory = try TemporaryDirectory()
        let byCurl = directory.url.appendingPathComponent("curl.hsts").path
        let bySluice = directory.url.appendingPathComponent("sluice.hsts").path
        let plainOnly = directory.url.appendingPathComponent("plain.hsts").path

        #expect(try await CurlCLI.run(routing + ["http://wrong-host.example/which"]).output == "plain\n")
        #expect(try await Self.send(routing + ["http://wrong-host.example/which"]) == "plain\n")

        #expect(try await CurlCLI.run(routing + ["--hsts", byCurl, "https://wrong-host.example/sts"]).output == "tls\n")
        #expect(try await Self.send(routing + ["--hsts", byCurl, "http://wrong-host.example/which"]) == "tls\n")

        #expect(try await Self.send(routing + ["--hsts", bySluice, "https://wrong-host.example/sts"]) == "tls\n")
        #expect(try String(contentsOfFile: bySluice, encoding: .utf8).contains(".wrong-host.example \""))
        #expect(try await CurlCLI.run(routing + ["--hsts", bySluice, "http://wrong-host.example/which"]).output == "tls\n")

        #expect(try await Self.send(routing + ["--hsts", plainOnly, "http://wrong-host.example/sts"]) == "plain\n")
        #expect(try await Self.send(routing + ["--hsts", plainOnly, "http://wrong-host.example/which"]) == "plain\n")
        #expect(try HSTSFile.load(URL(fileURLWithPath: plainOnly)).isEmpty)
    }

    @Test("sluice run honours HSTS with no stage listed, and keeps it between runs with hsts: {file}; a bad file is a load error at its line")
    func pipelineRun() async throws {
        let servers = try TestServers.load()
        let routing = try Self.routing(servers)
        let directory = try TemporaryDirectory()
        let stages = """
            stages:
              - trust-evaluation: { ca-bundle: \(servers.caBundle) }
              - connection: { connect-to: ["\(routing[3])", "\(routing[5])"] }

            """
        let learnAndUse = try directory.write(stages + """
            requests:
              - { name: learn, path: "https://wrong-host.example/sts" }
              - { name: use, path: "http://wrong-host.example/which" }
            """, to: "learn.yaml")
        let run = try await SluiceProcess.launch(["run", "--format", "json", learnAndUse])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains(#""url": "https://wrong-host.example/which""#), "\(run.output)")

        let file = directory.url.appendingPathComponent("kept.hsts").path
        let withFile = stages + "  - hsts: { file: \(file) }\n"
        let first = try directory.write(withFile + "requests:\n  - { name: learn, path: \"https://wrong-host.example/sts\" }\n", to: "first.yaml")
        #expect(try await SluiceProcess.launch(["run", first]).status == 0)
        let second = try directory.write(withFile + "requests:\n  - { name: use, path: \"http://wrong-host.example/which\" }\n", to: "second.yaml")
        let verbose = try await SluiceProcess.launch(["run", "--verbose", second])
        #expect(verbose.status == 0 && verbose.output.contains("https://wrong-host.example/which"), "\(verbose.output)")

        try "not an hsts line\n".write(toFile: directory.url.appendingPathComponent("bad.hsts").path, atomically: true, encoding: .utf8)
        let bad = try directory.write("stages:\n  - hsts: { file: bad.hsts }\nrequests:\n  - path: http://a.test/\n", to: "bad.yaml")
        let refused = try await SluiceProcess.launch(["validate", bad])
        #expect(refused.status == 2, "\(refused.output)\(refused.error)")
        #expect(refused.error.contains("bad.yaml:2:13: error: line 1 of the HSTS file: 'not an hsts line' is not HOST"), "\(refused.error)")
    }
}
