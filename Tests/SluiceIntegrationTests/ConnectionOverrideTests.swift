import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner

/// Unix domain sockets and name overrides (curl's `--unix-socket`, `--resolve`, `--connect-to`)
/// against nginx: on its socket, and with a certificate for a made-up name; curl run on the same
/// input as the reference.
@Suite("Connections to a Unix socket, or to another address for a name, against nginx and beside curl")
struct ConnectionOverrideTests {
    static func manager(_ stages: [any Stage] = [], transport: CurlTransport = CurlTransport.shared) throws -> SessionManager {
        SessionManager(pipeline: try Pipeline(stages: stages, transport: transport, redirects: nil))
    }

    static func text(_ response: Response) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    /// The diagnostics of loading `text` as `c.yaml`.
    static func loadErrors(_ text: String) -> [String] {
        do {
            _ = try PipelineFile.load(text: text, path: "c.yaml")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    /// The message of the error building a pipeline of `stages` throws; empty when it builds.
    static func buildError(_ stages: [any Stage]) -> String {
        do {
            _ = try Pipeline(stages: stages, transport: InMemoryTransport { Response(status: 200, url: $0.url) })
            return ""
        } catch {
            return error.message
        }
    }

    @Test("a socket carries the request with the URL's Host; connections over it and over TCP to the same host and port are never mixed")
    func unixSocket() async throws {
        let servers = try TestServers.load()
        let url = servers.nginxHTTP.appendingPathComponent("socket")
        let socket = ConnectionOverrides(unixSocketPath: servers.nginxUnixSocket)
        let manager = try Self.manager()
        var overSocket = Request(url: url)
        overSocket.connectionOverrides = socket
        let first = try await manager.send(overSocket)
        #expect(first.status == 200 && Self.text(first) == "socket host=127.0.0.1\n")
        // The TCP server has no /socket: a request without the override must not take the socket's
        // connection, nor the next socket request the TCP one.
        #expect(try await manager.send(Request(url: url)).status == 404)
        let again = try await manager.send(overSocket)
        #expect(again.status == 200 && Self.text(again) == "socket host=127.0.0.1\n")
        #expect(again.metrics?.connectionReused == true)

        let routed = try Self.manager([ConnectionRouting(ConnectionOverrides(unixSocketPath: servers.nginxUnixSocket))])
        let named = try await routed.send(Request("http://docker.test/socket"))
        #expect(Self.text(named) == "socket host=docker.test\n")
        let file = try await routed.send(Request("http://docker.test/hello.txt"))
        #expect(Self.text(file) == "hello from nginx\n")
        var own = Request(url: url)
        own.connectionOverrides = ConnectionOverrides()
        #expect(try await routed.send(own).status == 404, "a request's own overrides (none) win over the stage's")
    }

    @Test("--resolve: a made-up name reaches 127.0.0.1 with its certificate checked and its pins kept; the address never enters the shared DNS cache")
    func resolve() async throws {
        let servers = try TestServers.load()
        let port = try #require(servers.nginxHTTPSWrongHost.port)
        let url = URL(string: "https://wrong-host.example:\(port)/hello.txt")!
        let transport = CurlTransport(configuration: CurlTransport.Configuration(caBundle: servers.caBundle))
        let manager = try Self.manager(transport: transport)
        var request = Request(url: url)
        request.connectionOverrides = ConnectionOverrides(resolve: [try .init(curlSyntax: "wrong-host.example:\(port):127.0.0.1")])
        let response = try await manager.send(request)
        #expect(response.status == 200 && Self.text(response) == "hello from nginx\n")
        #expect(response.metrics?.remoteAddress == "127.0.0.1")

        // The same name without the override is looked up for real, and fails: the address went to
        // this request's connection only, not to the DNS cache every transfer of the transport shares.
        await #expect(throws: SluiceError.self) { try await manager.send(Request(url: url)) }
        do {
            _ = try await manager.send(Request(url: url))
        } catch let error as SluiceError {
            #expect(error.kind == .dns, "\(error)")
        }

        var pinned = request
        pinned.trustPolicy = try TrustPolicy(pinning: .publicKey, pins: try TrustPin.pins(from: servers.pins.wrongHost), caBundle: servers.caBundle)
        #expect(try await manager.send(pinned).status == 200)
        pinned.trustPolicy = try TrustPolicy(pinning: .publicKey, pins: try TrustPin.pins(from: servers.pins.localhost), caBundle: servers.caBundle)
        await #expect(throws: SluiceError.self, "a pin of another key refuses the connection, override or not") { try await manager.send(pinned) }

        var wrongName = Request(url: URL(string: "https://other.example:\(port)/hello.txt")!)
        wrongName.connectionOverrides = ConnectionOverrides(resolve: [try .init(curlSyntax: "other.example:\(port):127.0.0.1")])
        do {
            _ = try await manager.send(wrongName)
            Issue.record("a certificate for wrong-host.example passed for other.example")
        } catch let error as SluiceError {
            #expect(error.kind == .tls, "the host check still goes by the URL's name: \(error)")
        }
        await transport.shutdown()
    }

    @Test("--connect-to: any port of a name, or a name and port, connect elsewhere; the first entry that applies wins")
    func connectTo() async throws {
        let servers = try TestServers.load()
        let port = try #require(servers.nginxHTTPSWrongHost.port)
        let transport = CurlTransport(configuration: CurlTransport.Configuration(caBundle: servers.caBundle))
        let manager = try Self.manager(transport: transport)
        var request = Request("https://wrong-host.example/hello.txt")
        request.connectionOverrides = ConnectionOverrides(connectTo: [
            try .init(curlSyntax: "wrong-host.example:443:127.0.0.1:\(port)"),
            try .init(curlSyntax: "::127.0.0.1:1"),
        ])
        let response = try await manager.send(request)
        #expect(response.status == 200 && Self.text(response) == "hello from nginx\n")
        await transport.shutdown()
    }

    @Test("sluice send --unix-socket, --resolve and --connect-to answer as curl does with the same flags")
    func sameAsCurl() async throws {
        let servers = try TestServers.load()
        let port = try #require(servers.nginxHTTPSWrongHost.port)
        let cases: [[String]] = [
            ["--unix-socket", servers.nginxUnixSocket, "http://docker.test/socket"],
            ["--unix-socket", servers.nginxUnixSocket, "http://docker.test/hello.txt"],
            ["--cacert", servers.caBundle, "--resolve", "wrong-host.example:\(port):127.0.0.1", "https://wrong-host.example:\(port)/hello.txt"],
            ["--cacert", servers.caBundle, "--connect-to", "wrong-host.example:443:127.0.0.1:\(port)", "https://wrong-host.example/hello.txt"],
            ["--cacert", servers.caBundle, "--connect-to", "wrong-host.example::localhost:\(port)", "https://wrong-host.example/hello.txt"],
            // The certificate is for wrong-host.example: another name fails the host check in both (60).
            ["--cacert", servers.caBundle, "--resolve", "other.example:\(port):127.0.0.1", "https://other.example:\(port)/hello.txt"],
        ]
        for arguments in cases {
            let reference = try await CurlCLI.run(arguments)
            let sent = try await SluiceProcess.launch(["send"] + arguments)
            #expect(sent.status == reference.status, "\(arguments): curl \(reference.status), sluice \(sent.status) \(sent.error)")
            #expect(sent.output == reference.output, "\(arguments)")
        }
        #expect(try await CurlCLI.run(cases[0]).output == "socket host=docker.test\n")
    }

    @Test("a socket beside a proxy, and a malformed entry, are refused before anything is sent: in Swift, YAML and on the command line")
    func refused() async throws {
        let servers = try TestServers.load()
        let socket = ConnectionRouting(ConnectionOverrides(unixSocketPath: servers.nginxUnixSocket))
        let proxy = ProxySelection(route: .through(try Proxy(url: servers.proxy)))
        #expect(throws: SluiceError.self) { try Pipeline(stages: [proxy, socket], transport: InMemoryTransport { Response(status: 200, url: $0.url) }) }
        let message = Self.buildError([socket, proxy])
        #expect(message.contains(servers.nginxUnixSocket) && message.contains("stage proxy"), "\(message)")
        var both = Request(url: servers.nginxHTTP)
        both.connectionOverrides = ConnectionOverrides(unixSocketPath: servers.nginxUnixSocket)
        both.proxyRoute = .through(try Proxy(url: servers.proxy))
        await #expect(throws: SluiceError.self) { try await ConnectionOverrideTests.manager().send(both) }

        let sent = try await SluiceProcess.launch(["send", "--unix-socket", servers.nginxUnixSocket, "-x", servers.proxy.absoluteString, "http://docker.test/socket"])
        #expect(sent.status == 2 && sent.error.contains("--unix-socket") && sent.error.contains("--proxy"), "\(sent.error)")
        for bad in [["--resolve", "wrong-host.example:443"], ["--resolve", "*:443:127.0.0.1"], ["--resolve", "a.test:443:not-an-address"], ["--connect-to", "a:b:c:d"]] {
            let refused = try await SluiceProcess.launch(["send"] + bad + ["http://a.test/"])
            #expect(refused.status == 2 && refused.error.contains(bad[0]), "\(bad): \(refused.error)")
            #expect(refused.error.contains("Usage: sluice send ") && refused.error.contains("See 'sluice send --help'"), "send's own usage, not the root's: \(refused.error)")
        }

        let errors = Self.loadErrors("""
            stages:
              - connection: { resolve: ["a.test:443"] }
              - proxy: { url: "http://127.0.0.1:1" }
            requests:
              - path: http://a.test/
                connection: { connect-to: ["x:y:z:w"], unix-socket: [1] }
            """)
        #expect(errors.contains { $0.hasPrefix("c.yaml:2:") && $0.contains("'a.test:443' is not HOST:PORT:ADDRESS") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("c.yaml:6:") && $0.contains("connect-to") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("c.yaml:6:") && $0.contains("unix-socket") }, "\(errors)")
    }

    @Test("a pipeline file routes through its connection stage, a request through its own connection:, with variables; curl export keeps the flags")
    func pipelineFile() async throws {
        let servers = try TestServers.load()
        let port = try #require(servers.nginxHTTPSWrongHost.port)
        let file = try PipelineFile.load(text: """
            variables:
              socket: \(servers.nginxUnixSocket)
            stages:
              - connection: { unix-socket: "${socket}" }
              - trust-evaluation: { ca-bundle: \(servers.caBundle) }
            requests:
              - name: over-socket
                path: http://docker.test/socket
                expect: { status: 200 }
              - name: by-name
                path: https://wrong-host.example:\(port)/hello.txt
                connection: { resolve: ["wrong-host.example:\(port):127.0.0.1"] }
                expect: { status: 200 }
            """, path: "connection.yaml")
        let runner = try PipelineRunner(file: file, transport: CurlTransport.shared)
        let results = try await runner.run()
        #expect(results.map(\.ok) == [true, true], "\(results.map(\.failures)) \(results.map(\.error))")
        let prepared = try await runner.prepare()
        let request = try prepared[1].result.get()
        let command = CurlExport.command(for: request, parts: [], redirects: nil, redactor: .none)
        #expect(command.contains("--resolve 'wrong-host.example:\(port):127.0.0.1'") || command.contains("--resolve wrong-host.example:\(port):127.0.0.1"), "\(command)")
        let socketRequest = try prepared[0].result.get()
        #expect(CurlExport.command(for: socketRequest, parts: [], redirects: nil, redactor: .none).contains("--unix-socket"))
    }
}
