import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

@Suite("Streamed response and request bodies over real sockets")
struct StreamingTests {
    /// Waits, a bounded time, until `condition` holds.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<3000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test(
        "the head comes back before the body; a reader that falls behind pauses the transfer, and the bytes match the file",
        arguments: ["HTTP/1.1", "HTTP/2 over TLS"]
    )
    func backpressure(version: String) async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let bufferSize = 256 << 10
        let url = version == "HTTP/1.1" ? servers.nginx("large.bin") : servers.nginxTLS("large.bin")
        let response = try await manager.stream(Request(url: url), bufferSize: bufferSize)
        #expect(response.status == 200)
        #expect(response.httpVersion == (version == "HTTP/1.1" ? .http1_1 : .http2))
        #expect(response.headers["Content-Length"] == "52428800")
        #expect(response.body.isEmpty)
        let body = try #require(response.bodyStream)
        // Nothing is read yet: the transfer fills the buffer, then pauses.
        #expect(try await eventually { body.pauses > 0 })
        #expect(body.bytesReceived <= Int64(bufferSize + (64 << 10)))
        var received = Data()
        var pieces = 0
        for try await piece in body {
            received.append(piece)
            pieces += 1
            if pieces % 64 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        let expected = try Data(contentsOf: URL(fileURLWithPath: servers.wwwRoot + "/large.bin"))
        #expect(received == expected)
        #expect(body.finalMetrics?.bytesReceived ?? 0 > 52_428_800)
        #expect(manager.tasks.isEmpty)
    }

    @Test("a reader that stops early ends the transfer: nginx logs fewer bytes sent than the file holds")
    func stopEarly() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let marker = "stop-early-\(UUID().uuidString)"
        let response = try await manager.stream(Request(url: servers.nginx("huge.bin?\(marker)")), bufferSize: 64 << 10)
        var read = 0
        for try await piece in try #require(response.bodyStream) {
            read += piece.count
            if read > 1 << 20 { break }
        }
        // nginx writes the line when the connection is closed under it.
        #expect(try await eventually { !servers.nginxLogLines(containing: marker).isEmpty })
        let line = try #require(servers.nginxLogLines(containing: marker).last)
        // Combined log format: `"GET /huge.bin?… HTTP/1.1" 200 BYTES "-" …`.
        let fields = line.components(separatedBy: "\" ")[1].split(separator: " ")
        let sent = try #require(Int(fields[1]))
        #expect(sent < 1 << 30)
    }

    @Test("cancelling the reading task ends the iteration with .cancelled; a dropped response ends its transfer too")
    func cancellation() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let response = try await manager.stream(Request(url: servers.nginx("slow/large.bin")))
        let body = try #require(response.bodyStream)
        let reader = Task {
            var count = 0
            do {
                for try await piece in body { count += piece.count }
                return "ended after \(count)"
            } catch {
                return "\((error as? SluiceError)?.kind.description ?? "\(error)")"
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        reader.cancel()
        #expect(await reader.value == "cancelled")

        let marker = "dropped-\(UUID().uuidString)"
        do {
            let dropped = try await manager.stream(Request(url: servers.nginx("huge.bin?\(marker)")))
            #expect(dropped.status == 200)
        }
        #expect(try await eventually { !servers.nginxLogLines(containing: marker).isEmpty })
        let line = try #require(servers.nginxLogLines(containing: marker).last)
        #expect(try #require(Int(line.components(separatedBy: "\" ")[1].split(separator: " ")[1])) < 1 << 30)
    }

    @Test("a body can be read once; a second iteration throws .invalidRequest")
    func readOnce() async throws {
        let servers = try TestServers.load()
        let response = try await servers.manager().stream(Request(url: servers.nginx("hello.txt")))
        let body = try #require(response.bodyStream)
        #expect(try await body.collect(upTo: 1 << 20) == Data("hello from nginx\n".utf8))
        var again = body.makeAsyncIterator()
        let error = await #expect(throws: SluiceError.self) { _ = try await again.next() }
        #expect(error?.kind == .invalidRequest)
    }

    @Test("redirects are followed and the final body streams; response decoding checks a streamed head and leaves the body")
    func throughStages() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager(stages: [ResponseDecoding(format: .json)])
        var components = URLComponents(url: servers.httpbin("redirect-to"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "url", value: servers.httpbin("stream/5").absoluteString)]
        let response = try await manager.stream(Request(url: components.url!))
        #expect(response.status == 200)
        #expect(response.decoded == nil)
        let text = String(decoding: try await response.bodyStream!.collect(upTo: 1 << 20), as: UTF8.self)
        #expect(text.split(separator: "\n").count == 5)

        let error = await #expect(throws: SluiceError.self) {
            _ = try await manager.stream(Request(url: servers.httpbin("status/404")))
        }
        #expect(error?.kind == .unacceptableStatus)
    }

    @Test("a body over maxResponseSize ends the iteration with .responseTooLarge")
    func sizeLimit() async throws {
        let servers = try TestServers.load()
        var request = Request(url: servers.httpbin("stream-bytes/200000?chunk_size=1000"))
        request.maxResponseSize = 50_000
        let response = try await servers.manager().stream(request)
        let error = await #expect(throws: SluiceError.self) { _ = try await response.bodyStream!.collect(upTo: 1 << 20) }
        #expect(error?.kind == .responseTooLarge)
    }

    // MARK: Uploads

    /// Pieces made on the fly, as a producer would.
    private func pieces(_ count: Int, size: Int) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for index in 0..<count {
                continuation.yield(Data(repeating: UInt8(index % 251), count: size))
            }
            continuation.finish()
        }
    }

    private func expectedBytes(_ count: Int, size: Int) -> Data {
        (0..<count).reduce(into: Data()) { data, index in data.append(Data(repeating: UInt8(index % 251), count: size)) }
    }

    @Test("an upload of unknown length goes chunked and arrives whole at httpbin")
    func chunkedUpload() async throws {
        let servers = try TestServers.load()
        let body = RequestBodyStream(pieces(40, size: 1000).map { Data($0.map { $0 % 26 + 97 }) })
        let response = try await servers.manager().send(Request(
            method: .post, url: servers.httpbin("anything"), headers: ["Content-Type": "text/plain"], body: .stream(body)
        ))
        let json = try response.jsonObject()
        let headers = try #require(json["headers"] as? [String: String])
        #expect(headers["Transfer-Encoding"] == "chunked")
        #expect(headers["Content-Length"] == nil)
        let expected = String(decoding: expectedBytes(40, size: 1000).map { $0 % 26 + 97 }, as: UTF8.self)
        #expect(json["data"] as? String == expected)
    }

    @Test("an upload with a declared length sends Content-Length; too few or too many bytes fail before the server takes them")
    func declaredLength() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let body = RequestBodyStream(AsyncStream { $0.yield(Data("abc".utf8)); $0.yield(Data("def".utf8)); $0.finish() }, length: 6)
        let response = try await manager.send(Request(method: .put, url: servers.httpbin("put"), body: .stream(body)))
        let json = try response.jsonObject()
        #expect((json["headers"] as? [String: String])?["Content-Length"] == "6")
        #expect(json["data"] as? String == "abcdef")

        for (length, words) in [(Int64(10), "ended after 6 of its declared 10"), (4, "more than its declared length of 4")] {
            let short = RequestBodyStream(AsyncStream { $0.yield(Data("abc".utf8)); $0.yield(Data("def".utf8)); $0.finish() }, length: length)
            let error = await #expect(throws: SluiceError.self) {
                _ = try await manager.send(Request(method: .put, url: servers.httpbin("put"), body: .stream(short)))
            }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message.contains(words) == true)
        }
    }

    @Test(
        "a body produced on the fly, of unknown length, uploads to nginx pulled as libcurl sends: 256 MiB chunked over HTTP/1.1, 16 MiB in HTTP/2 frames",
        arguments: ["HTTP/1.1", "HTTP/2 over TLS"]
    )
    func largeUpload(version: String) async throws {
        let servers = try TestServers.load()
        // nginx's HTTPS /upload spools the body to disk before it answers (see scripts/test-servers),
        // which holds its one worker up: the HTTP/2 body is kept smaller.
        let megabytes = version == "HTTP/1.1" ? 256 : 16
        let body = RequestBodyStream(pieces(megabytes * 16, size: 64 << 10))
        let url = version == "HTTP/1.1" ? servers.nginx("upload") : servers.nginxTLS("upload")
        let handle = try servers.manager().task(Request(method: .post, url: url, body: .stream(body)))
        let response = try await handle.value
        #expect(response.status == 204)
        #expect(response.httpVersion == (version == "HTTP/1.1" ? .http1_1 : .http2))
        #expect((response.metrics?.bytesSent ?? 0) > Int64(megabytes) << 20)
    }

    @Test("a producer that fails ends the request with .transport, its error kept")
    func failingProducer() async throws {
        struct Broken: Error {}
        let servers = try TestServers.load()
        let body = RequestBodyStream(AsyncThrowingStream<Data, any Error> { $0.yield(Data("part".utf8)); $0.finish(throwing: Broken()) })
        let error = await #expect(throws: SluiceError.self) {
            _ = try await servers.manager().send(Request(method: .post, url: servers.httpbin("post"), body: .stream(body)))
        }
        #expect(error?.kind == .transport)
        #expect(error?.underlying is Broken)
    }

    @Test("a streamed body cannot be sent twice: a 307 that keeps it fails with .invalidRequest, naming why")
    func sentOnce() async throws {
        let servers = try TestServers.load()
        var components = URLComponents(url: servers.httpbin("redirect-to"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "url", value: servers.httpbin("post").absoluteString), URLQueryItem(name: "status_code", value: "307"),
        ]
        let body = RequestBodyStream(AsyncStream { $0.yield(Data("once".utf8)); $0.finish() })
        let error = await #expect(throws: SluiceError.self) {
            _ = try await servers.manager().send(Request(method: .post, url: components.url!, body: .stream(body)))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("already sent once") == true)
    }

    // MARK: The runner

    @Test("`sluice send` streams 1 GiB to a slow reader on a pipe with flat memory")
    func gigabyteThroughSend() async throws {
        let servers = try TestServers.load()
        let process = Process()
        process.executableURL = SluiceProcess.executable
        process.arguments = ["send", "--metrics", servers.nginx("huge.bin").absoluteString]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The slow reader blocks in read(2): on a thread of its own, not the test pool's.
        let total = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            Thread {
                var total = 0
                var reads = 0
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                let descriptor = output.fileHandleForReading.fileDescriptor
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    total += count
                    reads += 1
                    // Slower than loopback: a pause every 8 MiB or so.
                    if reads % 128 == 0 { usleep(2000) }
                }
                done.resume(returning: total)
            }.start()
        }
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(report)")
        #expect(total == 1 << 30)
        let peakLine = try #require(report.split(separator: "\n").first { $0.hasPrefix("peak memory") })
        let peakKiB = try #require(Int(peakLine.split(separator: " ")[2]))
        // The body is 1 GiB; the process stays within what it needs to run at all.
        #expect(peakKiB < 64 * 1024, "\(report)")
    }
}
