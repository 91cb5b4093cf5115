import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl

/// Downloads cut in the middle and resumed against nginx (ranges, `ETag`, `Last-Modified`): the
/// library's resume data and `sluice send -C -`, each file compared byte for byte with the
/// original, and curl's `-C -` run on the same files as the reference.
@Suite("Resuming downloads against nginx, beside curl -C -")
struct ResumeDownloadTests {
    /// The bytes of a file nginx serves: `medium.bin` (3 MiB) unless named.
    static func original(_ servers: TestServers, _ name: String = "medium.bin") throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: servers.wwwRoot).appendingPathComponent(name))
    }

    /// A resumable download of nginx's `large.bin` (50 MiB) held to 1 MiB/s, cancelled after
    /// 256 KiB: its resume data. The cancel comes from a progress handler, which a loaded machine
    /// may run seconds late; 50 s of transfer leave it room. (nginx's own `limit_rate` is no cut:
    /// on loopback its first burst fills the socket buffers, several MiB.)
    static func cutDownload(_ servers: TestServers, to file: URL) async throws -> DownloadResumeData {
        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport.shared))
        var request = Request(url: servers.nginx("large.bin"))
        request.maxTransferRate = 1 << 20
        request.keepsPartialDownload = true
        request.destination = .file(file)
        let handle = manager.task(request)
        handle.progress.onChange { progress in
            if progress.download.completed >= 256 * 1024 { handle.cancel() }
        }
        do {
            _ = try await handle.value
            Issue.record("the download was not cut")
            throw CancellationError()
        } catch let error as SluiceError {
            #expect(error.kind == .cancelled)
            return try #require(error.resumeData, "\(error)")
        }
    }

    @Test("a cancelled resumable download keeps its bytes beside the destination, which stays as it was; resumed with Range and If-Range, a 206 completes it byte for byte")
    func cancelledAndResumed() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = directory.file("large.bin")
        try Data("the old file".utf8).write(to: file)
        let resumeData = try await Self.cutDownload(servers, to: file)
        #expect(resumeData.offset >= 256 * 1024 && resumeData.offset < 50 * 1024 * 1024)
        #expect(resumeData.entityTag?.hasPrefix("\"") == true && resumeData.lastModified != nil)
        #expect(try Data(contentsOf: file) == Data("the old file".utf8))
        #expect(try Data(contentsOf: resumeData.partialFile) == Self.original(servers, "large.bin").prefix(Int(resumeData.offset)))
        // Resume data is Codable: kept across runs as JSON.
        let kept = try JSONDecoder().decode(DownloadResumeData.self, from: JSONEncoder().encode(resumeData))
        #expect(kept == resumeData)

        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport.shared))
        let response = try await manager.download(resumingFrom: kept)
        #expect(response.status == 206 && response.bodyFile == file)
        #expect(try Data(contentsOf: file) == Self.original(servers, "large.bin"))
        #expect(!FileManager.default.fileExists(atPath: resumeData.partialFile.path))

        // Not resumable (the default): a cut download leaves nothing behind, and no resume data.
        let plain = SessionManager(pipeline: try Pipeline(transport: CurlTransport.shared))
        var request = Request(url: servers.nginx("medium.bin"))
        request.maxTransferRate = 1 << 20
        request.timeouts.total = .milliseconds(300)
        let other = directory.file("plain.bin")
        await #expect {
            _ = try await plain.download(request, to: other)
        } throws: { error in
            (error as? SluiceError)?.kind == .timeout && (error as? SluiceError)?.resumeData == nil
        }
        #expect(directory.contents.allSatisfy { !$0.hasSuffix(".sluice-part") }, "\(directory.contents)")
    }

    @Test("the resource changed (If-Range fails): nginx sends 200, and the file is written whole from the start")
    func changedResource() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        var resumeData = try await Self.cutDownload(servers, to: directory.file("changed.bin"))
        resumeData.entityTag = "\"another-version\""
        let response = try await SessionManager(pipeline: try Pipeline(transport: CurlTransport.shared)).download(resumingFrom: resumeData)
        #expect(response.status == 200)
        #expect(try Data(contentsOf: directory.file("changed.bin")) == Self.original(servers, "large.bin"))
    }

    @Test("a weak ETag is never used in If-Range (RFC 9110 section 13.1.5): Last-Modified is, and nginx answers 206")
    func weakEntityTag() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        var resumeData = try await Self.cutDownload(servers, to: directory.file("weak.bin"))
        resumeData.entityTag = "W/" + (resumeData.entityTag ?? "\"x\"")
        #expect(resumeData.request.headers["If-Range"] == resumeData.lastModified)
        let response = try await SessionManager(pipeline: try Pipeline(transport: CurlTransport.shared)).download(resumingFrom: resumeData)
        #expect(response.status == 206)
        #expect(try Data(contentsOf: directory.file("weak.bin")) == Self.original(servers, "large.bin"))
    }

    @Test("416: a partial file that is already whole is put in place; one longer than the resource starts over; a 404 leaves the kept bytes and the resume data")
    func unsatisfiableAndErrors() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let original = try Self.original(servers)
        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport.shared))

        let whole = directory.file("whole.part")
        try original.write(to: whole)
        let complete = DownloadResumeData(url: servers.nginx("medium.bin"), destination: directory.file("whole.bin"), partialFile: whole, offset: Int64(original.count))
        let done = try await manager.download(resumingFrom: complete)
        #expect(done.status == 416 && done.bodyFile == directory.file("whole.bin"))
        #expect(try Data(contentsOf: directory.file("whole.bin")) == original)

        let longer = directory.file("longer.part")
        try (original + Data(count: 10)).write(to: longer)
        let tooLong = DownloadResumeData(url: servers.nginx("medium.bin"), destination: directory.file("longer.bin"), partialFile: longer, offset: Int64(original.count + 10))
        let restarted = try await manager.download(resumingFrom: tooLong)
        #expect(restarted.status == 200)
        #expect(try Data(contentsOf: directory.file("longer.bin")) == original)

        let kept = directory.file("kept.part")
        try original.prefix(1000).write(to: kept)
        let gone = DownloadResumeData(url: servers.nginx("no-such.bin"), destination: directory.file("gone.bin"), partialFile: kept, offset: 1000)
        let missing = try await manager.download(resumingFrom: gone)
        #expect(missing.status == 404 && missing.bodyFile == nil)
        #expect(try Data(contentsOf: kept) == original.prefix(1000))
        #expect(!FileManager.default.fileExists(atPath: directory.file("gone.bin").path))
    }

    @Test("sluice send -C -: a run killed mid-download leaves its bytes in -o's file, the next -C - completes it; beside curl -C - on the same partial file")
    func sendContinueAt() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let large = try Data(contentsOf: URL(fileURLWithPath: servers.wwwRoot).appendingPathComponent("large.bin"))
        let file = directory.file("killed.bin")

        // 50 MiB at 1 MiB/s: the kill comes long before the end, however loaded the machine.
        let process = Process()
        process.executableURL = SluiceProcess.executable
        process.arguments = ["send", "--limit-rate", "1M", "-C", "-", "-o", file.path, servers.nginx("large.bin").absoluteString]
        try process.run()
        // Bounded: at most 1,000 looks, 10 ms apart, for the first 256 KiB (a quarter second's worth).
        for _ in 0..<1000 {
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
            if size >= 256 * 1024 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let cut = try Data(contentsOf: file)
        #expect(cut.count >= 256 * 1024 && cut.count < large.count, "\(cut.count)")
        #expect(cut == large.prefix(cut.count))
        let curlFile = directory.file("curl.bin")
        try cut.write(to: curlFile)

        let format = "%{http_code} %{size_download}"
        let resumed = try await SluiceProcess.launch(["send", "-C", "-", "-o", file.path, "-w", format, servers.nginx("large.bin").absoluteString])
        let reference = try await CurlCLI.run(["-C", "-", "-o", curlFile.path, "-w", format, servers.nginx("large.bin").absoluteString])
        #expect(resumed.status == 0 && resumed.output == reference.output, "\(resumed.output) vs \(reference.output): \(resumed.error)")
        #expect(try Data(contentsOf: file) == large)
        #expect(try Data(contentsOf: curlFile) == large)

        // Whole already: both get 416 and leave the file; an explicit offset works as curl's.
        let again = try await SluiceProcess.launch(["send", "-C", "-", "-o", file.path, "-w", "%{http_code}", servers.nginx("large.bin").absoluteString])
        let curlAgain = try await CurlCLI.run(["-C", "-", "-o", curlFile.path, "-w", "%{http_code}", servers.nginx("large.bin").absoluteString])
        #expect(again.status == 0 && again.output == "416" && curlAgain.output == "416")
        #expect(try Data(contentsOf: file) == large)
        let original = try Self.original(servers)
        let explicit = directory.file("explicit.bin")
        try original.prefix(5000).write(to: explicit)
        let fromOffset = try await SluiceProcess.launch(["send", "-C", "5000", "-o", explicit.path, servers.nginx("medium.bin").absoluteString])
        #expect(fromOffset.status == 0)
        #expect(try Data(contentsOf: explicit) == original)

        for (arguments, named) in [(["-C", "x", "-o", file.path], "-C"), (["-C", "-", "-o", file.path, "-i"], "-C")] {
            let refused = try await SluiceProcess.launch(["send"] + arguments + [servers.nginx("medium.bin").absoluteString])
            #expect(refused.status == 2 && refused.error.contains(named), "\(arguments): \(refused.error)")
        }
    }

    @Test("sluice send -C without -o, as curl's: the body from the offset to standard output (206), all of it for -C -, nothing for a 416, exit 33 for a 200")
    func resumeToStandardOutput() async throws {
        let servers = try TestServers.load()
        let hello = servers.nginx("hello.txt").absoluteString
        for arguments in [["-C", "5", hello], ["-C", "-", hello], ["-C", "5", "-o", "-", hello], ["-C", "500", hello], ["-C", "5", servers.httpbin("get").absoluteString]] {
            let format = ["-w", " [%{http_code} %{exitcode}]"]
            let sent = try await SluiceProcess.launch(["send", "-s"] + format + arguments)
            let reference = try await CurlCLI.run(format + arguments)
            #expect(sent.status == reference.status, "\(arguments): sluice \(sent.status), curl \(reference.status)")
            #expect(sent.output == reference.output, "\(arguments): \(sent.output) against \(reference.output)")
        }
    }
}
