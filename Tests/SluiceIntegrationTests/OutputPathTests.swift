import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

#if canImport(Glibc)
import Glibc
#endif

/// Every place a body or a report goes to a file a user named, against real servers: the library's
/// downloads, `sluice send -o` beside curl run with the same flags on the same input, a pipeline's
/// `output:`, `--report`, the cookie file, HAR files and load result files. Each kind of path is
/// made in the test's own folder; a device is a private `mknod` copy of `/dev/null`.
@Suite("A body is written where the user points, and nothing there is destroyed", .timeLimit(.minutes(5)))
struct OutputPathTests {
    private let servers: TestServers
    private let hello = "hello from nginx\n"

    init() throws {
        servers = try TestServers.load()
    }

    // MARK: The library

    @Test("download(_:to:) writes through: a device stays a device, a FIFO's reader gets the bytes, links are followed, a hard-linked file keeps its inode and mode")
    func downloadToEveryKindOfPath() async throws {
        let directory = try TemporaryDirectory()
        let manager = try servers.manager()
        let request = Request(url: servers.nginx("hello.txt"))

        if FileNodes.canMakeDevices {
            let null = try FileNodes.null(at: directory.file("null").path)
            let before = FileNode(null)
            let response = try await manager.download(request, to: URL(fileURLWithPath: null))
            #expect(response.status == 200)
            #expect(response.bodyFile?.path == null)
            #expect(FileNode(null) == before)
        }

        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let medium = try #require(FileManager.default.contents(atPath: servers.wwwRoot + "/medium.bin"))
        let reader = FIFOReader(fifo)
        _ = try await manager.download(Request(url: servers.nginx("medium.bin")), to: URL(fileURLWithPath: fifo))
        #expect(await reader.data() == medium, "3 MiB through the FIFO, paced by its reader")
        #expect(FileNode(fifo)?.isFIFO == true)

        let target = try FileNodes.file(at: directory.file("target.txt").path, "old\n")
        let link = try FileNodes.link(at: directory.file("link.txt").path, to: "target.txt")
        _ = try await manager.download(request, to: URL(fileURLWithPath: link))
        #expect(FileNode(link)?.isSymbolicLink == true)
        #expect(FileNodes.contents(target) == hello)

        let dangling = try FileNodes.link(at: directory.file("dangling.txt").path, to: "created.txt")
        _ = try await manager.download(request, to: URL(fileURLWithPath: dangling))
        #expect(FileNode(dangling)?.isSymbolicLink == true)
        #expect(FileNodes.contents(directory.file("created.txt").path) == hello)

        let other = directory.file("other-name.txt").path
        let (linked, inode) = try FileNodes.hardLinked(at: directory.file("linked.txt").path, otherName: other)
        _ = try await manager.download(request, to: URL(fileURLWithPath: linked))
        #expect(FileNode(linked)?.inode == inode)
        #expect(FileNode(linked)?.permissions == 0o600)
        #expect(FileNodes.contents(other) == hello)
        #expect(directory.contents.allSatisfy { !$0.hasSuffix(".sluice-part") })
    }

    @Test("a transfer cut in the middle leaves a hard-linked file, a device and a FIFO as they were, and no new file")
    func cutTransfer() async throws {
        let directory = try TemporaryDirectory()
        let manager = try servers.manager()
        let cut = Request(url: servers.fault.appendingPathComponent("short-body"))

        let linked = try FileNodes.hardLinked(at: directory.file("linked.bin").path, otherName: directory.file("other-name.bin").path, permissions: 0o640).path
        let before = FileNode(linked)
        let failure = await #expect(throws: SluiceError.self) { try await manager.download(cut, to: URL(fileURLWithPath: linked)) }
        #expect(failure?.kind == .connectionLost)
        #expect(FileNode(linked) == before)
        #expect(FileNodes.contents(linked) == "old\n")

        await #expect(throws: SluiceError.self) { try await manager.download(cut, to: directory.file("new.bin")) }
        #expect(FileNode(directory.file("new.bin").path) == nil)

        if FileNodes.canMakeDevices {
            let null = try FileNodes.null(at: directory.file("null").path)
            let device = FileNode(null)
            await #expect(throws: SluiceError.self) { try await manager.download(cut, to: URL(fileURLWithPath: null)) }
            #expect(FileNode(null) == device)
        }

        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let reader = FIFOReader(fifo)
        await #expect(throws: SluiceError.self) { try await manager.download(cut, to: URL(fileURLWithPath: fifo)) }
        #expect(await reader.data().count == 1_000, "the reader got what arrived before the cut, then its end")
        #expect(FileNode(fifo)?.isFIFO == true)
        #expect(Set(directory.contents).subtracting(["new.bin"]) == Set(directory.contents))
        #expect(directory.contents.allSatisfy { !$0.hasSuffix(".sluice-part") })
    }

    @Test("sluice curl writes a request's output: as -o, and the command, run by bash, writes the same file a run does; output: - adds nothing (curl writes to standard output)")
    func curlExportWritesOutput() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - name: to-file
                path: \(servers.nginxHTTP.absoluteString)/hello.txt
                output: out/hello.txt
              - name: to-stdout
                path: \(servers.nginxHTTP.absoluteString)/hello.txt
                output: "-"
            """, to: "output.yaml")
        try FileManager.default.createDirectory(at: directory.file("out"), withIntermediateDirectories: true)
        let exported = try await SluiceProcess.launch(["curl", path])
        let commands = exported.output.split(separator: "\n").filter { $0.hasPrefix("curl ") }.map(String.init)
        #expect(commands.count == 2 && commands[0].contains(" -o \(directory.file("out/hello.txt").path) ") && !commands[1].contains(" -o "), "\(exported.output)")
        let replayed = try await SluiceProcess.launch(["-c", commands[0]], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(replayed.status == 0 && (try? String(contentsOf: directory.file("out/hello.txt"), encoding: .utf8)) == hello, "\(replayed.error)")
    }

    @Test("the 'Files you name' article's example downloads to the path it names")
    func articleExample() async throws {
        let directory = try TemporaryDirectory()
        let archive = servers.nginx("medium.bin")
        let latest = directory.file("latest.tar.gz")
        // As the article writes it, with the test's folder for the working directory.
        let manager = SessionManager(pipeline: try Pipeline {})
        let saved = try await manager.download(Request(url: archive), to: latest)
        print(saved.bodyFile!.path)
        #expect(saved.bodyFile == latest)
        #expect(FileManager.default.contents(atPath: latest.path) == FileManager.default.contents(atPath: servers.wwwRoot + "/medium.bin"))
    }

    @Test("a redirect hop's own body never reaches the file, the FIFO or the device: only the final response's")
    func redirectHops() async throws {
        let directory = try TemporaryDirectory()
        let manager = try servers.manager()
        let redirected = Request(url: servers.nginx("to-https"))

        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let reader = FIFOReader(fifo)
        let response = try await manager.download(redirected, to: URL(fileURLWithPath: fifo))
        #expect(response.url?.scheme == "https")
        #expect(await reader.text() == hello, "nginx's 302 page is not in the stream")

        let existing = try FileNodes.file(at: directory.file("existing.txt").path, "old\n")
        _ = try await manager.download(redirected, to: URL(fileURLWithPath: existing))
        #expect(FileNodes.contents(existing) == hello)
    }

    @Test("with the cache: a download is stored from its file, a hit is written to a device and a FIFO, and one to a device is not read back")
    func cacheAndDownloads() async throws {
        let directory = try TemporaryDirectory()
        let manager = try servers.manager(stages: [ResponseCaching(store: MemoryCacheStore())])
        let request = Request(url: servers.nginx("cached/hello.txt?output-path=\(UUID().uuidString)"))
        if FileNodes.canMakeDevices {
            let null = try FileNodes.null(at: directory.file("null").path)
            let miss = try await manager.download(request, to: URL(fileURLWithPath: null))
            #expect(miss.status == 200)
            #expect(FileNode(null)?.isCharacterDevice == true)
        }
        let stored = try await manager.download(request, to: directory.file("stored.txt"))
        #expect(FileNodes.contents(directory.file("stored.txt").path) == hello)
        #expect(stored.headers["Age"] == nil, "the first download to a regular file went to the server")

        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let reader = FIFOReader(fifo)
        let hit = try await manager.download(request, to: URL(fileURLWithPath: fifo))
        #expect(hit.headers["Age"] != nil, "served from the cache")
        #expect(await reader.text() == hello)
        if FileNodes.canMakeDevices {
            let null = directory.file("null").path
            let hitToDevice = try await manager.download(request, to: URL(fileURLWithPath: null))
            #expect(hitToDevice.headers["Age"] != nil)
            #expect(FileNode(null)?.isCharacterDevice == true)
        }
    }

    @Test("a transport never writes files: handed a .file destination it refuses, touching nothing; the pipeline writes it from the stream, in place or through a FIFO")
    func transportLeavesFilesToThePipeline() async throws {
        let directory = try TemporaryDirectory()
        let transport = servers.trustingTransport()
        let existing = try FileNodes.file(at: directory.file("existing.txt").path, "old\n", permissions: 0o600)
        let inode = FileNode(existing)?.inode
        let refused = await #expect(throws: SluiceError.self) {
            try await transport.execute(Request(url: self.servers.nginx("hello.txt"), destination: .file(URL(fileURLWithPath: existing))), events: SilentEvents())
        }
        #expect(refused?.kind == .invalidRequest)
        #expect(FileNodes.contents(existing) == "old\n")
        let absent = directory.file("absent.txt")
        await #expect(throws: SluiceError.self) {
            try await transport.execute(Request(url: self.servers.nginx("hello.txt"), destination: .file(absent)), events: SilentEvents())
        }
        #expect(!FileManager.default.fileExists(atPath: absent.path))

        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: transport))
        let written = try await manager.download(Request(url: servers.nginx("hello.txt")), to: URL(fileURLWithPath: existing))
        #expect(written.bodyFile?.path == existing)
        #expect(FileNodes.contents(existing) == hello)
        #expect(FileNode(existing)?.inode == inode)
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let reader = FIFOReader(fifo)
        let streamed = try await manager.download(Request(url: servers.nginx("medium.bin")), to: URL(fileURLWithPath: fifo))
        #expect(streamed.bodyStream == nil)
        #expect((streamed.metrics?.bytesReceived ?? 0) >= 3 << 20, "the metrics of the whole exchange, once the body was written")
        #expect(await reader.data().count == 3 << 20)
    }

    @Test("an upload from a FIFO or a directory is refused, saying why, instead of going out as an empty body")
    func uploadFromSpecialFiles() async throws {
        let directory = try TemporaryDirectory()
        let manager = try servers.manager()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let request = Request(method: .post, url: servers.httpbin("post"))
        let fromFIFO = await #expect(throws: SluiceError.self) { try await manager.upload(request, fromFile: URL(fileURLWithPath: fifo)) }
        #expect(fromFIFO?.kind == .fileIO)
        #expect(fromFIFO?.message == "cannot upload \(fifo): it is a device or a FIFO, whose size is not known before it is read; read it whole first (RequestBody.fromFile) or send it as a stream (RequestBody.stream)")
        let fromFolder = await #expect(throws: SluiceError.self) { try await manager.upload(request, fromFile: directory.url) }
        #expect(fromFolder?.message == "cannot read upload file \(directory.url.path): it is a directory")
    }

    // MARK: sluice send -o, beside curl -o

    /// What a writer left at a path: its node (inode compared with the one before), its content,
    /// and what a FIFO's reader got.
    private struct Outcome: Equatable, CustomStringConvertible {
        var type: mode_t?
        var permissions: mode_t?
        var links: UInt?
        var sameInode: Bool
        var content: String?
        var names: [String]

        var description: String {
            "type \(type.map { String($0, radix: 8) } ?? "-") mode \(permissions.map { String($0, radix: 8) } ?? "-") links \(links ?? 0) sameInode \(sameInode) content \(content.debugDescription) names \(names)"
        }
    }

    /// Lays out one kind of path in a new folder, runs `command` with `-o PATH URL`, and reads what is left.
    private func outcome(_ kind: String, url: URL, command: (_ arguments: [String]) async throws -> Int32) async throws -> (Outcome, Int32) {
        let directory = try TemporaryDirectory()
        let path = directory.file("out").path
        var reader: FIFOReader?
        var watched = path
        switch kind {
        case "new": break
        case "hard-linked":
            _ = try FileNodes.hardLinked(at: path, otherName: directory.file("other-name").path)
        case "symlink":
            try FileNodes.file(at: directory.file("target").path, "old\n")
            _ = try FileNodes.link(at: path, to: "target")
            watched = directory.file("target").path
        case "dangling":
            _ = try FileNodes.link(at: path, to: "target")
            watched = directory.file("target").path
        case "device": _ = try FileNodes.null(at: path)
        case "fifo":
            _ = try FileNodes.fifo(at: path)
            reader = FIFOReader(path)
        default: Issue.record("unknown kind \(kind)")
        }
        let before = FileNode(watched)
        let status = try await command(["-s", "-o", path, url.absoluteString])
        let after = FileNode(watched)
        var content = after?.isRegularFile == true ? FileNodes.contents(watched) : nil
        if let reader { content = await reader.text() }
        let outcome = Outcome(
            type: after?.type, permissions: after?.permissions, links: after?.links,
            sameInode: before != nil && before?.inode == after?.inode, content: content, names: directory.contents.sorted()
        )
        return (outcome, status)
    }

    @Test(
        "sluice send -o leaves every kind of path as curl -o does, run on the same input",
        .enabled(if: FileNodes.canMakeDevices, "mknod needs root"),
        arguments: ["new", "hard-linked", "symlink", "dangling", "device", "fifo"]
    )
    func sendLikeCurl(kind: String) async throws {
        for url in [servers.nginx("hello.txt"), servers.httpbin("bytes/0")] {
            let (curl, curlStatus) = try await outcome(kind, url: url) { arguments in try await offPool { try SluiceProcess.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/curl")) }.status }
            let (sluice, sluiceStatus) = try await outcome(kind, url: url) { arguments in try await offPool { try SluiceProcess.run(["send"] + arguments.dropFirst()) }.status }
            #expect(curlStatus == 0)
            #expect(sluiceStatus == 0)
            #expect(sluice == curl, "\(kind), \(url.path): sluice \(sluice), curl \(curl)")
        }
    }

    @Test("sluice send -o over a cut transfer: curl leaves half a body in the file, sluice the old content; both leave the device alone")
    func sendCutTransfer() async throws {
        let directory = try TemporaryDirectory()
        let url = servers.fault.appendingPathComponent("short-body").absoluteString
        for tool in ["curl", "sluice"] {
            let path = try FileNodes.file(at: directory.file(tool).path, "old\n")
            let inode = FileNode(path)?.inode
            let result = tool == "curl"
                ? try await offPool { try SluiceProcess.run(["-s", "-o", path, url], executable: URL(fileURLWithPath: "/usr/bin/curl")) }
                : try await offPool { try SluiceProcess.run(["send", "-o", path, url]) }
            #expect(result.status != 0)
            #expect(FileNode(path)?.inode == inode)
            if tool == "curl" {
                #expect(FileNode(path)?.size == 1_000, "curl wrote what arrived")
            } else {
                #expect(FileNodes.contents(path) == "old\n")
            }
        }
        #expect(directory.contents.sorted() == ["curl", "sluice"])
    }

    @Test("sluice send -o names a path it cannot use in plain words, before sending; -o - is standard output")
    func sendRefusals() async throws {
        let directory = try TemporaryDirectory()
        let url = servers.nginx("hello.txt").absoluteString
        let folder = directory.url.path
        let intoDirectory = try await offPool { try SluiceProcess.run(["send", "-o", folder, url]) }
        #expect(intoDirectory.status == 23, "curl's status for output that cannot be written")
        #expect(intoDirectory.error.contains("cannot write the download to \(directory.url.path): it is a directory"), "\(intoDirectory.error)")
        let missingPath = directory.file("no/file").path
        let missing = try await offPool { try SluiceProcess.run(["send", "-o", missingPath, url]) }
        #expect(missing.error.contains("the folder \(directory.file("no").path) does not exist"), "\(missing.error)")
        let dash = try await offPool { try SluiceProcess.run(["send", "-o", "-", url]) }
        #expect(dash.output == hello)
        #expect(FileNode(FileManager.default.currentDirectoryPath + "/-") == nil)
    }

    @Test("--fail on an error status leaves the -o file as curl --fail does; -i -o writes the head into the file before the body, as curl -i -o does")
    func sendFailAndInclude() async throws {
        let directory = try TemporaryDirectory()
        let missing = servers.httpbin("status/404").absoluteString
        for tool in ["curl", "sluice"] {
            let path = try FileNodes.file(at: directory.file(tool).path, "keep\n")
            let arguments = tool == "curl" ? ["-s", "--fail", "-o", path, missing] : ["send", "--fail", "-o", path, missing]
            let result = try await offPool {
                try SluiceProcess.run(arguments, executable: tool == "curl" ? URL(fileURLWithPath: "/usr/bin/curl") : SluiceProcess.executable)
            }
            #expect(result.status == 22)
            #expect(FileNodes.contents(path) == "keep\n", "\(tool) left the file as it was")
        }
        let headed = directory.file("headed.txt").path
        let url = servers.nginx("hello.txt").absoluteString
        let included = try await offPool { try SluiceProcess.run(["send", "-i", "-o", headed, url]) }
        #expect(included.output.isEmpty)
        let text = try #require(FileNodes.contents(headed))
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("\r\n\r\n" + hello))
        let empty = try await offPool { try SluiceProcess.run(["send", "-o", "", url]) }
        #expect(empty.status == 2)
        #expect(empty.error.contains("-o needs a file name (- for standard output)"))
    }

    @Test("a reader of standard output that goes away ends sluice send with an error that says so, as curl's does, not a SIGPIPE")
    func sendToClosedPipe() async throws {
        let url = servers.nginx("large.bin").absoluteString
        let script = #""$0" send "$1" 2>"$2" | head -c 10 > /dev/null; echo "${PIPESTATUS[0]}""#
        let directory = try TemporaryDirectory()
        let errors = directory.file("errors").path
        let sluice = SluiceProcess.executable.path
        let result = try await offPool {
            try SluiceProcess.run(["-c", script, sluice, url, errors], executable: URL(fileURLWithPath: "/bin/bash"))
        }
        #expect(result.output == "23\n", "curl's exit status 23, not 141 (killed by SIGPIPE)")
        #expect(FileNodes.contents(errors) == "sluice: error: file I/O failure in output: cannot write the body to standard output: Broken pipe\n")
    }

    @Test("a reader of sluice run's results that goes away (sluice run FILE | head -1): the run ends, its report is written, exit 23 with a line that says so, no crash")
    func runToClosedPipe() async throws {
        let directory = try TemporaryDirectory()
        var text = "requests:\n"
        for index in 0..<3 {
            text += "  - name: hello-\(index)\n    path: \(servers.nginx("hello.txt").absoluteString)\n    expect:\n      status: 200\n"
        }
        let pipeline = try directory.write(text, to: "pipeline.yaml")
        let report = directory.file("report.xml").path
        let errors = directory.file("errors").path
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let sluice = SluiceProcess.executable
        let status = try await offPool { () throws -> Int32 in
            // The pipe's reader is closed before sluice starts: its first write meets EPIPE every time.
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            let process = Process()
            process.executableURL = sluice
            process.arguments = ["run", pipeline, "--report", "junit:\(report)"]
            process.standardOutput = pipe.fileHandleForWriting
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
            try process.run()
            process.waitUntilExit()
            return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        }
        #expect(status == 23, "curl's status for output not written, not a crash (132) or SIGPIPE (141)")
        #expect(FileNodes.contents(errors) == "sluice: error: standard output could not be written (its reader went away); what came after was dropped\n")
        let written = try #require(FileNodes.contents(report))
        #expect(written.components(separatedBy: "<testcase ").count == 4, "\(written)")
    }

    // MARK: sluice run: output:, reports, cookie files, HAR files, load results

    private func pipeline(in directory: TemporaryDirectory, _ text: String) throws -> String {
        try directory.write(text, to: "pipeline.yaml")
    }

    @Test("a request's output: writes through to a FIFO, a device and a hard-linked file")
    func pipelineOutput() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let (linked, inode) = try FileNodes.hardLinked(at: directory.file("linked.txt").path, otherName: directory.file("other-name.txt").path, "old\n", permissions: 0o600)
        var requests = """
              - { name: to-fifo, path: hello.txt, output: pipe }
              - { name: to-linked, path: hello.txt, output: linked.txt }
            """
        if FileNodes.canMakeDevices {
            _ = try FileNodes.null(at: directory.file("null").path)
            requests += "\n  - { name: to-device, path: hello.txt, output: \"null\" }"
        }
        let path = try pipeline(in: directory, """
            stages:
              - url-resolution: { base-url: "\(servers.nginxHTTP.absoluteString)" }
              - response-decoding: { format: data, acceptable-content-types: any }
            requests:
            \(requests)
            """)
        let reader = FIFOReader(fifo)
        let result = try await offPool { try SluiceProcess.run(["run", "--no-color", path]) }
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(await reader.text() == hello)
        // The size shown is what was written, not the FIFO's or the device's own size.
        let sizes = result.output.split(separator: "\n").filter { $0.hasPrefix("✔ to-") }.map { $0.split(separator: " ").suffix(2).joined(separator: " ") }
        #expect(sizes.allSatisfy { $0 == "\(hello.utf8.count) B" } && !sizes.isEmpty, "\(result.output)")
        #expect(FileNode(linked)?.inode == inode)
        #expect(FileNode(linked)?.permissions == 0o600)
        #expect(FileNodes.contents(directory.file("other-name.txt").path) == hello)
        if FileNodes.canMakeDevices { #expect(FileNode(directory.file("null").path)?.isCharacterDevice == true) }
    }

    @Test("output: beside checks of the body: the checks are judged on the body (a failing one fails), which is still written to the FIFO and the hard-linked file")
    func outputWithBodyChecks() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let (linked, inode) = try FileNodes.hardLinked(at: directory.file("linked.txt").path, otherName: directory.file("other-name.txt").path, "old\n", permissions: 0o600)
        let path = try pipeline(in: directory, """
            stages:
              - url-resolution: { base-url: "\(servers.nginxHTTP.absoluteString)" }
            requests:
              - name: to-fifo
                path: hello.txt
                output: pipe
                expect: { checks: [{ body: , equals: "\(hello.replacingOccurrences(of: "\n", with: "\\n"))" }, { sha256: , exists: true }] }
              - name: to-linked
                path: hello.txt
                output: linked.txt
                expect: { checks: [{ body: , contains: "not in it" }] }
            """)
        let reader = FIFOReader(fifo)
        let result = try await offPool { try SluiceProcess.run(["run", "--no-color", path]) }
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(result.output.contains("✔ to-fifo"), "\(result.output)")
        #expect(result.output.contains("pipeline.yaml:11:34: failed: body contains"), "\(result.output)")
        #expect(await reader.text() == hello)
        #expect(FileNode(linked)?.inode == inode)
        #expect(FileNodes.contents(directory.file("other-name.txt").path) == hello)
    }

    @Test("output: of a response that response-decoding refuses for its status and expect.status accepts (Hurl's HTTP 404) is written, as curl -o writes it; a status expect refuses leaves the file")
    func outputOfAnExpectedErrorStatus() async throws {
        let directory = try TemporaryDirectory()
        let reference = directory.file("curl.html")
        #expect(try await CurlCLI.run(["-o", reference.path, servers.nginx("does-not-exist").absoluteString]).status == 0)
        for (checks, name) in [("", "plain"), (", checks: [{ body: , contains: \"404\" }]", "checked"), (", checks: [{ status: , equals: 404 }]", "head")] {
            for (status, written) in [("404", true), ("[200, 404]", true), ("200", false)] {
                try Data("old\n".utf8).write(to: directory.file("\(name).html"))
                let path = try pipeline(in: directory, """
                    stages:
                      - url-resolution: { base-url: "\(servers.nginxHTTP.absoluteString)" }
                      - response-decoding: { format: string }
                    requests:
                      - name: missing
                        path: does-not-exist
                        output: \(name).html
                        expect: { status: \(status)\(checks) }
                    """)
                let result = try await offPool { try SluiceProcess.run(["run", "--no-color", path]) }
                #expect(result.status == (written ? 0 : 1), "\(name) \(status): \(result.output)\(result.error)")
                let contents = FileManager.default.contents(atPath: directory.file("\(name).html").path)
                #expect(contents == (written ? FileManager.default.contents(atPath: reference.path) : Data("old\n".utf8)), "\(name) \(status)")
            }
        }
    }

    @Test("interrupted mid-body (SIGINT, SIGTERM, SIGHUP), send -o and run's output: and reports leave the files as they were and no staging file beside them, and end by the signal")
    func signalMidBody() async throws {
        let drip = servers.httpbin("drip?numbytes=100&duration=5").absoluteString
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            let directory = try TemporaryDirectory()
            try Data("old\n".utf8).write(to: directory.file("body.txt"))
            let pipeline = try self.pipeline(in: directory, "requests:\n  - path: \(drip)\n    output: run.txt\n")
            for arguments in [["send", "-s", "-o", directory.file("body.txt").path, drip], ["run", "--report", "junit:\(directory.file("report.xml").path)", pipeline]] {
                let folder = directory.url.path
                let ended = try await offPool { () throws -> (status: Int32, signalled: Bool, waited: Bool) in
                    let process = try ChildProcess(
                        executable: SluiceProcess.executable, arguments: arguments, environment: ProcessInfo.processInfo.environment, directory: nil, captures: false
                    )
                    // Killed once the body has begun: its staging file is there (at most 4 s).
                    var waited = false
                    for _ in 0..<400 where !waited {
                        waited = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasSuffix(".sluice-part") }
                        if !waited { usleep(10_000) }
                    }
                    kill(process.processIdentifier, signal)
                    let ended = process.finish()
                    return (ended.status, ended.signalled, waited)
                }
                #expect(ended.waited, "\(arguments): no staging file appeared")
                #expect(ended.signalled && ended.status == signal, "\(arguments): \(ended)")
                #expect(FileNodes.contents(directory.file("body.txt").path) == "old\n")
                #expect(directory.contents.sorted() == ["body.txt", "pipeline.yaml"], "\(arguments): \(directory.contents)")
            }
        }
    }

    @Test("a server never chooses a file's folder: a captured value with '/' or making '..' in output:, body-file: or a part's file is refused, naming it; a captured file name, and the user's own folders, are used")
    func serverChosenPaths() async throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let secret = try FileNodes.file(at: outside.file("secret.txt").path, "not for the server\n")
        // From out/ in the pipeline's folder up to / and down into another folder.
        let climb = String(repeating: "../", count: directory.url.path.split(separator: "/").count + 1) + outside.url.path.dropFirst() + "/written.txt"
        let query = "/get?up=\(climb.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&name=safe.txt&dot=.&read=\(secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        try FileManager.default.createDirectory(at: directory.file("out"), withIntermediateDirectories: true)
        let path = try pipeline(in: directory, """
            variables:
              folder: out/own
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - serialization: { format: multipart }
              - response-decoding: { format: data, acceptable-content-types: any }
            requests:
              - name: ask
                path: "\(query)"
                capture: { up: $.args.up, name: $.args.name, dot: $.args.dot, read: $.args.read }
              - { name: up, path: /get, output: "out/${up}" }
              - { name: dots, path: /get, output: "out/${dot}${dot}/escaped.txt" }
              - { name: computed, path: /get, variables: { file: "x-${up}" }, output: "out/${file}" }
              - { name: function, path: /get, output: "out/${urlencode(text(up))}" }
              - { name: upload, method: POST, path: /post, body-file: "${read}" }
              - { name: part, method: POST, path: /post, parts: [{ name: f, file: "${read}" }] }
              - { name: named, path: /get, output: "${folder}-${name}" }
            """)
        let result = try await offPool { try SluiceProcess.run(["run", "--no-color", path]) }
        #expect(result.status == 1, "\(result.output)\(result.error)")
        let refused = result.output.split(separator: "\n").filter { $0.contains("a server never chooses a file's folder") }
        #expect(refused.count == 5, "\(result.output)")
        #expect(result.output.contains("output at line 11: a value the server sent (${up}) holds '/' ('\(climb)')"), "\(result.output)")
        #expect(result.output.contains("output at line 12: a value the server sent (${dot}) makes the path segment '..'"), "\(result.output)")
        #expect(result.output.contains("output at line 13: a value the server sent (${file}) holds '/'"), "\(result.output)")
        #expect(result.output.contains("body-file at line 15: a value the server sent (${read}) holds '/'"), "\(result.output)")
        #expect(result.output.contains("parts: file at line 16: a value the server sent (${read}) holds '/'"), "\(result.output)")
        // urlencode() turns the '/' into %2F: one file name, in the folder the pipeline chose.
        #expect(result.output.contains("✔ function"), "\(result.output)")
        #expect(result.output.contains("✔ named"), "\(result.output)")
        #expect(FileManager.default.fileExists(atPath: directory.file("out/own-safe.txt").path))
        #expect(!FileManager.default.fileExists(atPath: outside.file("written.txt").path))
        #expect(!FileManager.default.fileExists(atPath: directory.file("escaped.txt").path))
        #expect(!result.output.contains("not for the server"))

        // A Hurl file's [Options] output: is held to the same rule, and named in Hurl's words.
        let hurl = try directory.write("""
            GET \(servers.httpbin.absoluteString)/get?name=..%2Fescaped.txt
            HTTP 200
            [Captures]
            name: jsonpath "$.args.name"

            GET \(servers.httpbin.absoluteString)/get
            [Options]
            output: out/{{name}}
            HTTP 200
            """, to: "entries.hurl")
        let hurlRun = try await offPool { try SluiceProcess.run(["run", "--no-color", hurl]) }
        #expect(hurlRun.status == 1, "\(hurlRun.output)\(hurlRun.error)")
        #expect(hurlRun.output.contains("output at line 8: a value the server sent ({{name}}) holds '/' ('../escaped.txt')"), "\(hurlRun.output)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("escaped.txt").path))
    }

    @Test("output: null is YAML's null, not a file named null: refused at load time, saying to quote it")
    func outputNull() throws {
        let failure = #expect(throws: PipelineFileError.self) {
            try PipelineFile.load(text: "requests:\n  - path: http://a.test/\n    output: null\n", path: "p.yaml")
        }
        let messages = failure?.diagnostics.map { "\($0.mark): \($0.message)" } ?? []
        #expect(messages == ["3:13: output is empty (YAML's null): give the file the body is written to, in quotes if it is named null"])
    }

    @Test("retry: with output: to a FIFO: the reader gets one stream with one end; attempts refused inside the chain write nothing, attempts that answered write their bodies, as curl --retry into a pipe")
    func retryIntoFIFO() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        for decoded in [true, false] {
            let key = UUID().uuidString
            let path = try pipeline(in: directory, """
                stages:
                  - url-resolution: { base-url: "\(servers.scenario.absoluteString)" }
                \(decoded ? "  - response-decoding: { format: data, acceptable-content-types: any }" : "")
                requests:
                  - name: flaky
                    path: "flaky/\(key)?failures=2"
                    retry: { attempts: 3, interval: 10ms }
                    expect: { status: 200 }
                    output: pipe
                """)
            let reader = FIFOReader(fifo)
            let result = try await offPool { try SluiceProcess.run(["run", "--no-color", path]) }
            #expect(result.status == 0, "\(result.output)\(result.error)")
            let received = await reader.text()
            let bodies = received.components(separatedBy: "attempt").count - 1
            #expect(bodies == (decoded ? 1 : 3), "decoded \(decoded): \(received)")
            #expect(received.hasSuffix("3}") || received.hasSuffix("3}\n"), "the last body is the answered attempt's: \(received)")
        }
    }

    private func simplePipeline(in directory: TemporaryDirectory, extra: String = "") throws -> String {
        try pipeline(in: directory, """
            \(extra)
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            requests:
              - { name: first, path: get, expect: { status: 200 } }
            """)
    }

    @Test("--report writes through: junit to /dev/stdout, json to a FIFO, tap to a device, html into a hard-linked file in place")
    func reports() async throws {
        let directory = try TemporaryDirectory()
        let path = try simplePipeline(in: directory)
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let (linked, inode) = try FileNodes.hardLinked(at: directory.file("report.html").path, otherName: directory.file("other-name.html").path, "old\n", permissions: 0o640)
        var arguments = ["run", "--no-color", path, "--report", "junit:/dev/stdout", "--report", "json:\(fifo)", "--report", "html:\(linked)"]
        if FileNodes.canMakeDevices {
            arguments += ["--report", "tap:" + (try FileNodes.null(at: directory.file("null").path))]
        }
        let reader = FIFOReader(fifo)
        let result = try await offPool { [arguments] in try SluiceProcess.run(arguments) }
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("<testsuites"), "the JUnit report went to standard output")
        let json = try JSONSerialization.jsonObject(with: await reader.data()) as? [String: Any]
        #expect(json?["summary"] != nil, "the FIFO's reader got the whole JSON report")
        #expect(FileNode(linked)?.inode == inode)
        #expect(FileNode(linked)?.permissions == 0o640)
        #expect(FileNodes.contents(directory.file("other-name.html").path)?.contains("<html") == true)
        if FileNodes.canMakeDevices { #expect(FileNode(directory.file("null").path)?.isCharacterDevice == true) }
        #expect(directory.contents.allSatisfy { !$0.hasSuffix(".sluice-part") })
    }

    @Test("--report KIND:- is standard output, as curl's -o -, and no file named '-' is made; beside --format json, whose document goes there too, it is refused before any request is sent")
    func reportToStandardOutput() async throws {
        let directory = try TemporaryDirectory()
        let path = try simplePipeline(in: directory)
        let dash = try await SluiceProcess.launch(["run", "--no-color", "--report", "junit:-", path], directory: directory.url.path)
        #expect(dash.status == 0 && dash.output.contains("<testsuites"), "\(dash.output)\(dash.error)")
        #expect(!directory.contents.contains("-"), "\(directory.contents)")
        for report in ["json:-", "json:/dev/stdout", "junit:/dev/fd/1"] {
            let refused = try await SluiceProcess.launch(["run", "--format", "json", "--report", report, path])
            #expect(refused.status == 2 && refused.error.contains("both write standard output"), "\(report): \(refused.error)")
        }
    }

    @Test("--report at a path that cannot be used is refused before any request is sent, in plain words")
    func reportRefused() async throws {
        let directory = try TemporaryDirectory()
        let marker = UUID().uuidString
        let path = try pipeline(in: directory, """
            stages:
              - url-resolution: { base-url: "\(servers.nginxHTTP.absoluteString)" }
            requests:
              - { name: first, path: "hello.txt?\(marker)" }
            """)
        let folder = directory.url.path
        let result = try await offPool { try SluiceProcess.run(["run", path, "--report", "junit:\(folder)"]) }
        #expect(result.status == 2)
        #expect(result.error.contains("cannot write the junit report to \(directory.url.path): it is a directory"), "\(result.error)")
        #expect(servers.nginxLogLines(containing: marker).isEmpty, "nothing was sent")
    }

    @Test("cookie-file: a device reads as empty and is written back as it is; a hard-linked file keeps its inode and mode; a new one is 0600; a directory is named plainly")
    func cookieFiles() async throws {
        let directory = try TemporaryDirectory()
        let cookies = "cookies/set?flavour=oat"
        let (linked, inode) = try FileNodes.hardLinked(at: directory.file("jar.txt").path, otherName: directory.file("other-name.txt").path, "", permissions: 0o640)
        for jar in ["jar.txt", "new-jar.txt"] + (FileNodes.canMakeDevices ? [try FileNodes.null(at: directory.file("null").path)] : []) {
            let path = try pipeline(in: directory, """
                cookie-file: \(jar)
                stages:
                  - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
                requests:
                  - { name: set, path: "\(cookies)" }
                """)
            let result = try await offPool { try SluiceProcess.run(["run", "--no-color", path]) }
            #expect(result.status == 0, "\(jar): \(result.error)")
        }
        #expect(FileNode(linked)?.inode == inode)
        #expect(FileNode(linked)?.permissions == 0o640)
        #expect(FileNodes.contents(directory.file("other-name.txt").path)?.contains("flavour\toat") == true)
        #expect(FileNode(directory.file("new-jar.txt").path)?.permissions == 0o600, "cookies are credentials")
        if FileNodes.canMakeDevices { #expect(FileNode(directory.file("null").path)?.isCharacterDevice == true) }

        let path = try pipeline(in: directory, "cookie-file: \(directory.url.path)\nrequests: []\n")
        let refused = try await offPool { try SluiceProcess.run(["run", path]) }
        #expect(refused.status == 2)
        #expect(refused.error.contains("error: cannot read the cookie file \(directory.url.path): it is a directory"), "\(refused.error)")
        #expect(!refused.error.contains("NSCocoaErrorDomain"))
    }

    @Test("a HAR file goes through to a FIFO as one valid document, and is rewritten in place in a hard-linked file")
    func harFiles() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let (linked, inode) = try FileNodes.hardLinked(at: directory.file("log.har").path, otherName: directory.file("other-name.har").path, "old\n", permissions: 0o600)
        for target in ["pipe", "log.har"] + (FileNodes.canMakeDevices ? [try FileNodes.null(at: directory.file("null").path)] : []) {
            let reader = target == "pipe" ? FIFOReader(fifo) : nil
            let path = try pipeline(in: directory, """
                stages:
                  - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
                  - har-recorder: { path: "\(target)" }
                requests:
                  - { name: one, path: get }
                  - { name: two, path: get }
                """)
            let result = try await offPool { try SluiceProcess.run(["run", "--no-color", path]) }
            #expect(result.status == 0, "\(target): \(result.error)")
            if let reader {
                let har = try JSONSerialization.jsonObject(with: await reader.data()) as? [String: Any]
                #expect(((har?["log"] as? [String: Any])?["entries"] as? [Any])?.count == 2)
            }
        }
        let har = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.file("other-name.har"))) as? [String: Any]
        #expect(((har?["log"] as? [String: Any])?["entries"] as? [Any])?.count == 2)
        #expect(FileNode(linked)?.inode == inode)
        #expect(FileNode(linked)?.permissions == 0o600)
        if FileNodes.canMakeDevices { #expect(FileNode(directory.file("null").path)?.isCharacterDevice == true) }
    }

    @Test("a load result file goes through to a FIFO, and sluice report merge reads it from one")
    func loadResultFiles() async throws {
        let directory = try TemporaryDirectory()
        let path = try simplePipeline(in: directory)
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let reader = FIFOReader(fifo)
        let run = try await offPool { try SluiceProcess.run(["run", "--no-color", path, "--repeat", "3", "--report", "histogram:\(fifo)"]) }
        #expect(run.status == 0, "\(run.error)")
        let result = await reader.data()
        let json = try JSONSerialization.jsonObject(with: result) as? [String: Any]
        #expect(json?["format"] as? String == "sluice-load-result")
        #expect(json?["ok"] as? Int == 3)

        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            _ = result.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        writer.start()
        let merged = try await offPool { try SluiceProcess.run(["report", "merge", "--no-color", fifo]) }
        #expect(merged.status == 0, "\(merged.error)")
        #expect(merged.output.contains("requests  3  ok 3"), "\(merged.output)")
    }
}

/// Transport events nobody listens to, for calling a transport directly.
private struct SilentEvents: TransportEvents {
    func transferStarted(url: URL, control: any TransferControl) {}
    func evaluateTrust(_ connection: ConnectionInfo, for request: Request) -> TrustDecision { .proceed }
    func requestSent() {}
    func responseStarted(status: Int) {}
    func progressed(_ progress: TaskProgress) {}
    func transferFinished(control: any TransferControl, metrics: TransferMetrics?) {}
}
