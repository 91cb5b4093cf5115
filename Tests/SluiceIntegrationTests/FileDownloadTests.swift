import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl

/// One owner of a download (`FileDownload`): whatever answers a download, the transport's stream,
/// the cache or a stage, its body reaches the file by the same rules, resumed or not.
@Suite("A download has one owner, whoever answers it")
struct FileDownloadTests {
    /// A stage that answers every request itself, its body in memory.
    private struct Answering: Stage {
        let body: String
        func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
            Response(status: 200, body: Data(body.utf8), url: request.url)
        }
    }

    /// A manager whose transport redirects `/start` to `/final`, with a body of its own, and
    /// answers `/final` with `final`.
    private static func redirecting(_ final: @escaping @Sendable (Request) -> Response) throws -> SessionManager {
        SessionManager(pipeline: try Pipeline(transport: InMemoryTransport { request in
            guard request.url.path == "/start" else { return final(request) }
            return Response(status: 302, headers: ["Location": "/final"], body: Data("redirect body".utf8), url: request.url)
        }))
    }

    @Test("a resumed download whose range the cache holds is appended from the cache, with no exchange: the kept bytes stay, the file is whole")
    func resumedFromTheCache() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let tag = "t=\(UUID().uuidString)"
        let url = servers.nginx("cached/hello.txt?\(tag)")
        let manager = try servers.manager(stages: [ResponseCaching()])
        let whole = try await manager.send(Request(url: url)).body
        #expect(whole == Data("hello from nginx\n".utf8))

        let partial = directory.file("hello.part")
        try whole.prefix(6).write(to: partial)
        let destination = directory.file("hello.txt")
        let resumeData = DownloadResumeData(url: url, destination: destination, partialFile: partial, offset: 6)
        let handle = manager.task(resumeData.request)
        let response = try await handle.value
        #expect(response.status == 206 && response.cacheOutcome == .hit && response.bodyFile == destination)
        #expect(handle.context.metrics.transfers.isEmpty, "the part came from the cache")
        #expect(try Data(contentsOf: destination) == whole)
        #expect(!FileManager.default.fileExists(atPath: partial.path), "the kept bytes were put in place")
        let logged = try String(contentsOfFile: servers.nginxAccessLog, encoding: .utf8).split(separator: "\n").filter { $0.contains(tag) }
        #expect(logged.count == 1)
    }

    @Test("a stage that answers a download from memory: its body is the file's, not an empty file; into a FIFO too")
    func answeredByAStage() async throws {
        let directory = try TemporaryDirectory()
        let manager = SessionManager(pipeline: try Pipeline(stages: [Answering(body: "from the stage\n")], transport: InMemoryTransport { _ in Response(status: 500) }))
        let file = directory.file("answer.txt")
        let response = try await manager.download(Request(url: URL(string: "http://example.test/a")!), to: file)
        #expect(response.bodyFile == file && response.body.isEmpty)
        #expect(try String(contentsOf: file, encoding: .utf8) == "from the stage\n")

        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let reader = FIFOReader(fifo)
        _ = try await manager.download(Request(url: URL(string: "http://example.test/b")!), to: URL(fileURLWithPath: fifo))
        #expect(await reader.text() == "from the stage\n")
    }

    @Test("a stage answering a resumed download with a 206 from memory: appended after the kept bytes, as the network's would be")
    func resumedAnsweredByAStage() async throws {
        let directory = try TemporaryDirectory()
        struct Part: Stage {
            func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                Response(status: 206, headers: ["Content-Range": "bytes 6-10/11"], body: Data("world".utf8), url: request.url)
            }
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [Part()], transport: InMemoryTransport { _ in Response(status: 500) }))
        let partial = directory.file("greeting.part")
        try Data("hello ".utf8).write(to: partial)
        let destination = directory.file("greeting.txt")
        let response = try await manager.download(resumingFrom: DownloadResumeData(url: URL(string: "http://example.test/greeting")!, destination: destination, partialFile: partial, offset: 6))
        #expect(response.status == 206 && response.bodyFile == destination)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "hello world")
    }

    @Test("a redirect's body never reaches the file: only the final response's does")
    func redirectBodyNeverReachesTheFile() async throws {
        let directory = try TemporaryDirectory()
        let manager = try Self.redirecting { request in
            Response(status: 200, headers: ["ETag": "\"v1\""], body: Data("final body".utf8), url: request.url)
        }
        let file = directory.file("out.txt")
        _ = try await manager.download(Request(url: URL(string: "http://example.test/start")!), to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "final body")
    }

    @Test("a final hop cut mid-body: resume data names the final URL, the destination, the bytes kept and the validator; the destination stays as it was")
    func cutHopResumeData() async throws {
        let directory = try TemporaryDirectory()
        let manager = try Self.redirecting { request in
            let (stream, writer) = ResponseBodyStream.makeStream(bufferSize: 1 << 16, url: request.url)
            Task {
                try await writer.write(Data("first part".utf8))
                writer.fail(SluiceError(kind: .transport, stage: "transport", url: request.url, message: "connection reset"))
            }
            var response = Response(status: 200, headers: ["ETag": "\"v1\""], url: request.url)
            response.bodyStream = stream
            return response
        }
        let file = directory.file("out.txt")
        try Data("as it was".utf8).write(to: file)
        let error = await #expect(throws: SluiceError.self) {
            try await manager.download(Request(url: URL(string: "http://example.test/start")!), to: file, resumable: true)
        }
        let resumeData = try #require(error?.resumeData)
        #expect(resumeData.url.absoluteString == "http://example.test/final" && resumeData.destination == file)
        #expect(resumeData.offset == 10 && resumeData.entityTag == "\"v1\"")
        #expect(try String(contentsOf: resumeData.partialFile, encoding: .utf8) == "first part")
        #expect(try String(contentsOf: file, encoding: .utf8) == "as it was")

        let plain = await #expect(throws: SluiceError.self) {
            try await manager.download(Request(url: URL(string: "http://example.test/start")!), to: directory.file("plain.txt"))
        }
        #expect(plain?.resumeData == nil, "not resumable: nothing kept")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [resumeData.partialFile.lastPathComponent, "out.txt"].sorted())
    }
}
