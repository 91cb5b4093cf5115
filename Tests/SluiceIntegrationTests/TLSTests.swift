import Foundation
import Testing
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

@Suite("TLS against nginx with generated certificates")
struct TLSTests {
    @Test("HTTPS goes over HTTP/2 when the server offers it, with the TLS phase measured")
    func http2() async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager().send(Request(url: servers.nginxTLS("hello.txt")))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello from nginx\n")
        #expect(response.httpVersion == .http2)
        let metrics = try #require(response.metrics)
        #expect(metrics.httpVersion == .http2)
        #expect(metrics.tlsHandshake > .zero)
    }

    @Test("concurrent HTTPS requests share one multiplexed HTTP/2 connection")
    func multiplexing() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let responses = try await withThrowingTaskGroup(of: Response.self) { group in
            for _ in 0..<20 {
                group.addTask { try await manager.send(Request(url: servers.nginxTLS("data.json"))) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.allSatisfy { $0.status == 200 && $0.httpVersion == .http2 })
        #expect(responses.filter { $0.metrics?.connectionReused == false }.count == 1)
    }

    @Test("secure by default: the system trust store rejects the test CA")
    func defaultRejectsPrivateCA() async throws {
        let servers = try TestServers.load()
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: CurlTransport()))
        let error = await #expect(throws: SluiceError.self) {
            try await manager.send(Request(url: servers.nginxTLS("hello.txt")))
        }
        #expect(error?.kind == .tls)
        #expect(error?.stage == "transport")
        #expect(error?.curlCode != nil)
    }

    @Test("a certificate for another host name is rejected even from a trusted CA")
    func wrongHostRejected() async throws {
        let servers = try TestServers.load()
        let error = await #expect(throws: SluiceError.self) {
            try await servers.manager().send(Request(url: servers.nginxHTTPSWrongHost.appendingPathComponent("hello.txt")))
        }
        #expect(error?.kind == .tls)
        #expect(error?.message.contains("localhost") == true)
    }

    @Test("a self-signed certificate is rejected")
    func selfSignedRejected() async throws {
        let servers = try TestServers.load()
        let error = await #expect(throws: SluiceError.self) {
            try await servers.manager().send(Request(url: servers.nginxHTTPSSelfSigned.appendingPathComponent("hello.txt")))
        }
        #expect(error?.kind == .tls)
    }

    @Test("a trust answer that rejects stops the request before one byte of it reaches the server")
    func trustHookRejects() async throws {
        let servers = try TestServers.load()
        let evaluator = TrustRecorder(decision: .reject(reason: "pin mismatch for localhost"))
        let manager = try servers.manager(trustRecorder: evaluator)
        let marker = "never-sent-\(UUID().uuidString).txt"
        let error = await #expect(throws: SluiceError.self) {
            try await manager.send(Request(url: servers.nginxTLS(marker)))
        }
        #expect(error?.kind == .trustEvaluation)
        #expect(error?.message == "pin mismatch for localhost")
        let call = try #require(evaluator.calls.first)
        #expect(call.host == "localhost")
        #expect(call.scheme == "https")
        #expect(call.remote == "127.0.0.1")
        #expect(call.showsCertificates)
        let log = try String(contentsOfFile: servers.nginxAccessLog, encoding: .utf8)
        #expect(!log.contains(marker))
    }

    @Test("trust is asked for every exchange, on a reused connection too")
    func trustHookOnReusedConnection() async throws {
        let servers = try TestServers.load()
        let evaluator = TrustRecorder()
        let manager = try servers.manager(trustRecorder: evaluator)
        let first = try await manager.send(Request(url: servers.nginxTLS("hello.txt")))
        let second = try await manager.send(Request(url: servers.nginxTLS("hello.txt")))
        #expect(first.metrics?.connectionReused == false)
        #expect(second.metrics?.connectionReused == true)
        #expect(evaluator.calls.count == 2)
        #expect(evaluator.calls.allSatisfy { $0.showsCertificates })
    }
}
