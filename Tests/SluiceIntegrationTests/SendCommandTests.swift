import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

/// Runs the `sluice` executable built beside the test binary.
struct SluiceProcess {
    struct Result {
        let status: Int32
        let output: String
        let error: String
        /// The process's peak resident set size (VmHWM), last read before it exited, when asked for.
        var peakResidentBytes: Int?
    }

    /// The `sluice` executable beside the test binary.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sluice")
    }

    /// `run`, awaited without holding a thread of the cooperative pool (two, on two cores, that
    /// every test of the run shares), with at most as many processes at once as there are cores.
    static func launch(
        _ arguments: [String],
        executable: URL = executable,
        environment: [String: String] = [:],
        directory: String? = nil,
        measuringMemory: Bool = false
    ) async throws -> Result {
        await ProcessSlots.shared.acquire()
        do {
            let result = try await offPool {
                try run(arguments, executable: executable, environment: environment, directory: directory, measuringMemory: measuringMemory)
            }
            await ProcessSlots.shared.release()
            return result
        } catch {
            await ProcessSlots.shared.release()
            throw error
        }
    }

    /// Runs `executable` (`sluice` by default) with `arguments` and waits for it.
    static func run(
        _ arguments: [String],
        executable: URL = executable,
        environment: [String: String] = [:],
        directory: String? = nil,
        measuringMemory: Bool = false
    ) throws -> Result {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "no executable at \(executable.path); run `swift build` first")
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, directory: directory
        )
        let peak = Locked<Int?>(nil)
        let sampler = measuringMemory ? Thread {
            // VmHWM is the high-water mark itself; reading it until the process is gone keeps the last value.
            while let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                peak.withLock { $0 = kilobytes * 1024 }
                usleep(10_000)
            }
        } : nil
        sampler?.start()
        let ended = process.finish()
        return Result(
            status: ended.status,
            output: String(decoding: ended.output, as: UTF8.self),
            error: String(decoding: ended.error, as: UTF8.self),
            peakResidentBytes: peak.withLock { $0 }
        )
    }
}

/// How many child processes the tests run at once through ``SluiceProcess/launch(_:executable:environment:directory:measuringMemory:)``:
/// as many as there are cores, so that tests waiting for processes off the pool do not start
/// dozens at once (what the pool's blocked threads used to prevent by accident).
actor ProcessSlots {
    static let shared = ProcessSlots(count: ProcessInfo.processInfo.activeProcessorCount)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        free = max(1, count)
    }

    /// Waits for a slot and takes it.
    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

@Suite("`sluice send` over real sockets")
struct SendCommandTests {
    @Test("prints the body, and with --include the status line and headers first")
    func sendsAndPrints() async throws {
        let servers = try TestServers.load()
        let plain = try await SluiceProcess.launch(["send", servers.nginx("hello.txt").absoluteString])
        #expect(plain.status == 0)
        #expect(plain.output == "hello from nginx\n")
        let included = try await SluiceProcess.launch(["send", "--include", servers.nginx("hello.txt").absoluteString])
        #expect(included.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(included.output.hasSuffix("\r\n\r\nhello from nginx\n"))
    }

    @Test("sends a method, headers and a body; --metrics reports the timeline on standard error")
    func postWithMetrics() async throws {
        let servers = try TestServers.load()
        let result = try await SluiceProcess.launch([
            "send", "-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"engine":"sluice"}"#, "--metrics",
            servers.httpbin("post").absoluteString,
        ])
        #expect(result.status == 0)
        let json = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["json"] as? [String: String] == ["engine": "sluice"])
        #expect(result.error.contains("status      200 over HTTP/1.1"))
        #expect(result.error.contains("first byte"))
    }

    @Test("HTTPS with --ca-bundle uses HTTP/2; without it the private CA is refused with curl's exit status 60")
    func tls() async throws {
        let servers = try TestServers.load()
        let url = servers.nginxTLS("hello.txt").absoluteString
        let trusted = try await SluiceProcess.launch(["send", "--ca-bundle", servers.caBundle, "--include", url])
        #expect(trusted.status == 0, "\(trusted.error)")
        #expect(trusted.output.hasPrefix("HTTP/2 200"))
        let refused = try await SluiceProcess.launch(["send", url])
        #expect(refused.status == 60)
        #expect(refused.error.hasPrefix("sluice: error: TLS failure in transport for \(url)"))
    }

    @Test("--output streams the body to a file")
    func output() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = directory.file("medium.bin")
        let result = try await SluiceProcess.launch(["send", "-o", file.path, servers.nginx("medium.bin").absoluteString])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(FileManager.default.contentsEqual(atPath: file.path, andPath: servers.wwwRoot + "/medium.bin"))
    }

    @Test("exit status 1 for --fail on an error status, 2 for an invalid command line")
    func exitStatuses() async throws {
        let servers = try TestServers.load()
        #expect(try await SluiceProcess.launch(["send", "--fail", servers.httpbin("status/404").absoluteString]).status == 22)
        #expect(try await SluiceProcess.launch(["send", servers.httpbin("status/404").absoluteString]).status == 0)
        // curl's status 3 for a URL it cannot read; a host with '|' is one.
        let invalid = try await SluiceProcess.launch(["send", "http://ho%7Cst/"])
        #expect(invalid.status == 3)
        #expect(invalid.error.contains("'http://ho%7Cst/' is not an http or https URL"), "\(invalid.error)")
        #expect(try await SluiceProcess.launch(["send", "--no-such-flag", "http://127.0.0.1/"]).status == 2)
    }

    @Test("--form sends multipart/form-data fields and files; a body makes the default method POST")
    func form() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = directory.file("notes.txt")
        try Data("line one\n".utf8).write(to: file)
        let result = try await SluiceProcess.launch([
            "send", "-F", "title=Hello", "-F", "doc=@\(file.path);type=text/x-notes;filename=renamed.txt", servers.httpbin("anything").absoluteString,
        ])
        #expect(result.status == 0)
        let json = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["method"] as? String == "POST")
        #expect(json["form"] as? [String: String] == ["title": "Hello"])
        #expect(json["files"] as? [String: String] == ["doc": "line one\n"])
        let invalid = try await SluiceProcess.launch(["send", "-F", "novalue", servers.httpbin("post").absoluteString])
        #expect(invalid.status == 2)
        let missing = try await SluiceProcess.launch(["send", "-F", "f=@/nonexistent/file", servers.httpbin("post").absoluteString])
        #expect(missing.status == 26, "curl's read error")
        #expect(missing.error.contains("part f: cannot read /nonexistent/file"))
    }

    @Test("-F as curl reads it: ;type= and ;filename= on a value, name=<FILE, quoted values, blanks, a type's parameters: the same bytes as curl's; what curl skips or splits is refused")
    func formSyntaxBesideCurl() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let body = try directory.write("{\"a\":1}\n", to: "body.json")
        try Data("x".utf8).write(to: directory.file("a,b"))
        let raw = servers.scenario.appendingPathComponent("raw").absoluteString
        /// The multipart body the server received, its boundary named BOUNDARY.
        func received(_ output: String) throws -> String {
            let echo = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
            let bytes = try #require(Data(base64Encoded: echo["body"] as? String ?? ""))
            let text = String(decoding: bytes, as: UTF8.self)
            guard let boundary = text.split(separator: "\r\n").first?.dropFirst(2) else { return text }
            return text.replacingOccurrences(of: String(boundary), with: "BOUNDARY")
        }
        let forms = [
            "n=v;type=text/x-foo", "n=<\(body)", "n=\"quoted;semi\";type=text/plain", "n= sp ;type=text/plain; charset=utf-8",
            "n=v;type=text/plain;charset=utf-8", "n=<\(body);type=application/json", #"n="x\"y""#, "n=v;filename=f.txt",
            "n=v;filename=f.unknownext", "n=\"unclosed;type=text/plain", "n=@\"\(directory.file("a,b").path)\"", "n=",
            "n=@\(body);type=text/plain;filename=\"a;b.txt\"",
        ]
        for form in forms {
            let sent = try await SluiceProcess.launch(["send", "-sS", "-F", form, raw])
            let curl = try await CurlCLI.run(["-sS", "-F", form, raw])
            #expect(sent.status == 0, "\(form): \(sent.error)")
            #expect(try received(sent.output) == received(curl.output), "\(form)")
        }
        for (form, message) in [
            ("n=a;b", "unknown attribute 'b'"), ("n=@\(body),\(body)", "several files in one part"),
            ("n=v;type=plain", "is not a media type"), ("n=v;headers=X-A: 1", "unknown attribute 'headers=X-A: 1'"),
        ] {
            let refused = try await SluiceProcess.launch(["send", "-F", form, raw])
            #expect(refused.status == 2 && refused.error.contains(message), "\(form): \(refused.error)")
        }
    }

    @Test("redirects are followed only with --location, as with curl")
    func location() async throws {
        let servers = try TestServers.load()
        let url = servers.httpbin("redirect/2").absoluteString
        let notFollowed = try await SluiceProcess.launch(["send", "--include", url])
        #expect(notFollowed.output.hasPrefix("HTTP/1.1 302"))
        let followed = try await SluiceProcess.launch(["send", "-L", url])
        #expect(followed.status == 0)
        #expect(followed.output.contains("\"url\": \"\(servers.httpbin("get").absoluteString)\""))
        let limited = try await SluiceProcess.launch(["send", "-L", "--max-redirs", "1", url])
        #expect(limited.status == 47)
        #expect(limited.error.contains("too many redirects"))
        // Ten by default; -1 is curl's no limit.
        let twelve = servers.httpbin("redirect/12").absoluteString
        #expect(try await SluiceProcess.launch(["send", "-sL", "-o", "/dev/null", twelve]).status == 47)
        // Written as curl users type it, with a space, and with '='.
        for form in [["--max-redirs", "-1"], ["--max-redirs=-1"]] {
            let unlimited = try await SluiceProcess.launch(["send", "-sL"] + form + ["-o", "/dev/null", "-w", "%{num_redirects}", twelve])
            #expect(unlimited.status == 0 && unlimited.output == "12", "\(form): \(unlimited.output)\(unlimited.error)")
        }
        #expect(try await SluiceProcess.launch(["send", "-L", "--max-redirs=-2", twelve]).status == 2)
    }

    @Test("a 1 GiB multipart file upload streams from disk: peak memory stays within a few MiB of a tiny upload's")
    func largeUploadMemory() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let large = directory.file("large.bin")
        let small = directory.file("small.bin")
        #expect(FileManager.default.createFile(atPath: large.path, contents: nil))
        try FileHandle(forWritingTo: large).truncate(atOffset: 1 << 30)
        try Data("x".utf8).write(to: small)
        func upload(_ file: URL) async throws -> (sent: Int, peakKiB: Int) {
            let result = try await SluiceProcess.launch(["send", "--metrics", "-F", "file=@\(file.path)", servers.nginx("upload").absoluteString])
            #expect(result.status == 0, "\(result.error)")
            func number(after label: String) -> Int {
                let line = result.error.split(separator: "\n").first { $0.hasPrefix(label) } ?? ""
                return Int(line.dropFirst(label.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? -1
            }
            return (number(after: "sent"), number(after: "peak memory"))
        }
        let baseline = try await upload(small)
        let measured = try await upload(large)
        #expect(measured.sent > 1 << 30, "the whole file went out")
        #expect(baseline.peakKiB > 0)
        #expect(measured.peakKiB - baseline.peakKiB < 8 * 1024, "peak \(measured.peakKiB) KiB against \(baseline.peakKiB) KiB for a 1-byte file")
    }
}
