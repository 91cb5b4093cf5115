import Foundation
import Testing
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

@Suite("Connections, metrics and events over real sockets")
struct ConnectionTests {
    @Test("keep-alive: the second request reuses the first one's connection, visible in metrics")
    func keepAliveReuse() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let first = try await manager.send(Request(url: servers.nginx("hello.txt")))
        let second = try await manager.send(Request(url: servers.nginx("hello.txt")))
        let firstMetrics = try #require(first.metrics)
        let secondMetrics = try #require(second.metrics)
        #expect(!firstMetrics.connectionReused)
        #expect(secondMetrics.connectionReused)
        #expect(secondMetrics.connect == .zero)
        #expect(firstMetrics.remotePort == secondMetrics.remotePort)
        #expect(firstMetrics.localPort != nil)
        #expect(firstMetrics.localPort == secondMetrics.localPort)
    }

    @Test("metrics carry libcurl's phases, bytes and peer")
    func metricsPhases() async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager().send(Request(url: servers.nginx("data.json"), headers: ["Accept-Encoding": "identity"]))
        let metrics = try #require(response.metrics)
        #expect(metrics.total > .zero)
        #expect(metrics.timeToPreTransfer <= metrics.timeToFirstByte)
        #expect(metrics.timeToFirstByte <= metrics.total)
        #expect(metrics.bytesReceived > Int64(response.body.count))
        #expect(metrics.bytesSent > 0)
        #expect(metrics.remoteAddress == "127.0.0.1")
        #expect(metrics.remotePort == servers.nginxHTTP.port)
        #expect(metrics.httpVersion == .http1_1)
    }

    @Test("monitors see each exchange on the wire: started, sent, first byte, finished")
    func eventsOverSocket() async throws {
        let servers = try TestServers.load()
        let recorder = EventRecorder()
        let manager = try servers.manager(monitors: [recorder], redirects: nil)
        let handle = manager.task(Request(method: .post, url: servers.httpbin("post"), body: .data(Data("x".utf8))))
        _ = try await handle.value
        let kinds = recorder.kinds(for: handle.id)
        #expect(kinds.count == 6)
        guard kinds.count == 6 else { return }
        guard case .created = kinds[0], case .transferStarted = kinds[1], case .requestSent = kinds[2],
            case .firstByte(status: 200) = kinds[3], case .transferFinished(let metrics?) = kinds[4],
            case .completed(status: 200) = kinds[5]
        else {
            Issue.record("unexpected events \(kinds)")
            return
        }
        #expect(metrics.total > .zero)
        #expect(handle.context.metrics.transfers == [metrics])
        #expect(handle.context.metrics.duration != nil)
    }

    @Test("a refused connection is a .connect error naming the transport and the URL")
    func connectionRefused() async throws {
        let port = try LoopbackSocket.unusedPort()
        let url = URL(string: "http://127.0.0.1:\(port)/")!
        let error = await #expect(throws: SluiceError.self) {
            try await SessionManager(pipeline: try Pipeline()).send(Request(url: url))
        }
        #expect(error?.kind == .connect)
        #expect(error?.stage == "transport")
        #expect(error?.url == url)
    }

    @Test("requests the transport cannot send are .invalidRequest, before any connection", arguments: [
        "relative/path", "ftp://127.0.0.1/file", "http:///no-host",
    ])
    func invalidRequests(url: String) async throws {
        let error = await #expect(throws: SluiceError.self) {
            try await SessionManager(pipeline: try Pipeline()).send(Request(url: URL(string: url)!))
        }
        #expect(error?.kind == .invalidRequest)
    }

    @Test("a method that is not a token is refused, so nothing can be injected into the request line")
    func methodInjectionRefused() async throws {
        let servers = try TestServers.load()
        let error = await #expect(throws: SluiceError.self) {
            try await servers.manager().send(Request(method: HTTPMethod("GET / HTTP/1.1\r\nX-Injected: yes\r\n"), url: servers.httpbin("get")))
        }
        #expect(error?.kind == .invalidRequest)
        // A custom token goes out as is; httpbin parses the request line and refuses the method.
        let custom = try await servers.manager().send(Request(method: "PROPFIND", url: servers.httpbin("anything")))
        #expect(custom.status == 405)
        #expect(custom.headers["Allow"] != nil)
    }

    @Test(
        "a header field that is not RFC 9110's is refused before anything is sent, so nothing can be injected or read two ways: a name that is not a token, a value with a control character but a tab",
        arguments: [
            ("X-Evil", "a\r\nInjected: yes", "its value holds byte 0x0D"), ("X-Evil", "a\u{1}b", "its value holds byte 0x01"),
            ("X-Evil", "a\u{7F}", "its value holds byte 0x7F"), ("X\tA", "x", "its name holds byte 0x09"), ("X(A)", "x", "its name holds '('"),
            ("Caf\u{E9}", "x", "its name holds byte 0xC3"), ("", "x", "a field name cannot be empty"),
        ]
    )
    func headerFieldsRefused(name: String, value: String, problem: String) async throws {
        let servers = try TestServers.load()
        var request = Request(url: servers.httpbin("get"))
        request.headers.add(name: name, value: value)
        let error = await #expect(throws: SluiceError.self) { try await servers.manager().send(request) }
        #expect(error?.kind == .invalidRequest && error?.message.contains(problem) == true, "\(error.map(String.init(describing:)) ?? "")")
    }

    @Test("a tab and UTF-8 text (obs-text) in a value go as they are, as curl sends them")
    func headerFieldsSent() async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager().send(Request(url: servers.httpbin("headers"), headers: ["X-Text": "a\tb caf\u{E9}"]))
        #expect(response.status == 200)
    }
}
