import Foundation

import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

@Suite("Uploads, downloads and content encoding over real sockets")
struct TransferTests {
    @Test("a 1 MiB file uploads streamed from disk, byte for byte")
    func uploadFromFile() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = directory.file("upload.txt")
        let content = String(repeating: "0123456789abcdef", count: 65536)
        try Data(content.utf8).write(to: file)
        let manager = try servers.manager()
        let handle = manager.task(Request(method: .put, url: servers.httpbin("put"), headers: ["Content-Type": "text/plain"], body: .file(file)))
        let response = try await handle.value
        #expect(response.status == 200)
        let json = try response.jsonObject()
        #expect((json["headers"] as? [String: String])?["Content-Length"] == "1048576")
        #expect(json["data"] as? String == content)
        #expect(handle.progress.current.upload == TransferProgress(completed: 1_048_576, expected: 1_048_576))
        let metrics = try #require(response.metrics)
        #expect(metrics.bytesSent > 1_048_576)
    }

    @Test("uploading a file that does not exist fails before anything is sent, naming the file")
    func missingUploadFile() async throws {
        let servers = try TestServers.load()
        let error = await #expect(throws: SluiceError.self) {
            try await servers.manager().upload(Request(method: .post, url: servers.httpbin("post")), fromFile: URL(fileURLWithPath: "/nonexistent/file.bin"))
        }
        #expect(error?.kind == .fileIO)
        #expect(error?.message.contains("/nonexistent/file.bin") == true)
    }

    @Test("a 50 MiB download streams to a file, with progress observed, and matches the source")
    func largeDownloadToFile() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let destination = directory.file("large.bin")
        let manager = try servers.manager()
        let handle = manager.task(Request(url: servers.nginx("large.bin"), destination: .file(destination)))
        let updates = Locked<[TaskProgress]>([])
        handle.progress.onChange { progress in updates.withLock { $0.append(progress) } }
        let response = try await handle.value
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.bodyFile == destination)
        #expect(FileManager.default.contentsEqual(atPath: destination.path, andPath: servers.wwwRoot + "/large.bin"))
        #expect(directory.contents == ["large.bin"])
        let seen = updates.withLock { $0 }
        #expect(seen.count > 2)
        #expect(seen.contains { $0.download.completed > 0 && $0.download.completed < 50 << 20 })
        #expect(seen.last?.download == TransferProgress(completed: 50 << 20, expected: 50 << 20))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.download.completed <= $1.download.completed })
    }

    @Test("progress works without Content-Length (a chunked response)")
    func progressWithoutContentLength() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let handle = manager.task(Request(url: servers.httpbin("stream-bytes/100000?chunk_size=10000")))
        let updates = handle.progress.updates()
        let response = try await handle.value
        #expect(response.headers["Content-Length"] == nil)
        #expect(response.body.count == 100_000)
        var all: [TaskProgress] = []
        for await progress in updates { all.append(progress) }
        #expect(all.last?.download == TransferProgress(completed: 100_000, expected: 100_000))
        #expect(all.dropLast().allSatisfy { $0.download.expected == nil })
    }

    @Test("upload(_:from:) sends Data, download(_:to:) streams the body to a file")
    func convenienceCalls() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let uploaded = try await manager.upload(Request(method: .post, url: servers.httpbin("post")), from: Data("payload".utf8))
        #expect(try uploaded.jsonObject()["data"] as? String == "payload")

        let directory = try TemporaryDirectory()
        let destination = directory.file("data.json")
        let downloaded = try await manager.download(Request(url: servers.nginx("data.json")), to: destination)
        #expect(downloaded.bodyFile == destination)
        #expect(FileManager.default.contents(atPath: destination.path) == FileManager.default.contents(atPath: servers.wwwRoot + "/data.json"))
    }

    @Test("brotli and deflate responses are decoded transparently", arguments: ["brotli", "deflate"])
    func otherEncodings(encoding: String) async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager().send(Request(url: servers.httpbin(encoding)))
        #expect(response.headers["Content-Encoding"] == (encoding == "brotli" ? "br" : "deflate"))
        #expect(try response.jsonObject()[encoding == "brotli" ? "brotli" : "deflated"] as? Bool == true)
    }

    @Test("a gzip response is decoded transparently", arguments: ["httpbin", "nginx"])
    func gzipDecoded(server: String) async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let url = server == "httpbin" ? servers.httpbin("gzip") : servers.nginx("data.json")
        let response = try await manager.send(Request(url: url))
        #expect(response.headers["Content-Encoding"] == "gzip")
        let json = try response.jsonObject()
        if server == "httpbin" {
            #expect(json["gzipped"] as? Bool == true)
            #expect((json["headers"] as? [String: String])?["Accept-Encoding"]?.contains("gzip") == true)
        } else {
            #expect(response.body == FileManager.default.contents(atPath: servers.wwwRoot + "/data.json"))
            #expect(try #require(response.metrics).bytesReceived < Int64(response.body.count))
        }
    }

    @Test("a request's own Accept-Encoding is sent as written")
    func ownAcceptEncoding() async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager().send(Request(url: servers.nginx("data.json"), headers: ["Accept-Encoding": "identity"]))
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.body == FileManager.default.contents(atPath: servers.wwwRoot + "/data.json"))
    }
}
