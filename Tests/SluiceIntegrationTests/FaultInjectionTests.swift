import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import SluiceRetry
import Testing

/// One test per way a peer can fail, against the fault server (Tests/Servers/fault_server.py),
/// nginx and closed ports on loopback. Each ends in its typed error (kind, stage, URL) well within
/// its time limit; the leak check (`LeakCheckTests`) then repeats them ten thousand times.
@Suite("Fault injection: every broken peer ends in its typed error", .timeLimit(.minutes(5)))
struct FaultInjectionTests {
    let servers: TestServers

    /// The bound that tells a hang from a slow machine: each fault ends in milliseconds (or at its
    /// one-second timeout) when the machine is idle, but a loaded 2-core CI machine, or the thread
    /// sanitizer, stretches that many times over. A hang would run to the suite's time limit.
    static let noHang = Duration.seconds(30)

    init() throws {
        servers = try TestServers.load()
    }

    /// Runs `body` with a manager over a transport of its own, shut down afterwards.
    private func withManager<T>(
        stages: [any Stage] = [],
        timeouts: Timeouts = .default,
        maxResponseSize: Int64? = nil,
        redirects: Redirection? = Redirection(),
        _ body: (SessionManager) async throws -> T
    ) async throws -> T {
        let transport = servers.trustingTransport()
        let pipeline = try Pipeline(
            stages: stages, transport: transport, timeouts: timeouts, redirects: redirects, maxResponseSize: maxResponseSize
        )
        do {
            let result = try await body(SessionManager(pipeline: pipeline))
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// Sends `request` and returns the error it ends in and how long that took; fails the test
    /// when the request succeeds.
    private func failure(
        _ request: Request,
        stages: [any Stage] = [],
        timeouts: Timeouts = .default,
        maxResponseSize: Int64? = nil
    ) async throws -> (error: SluiceError, elapsed: Duration) {
        try await withManager(stages: stages, timeouts: timeouts, maxResponseSize: maxResponseSize) { manager async throws in
            let started = ContinuousClock.now
            do {
                let response = try await manager.send(request)
                Issue.record("expected an error, got status \(response.status)")
                throw CancellationError()
            } catch let error as SluiceError {
                return (error, .now - started)
            }
        }
    }

    private func fault(_ path: String) -> URL {
        URL(string: path, relativeTo: servers.fault)!.absoluteURL
    }

    @Test("connection refused: .connect in transport, at once")
    func connectionRefused() async throws {
        let url = URL(string: "http://127.0.0.1:\(try LoopbackSocket.unusedPort())/")!
        let (error, elapsed) = try await failure(Request(url: url))
        #expect(error.kind == .connect)
        #expect(error.stage == "transport")
        #expect(error.url == url)
        #expect(elapsed < Self.noHang)
    }

    /// A `.invalid` name (RFC 6761) whose first label is 64 octets, one more than DNS allows
    /// (RFC 1035): the resolver refuses it without sending a query, so the test stays on this machine.
    static let unresolvableHost = String(repeating: "a", count: 64) + ".invalid"

    @Test("DNS failure (.invalid, RFC 6761): .dns in transport, without a query leaving the machine")
    func dnsFailure() async throws {
        let url = URL(string: "http://\(Self.unresolvableHost)/")!
        let (error, elapsed) = try await failure(Request(url: url))
        #expect(error.kind == .dns)
        #expect(error.stage == "transport")
        #expect(error.url == url)
        #expect(error.message.contains(Self.unresolvableHost))
        #expect(elapsed < Self.noHang)
    }

    @Test("reset while the request's header fields are still being sent: .connectionLost")
    func resetWhileSendingHeaders() async throws {
        // 256 KiB of header fields: the client is still writing when the server resets.
        var request = Request(url: fault("reset-in-headers"))
        for index in 0..<64 {
            request.headers.add(name: "X-Filler-\(index)", value: String(repeating: "a", count: 4096))
        }
        let (error, elapsed) = try await failure(request)
        #expect(error.kind == .connectionLost)
        #expect(error.stage == "transport")
        #expect(error.url == request.url)
        #expect(elapsed < Self.noHang)
    }

    @Test("the connection closes mid-body, short of Content-Length: .connectionLost with the head and the bytes that came, no file kept; sluice run shows the status")
    func shortBody() async throws {
        let directory = try TemporaryDirectory()
        let (error, _) = try await failure(Request(url: fault("short-body")))
        #expect(error.kind == .connectionLost)
        #expect(error.stage == "transport")
        #expect(error.message.contains("99000 bytes remaining"))
        #expect(error.response?.status == 200 && error.response?.body.count == 1000 && error.response?.headers["Content-Length"] == "100000")
        // The checks of the head are judged, the body's named as not judged: none goes unreported.
        let file = try directory.write("""
            requests:
              - name: short
                path: \(fault("short-body").absoluteString)
                expect:
                  status: 200
                  headers: { Content-Length: "1000" }
                  checks:
                    - { bytes: , count: 100000 }

            """, to: "short.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", file])
        #expect(run.status == 1 && run.output.contains("short-body  200  ") && run.output.contains("1000 B") && run.output.contains("connection lost"), "\(run.output)")
        #expect(run.output.contains("short.yaml:6:18: failed: headers.Content-Length\n        expected: 1000\n        actual:   100000\n"), "\(run.output)")
        #expect(run.output.contains("short.yaml:2:5: not judged (the exchange failed after the response head came): bytes count (line 8)\n"), "\(run.output)")
        try FileManager.default.removeItem(atPath: file)
        let (toFile, _) = try await failure(Request(url: fault("short-body"), destination: .file(directory.file("short.bin"))))
        #expect(toFile.kind == .connectionLost)
        #expect(directory.contents.isEmpty)
    }

    @Test("chunked encoding cut off before the last chunk: .connectionLost")
    func truncatedChunked() async throws {
        let (error, _) = try await failure(Request(url: fault("truncated-chunked")))
        #expect(error.kind == .connectionLost)
        #expect(error.stage == "transport")
        #expect(error.url == fault("truncated-chunked"))
    }

    @Test("a status line that is not HTTP: .protocolError")
    func invalidStatusLine() async throws {
        let (error, _) = try await failure(Request(url: fault("bad-status")))
        #expect(error.kind == .protocolError)
        #expect(error.stage == "transport")
        #expect(error.url == fault("bad-status"))
    }

    @Test("a 200 KiB header line, and 400 header lines of 1 KiB: .protocolError that names the limit, and sluice send exits as curl 7.88 does (27, 56); 290 lines pass")
    func hugeHeaderLine() async throws {
        let (error, _) = try await failure(Request(url: fault("huge-header")))
        #expect(error.kind == .protocolError)
        #expect(error.stage == "transport")
        #expect(error.message.contains("100 KiB"))
        let (many, _) = try await failure(Request(url: fault("many-headers")))
        #expect(many.kind == .protocolError && many.message == "the response's header fields passed 300 KiB; the exchange was stopped there")
        for path in ["huge-header", "many-headers", "many-headers?kib=290"] {
            let sent = try await SluiceProcess.launch(["send", "-s", "-o", "/dev/null", fault(path).absoluteString])
            let reference = try await CurlCLI.run(["-o", "/dev/null", fault(path).absoluteString])
            #expect(sent.status == reference.status, "\(path): \(sent.status) vs curl's \(reference.status)")
        }
    }

    @Test("header values in ISO-8859-1 are checked as their characters in a pipeline, where they once were U+FFFD; UTF-8 ones as before")
    func latin1HeaderValues() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - path: \(servers.fault.absoluteString)/latin1-headers
                expect:
                  headers: { X-Latin1: "café", X-UTF8: "café", X-Mixed: "Ã© é" }
                  checks:
                    - { header: Content-Disposition, contains: "résumé.txt" }
            """, to: "latin1.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
    }

    @Test("a response head that never ends: .timeout at the total timeout")
    func endlessHeaders() async throws {
        let (error, elapsed) = try await failure(Request(url: fault("endless-headers"), timeouts: Timeouts(total: .seconds(1))))
        #expect(error.kind == .timeout)
        #expect(error.stage == "transport")
        #expect(error.url == fault("endless-headers"))
        #expect(elapsed >= .milliseconds(900) && elapsed < Self.noHang)
    }

    @Test("a body that drips slower than the timeout: .timeout, the partial file removed")
    func drippingBody() async throws {
        let directory = try TemporaryDirectory()
        let request = Request(
            url: fault("drip?interval=0.2"), destination: .file(directory.file("drip.bin")), timeouts: Timeouts(total: .seconds(1))
        )
        let (error, elapsed) = try await failure(request)
        #expect(error.kind == .timeout)
        #expect(error.stage == "transport")
        #expect(error.message.contains("out of 1000 bytes"))
        #expect(elapsed < Self.noHang)
        #expect(directory.contents.isEmpty)
    }

    @Test("a gzip bomb (128 MiB in 128 KiB) stops at max-response-size, counted after decoding")
    func gzipBomb() async throws {
        let limit: Int64 = 1 << 20
        let (error, _) = try await failure(Request(url: fault("gzip-bomb")), maxResponseSize: limit)
        #expect(error.kind == .responseTooLarge)
        #expect(error.stage == "transport")
        #expect(error.url == fault("gzip-bomb"))
        #expect(error.message.contains("\(limit) bytes"))
        // Into a file, the same limit holds and nothing is left behind.
        let directory = try TemporaryDirectory()
        var toFile = Request(url: fault("gzip-bomb"), destination: .file(directory.file("bomb.bin")))
        toFile.maxResponseSize = limit
        #expect(try await failure(toFile).error.kind == .responseTooLarge)
        #expect(directory.contents.isEmpty)
    }

    @Test("with no limit set, a body held in memory stops at the 64 MiB default (the gzip bomb inflates to 128 MiB); a file has none")
    func defaultInMemoryLimit() async throws {
        let (error, _) = try await failure(Request(url: fault("gzip-bomb")))
        #expect(error.kind == .responseTooLarge)
        #expect(error.message.contains("\(Pipeline.defaultMaxInMemoryResponseSize) bytes"))
        #expect(error.message.contains("the default for a body held in memory"))
        // The way to raise it is named for a pipeline file and for Swift alike.
        #expect(error.message.contains("max-response-size: in a pipeline file, maxResponseSize in Swift"), "\(error.message)")
        // Just over the default, declared: refused before the body. Streamed to a file: taken whole.
        let over = Request(url: fault("stream?bytes=\((64 << 20) + 1)"))
        #expect(try await failure(over).error.kind == .responseTooLarge)
        let directory = try TemporaryDirectory()
        let toFile = Request(url: fault("stream?bytes=\((64 << 20) + 1)"), destination: .file(directory.file("big.bin")))
        let saved = try await withManager { try await $0.send(toFile) }
        #expect(try FileManager.default.attributesOfItem(atPath: directory.file("big.bin").path)[.size] as? Int == (64 << 20) + 1)
        #expect(saved.status == 200)
    }

    @Test("a declared Content-Length over max-response-size is refused before the body")
    func declaredLengthOverLimit() async throws {
        var request = Request(url: fault("stream?bytes=\(8 << 20)"))
        request.maxResponseSize = 1 << 20
        let (error, _) = try await failure(request)
        #expect(error.kind == .responseTooLarge)
        #expect(error.curlCode == 63)
        // A request's own limit is above the pipeline's: this one passes.
        var allowed = Request(url: fault("stream?bytes=\(2 << 20)"))
        allowed.maxResponseSize = 4 << 20
        let received = try await withManager(maxResponseSize: 1024) { try await $0.send(allowed).body.count }
        #expect(received == 2 << 20)
    }

    @Test("a redirect loop, and a two-step cycle: .redirectLoop in redirects")
    func redirectLoop() async throws {
        let (error, _) = try await failure(Request(url: fault("redirect-loop")), stages: [Redirection()])
        #expect(error.kind == .redirectLoop)
        #expect(error.stage == "redirects")
        let (cycle, _) = try await failure(Request(url: fault("redirect-cycle/a")), stages: [Redirection()])
        #expect(cycle.kind == .redirectLoop)
        #expect(cycle.url?.path == "/redirect-cycle/a" || cycle.url?.path == "/redirect-cycle/b")
    }

    @Test("503 with Retry-After through the retry stage: waits as told, then passes; gives up typed")
    func retryAfter() async throws {
        let url = fault("busy/\(UUID().uuidString)?failures=2&retry-after=1")
        try await withManager(stages: [Retry(attempts: 3, baseDelay: .milliseconds(10)), ResponseDecoding()]) { manager async throws in
            let started = ContinuousClock.now
            let handle = manager.task(Request(url: url))
            #expect(try await handle.value.status == 200)
            #expect(.now - started >= .seconds(2))
            #expect(handle.context.metrics.notes.filter { $0.stage == "retry" }.count == 2)
        }

        let (error, _) = try await failure(
            Request(url: fault("busy/\(UUID().uuidString)?failures=9&retry-after=0")),
            stages: [Retry(attempts: 2, baseDelay: .milliseconds(10)), ResponseDecoding()]
        )
        #expect(error.kind == .unacceptableStatus)
        #expect(error.stage == "response-decoding")
        #expect(error.response?.status == 503)
    }

    @Test("a TLS handshake the server ends with an alert: .tls")
    func tlsHandshakeFailure() async throws {
        let (error, elapsed) = try await failure(Request(url: servers.faultTLS))
        #expect(error.kind == .tls)
        #expect(error.stage == "transport")
        #expect(error.message.contains("handshake failure"))
        #expect(elapsed < Self.noHang)
    }

    @Test("plain HTTP on a TLS port, and TLS on a plain port")
    func protocolMismatch() async throws {
        // nginx answers plain HTTP on its TLS port with a 400 of its own.
        var components = URLComponents(url: servers.nginxHTTPS, resolvingAgainstBaseURL: false)!
        components.scheme = "http"
        let plainToTLS = components.url!.appendingPathComponent("hello.txt")
        let (error, _) = try await failure(Request(url: plainToTLS), stages: [ResponseDecoding(format: .string)])
        #expect(error.kind == .unacceptableStatus)
        #expect(error.response?.status == 400)
        // A TLS port that speaks no HTTP at all answers with bytes that are not a status line.
        var alertPort = URLComponents(url: servers.faultTLS, resolvingAgainstBaseURL: false)!
        alertPort.scheme = "http"
        #expect(try await failure(Request(url: alertPort.url!)).error.kind == .protocolError)
        // TLS spoken to a plain port: the handshake fails.
        var tlsToPlain = URLComponents(url: servers.nginxHTTP, resolvingAgainstBaseURL: false)!
        tlsToPlain.scheme = "https"
        let (tls, _) = try await failure(Request(url: tlsToPlain.url!.appendingPathComponent("hello.txt")))
        #expect(tls.kind == .tls)
        #expect(tls.stage == "transport")
    }

    @Test("a server that accepts and never answers: .timeout, and cancel ends it at once")
    func silentServer() async throws {
        let (error, elapsed) = try await failure(Request(url: fault("silent"), timeouts: Timeouts(total: .milliseconds(800))))
        #expect(error.kind == .timeout)
        #expect(error.stage == "transport")
        #expect(error.url == fault("silent"))
        #expect(elapsed < Self.noHang)

        try await withManager { manager async throws in
            let handle = manager.task(Request(url: fault("silent")))
            try await Task.sleep(for: .milliseconds(200))
            handle.cancel()
            let cancelled = await #expect(throws: SluiceError.self) { try await handle.value }
            #expect(cancelled?.kind == .cancelled)
            #expect(manager.tasks.isEmpty)
        }
    }

    @Test("sluice run streams a 256 MiB body to a file (output:) in bounded memory; into memory it stops at max-response-size")
    func largeResponseToFile() async throws {
        let directory = try TemporaryDirectory()
        let size = 256 << 20
        let pipeline = directory.file("large.yaml")
        try """
        max-response-size: 16MiB
        stages:
          - url-resolution: { base-url: "\(servers.fault.absoluteString)" }
          - response-decoding: { format: data, acceptable-content-types: any }
        requests:
          - name: to-file
            path: stream?bytes=\(size)
            max-response-size: 1GiB
            output: large.bin
          - name: into-memory
            path: stream?bytes=\(size)
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let result = try await SluiceProcess.launch(["run", "--format", "json", pipeline.path], measuringMemory: true)
        #expect(result.status == 1)
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.first?["ok"] as? Bool == true)
        let error = try #require(results.last?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "response too large")
        #expect(error["stage"] as? String == "transport")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("large.bin").path)
        #expect((attributes[.size] as? NSNumber)?.intValue == size)
        let peak = try #require(result.peakResidentBytes)
        #expect(peak < 96 << 20, "peak RSS \(peak >> 20) MiB for a \(size >> 20) MiB body")
    }

    @Test("on a reused connection a bad answer is .protocolError and a stall .timeout, not connect failures")
    func faultsOnReusedConnections() async throws {
        try await withManager(timeouts: Timeouts(total: .milliseconds(500)), redirects: nil) { manager async throws in
            for path in ["bad-status", "endless-headers"] {
                // A 302 (no redirect stage here) leaves the connection open for the next request.
                let warm = try await manager.send(Request(url: fault("redirect-loop")))
                #expect(warm.status == 302)
                let error = await #expect(throws: SluiceError.self) { try await manager.send(Request(url: fault(path))) }
                #expect(error?.kind == (path == "bad-status" ? .protocolError : .timeout), "\(path)")
                #expect(error?.stage == "transport")
            }
        }
    }

    @Test("after every fault, the same transport still serves a good request")
    func transportSurvives() async throws {
        try await withManager(timeouts: Timeouts(total: .milliseconds(500))) { manager async throws in
            for path in ["short-body", "truncated-chunked", "bad-status", "huge-header", "many-headers", "endless-headers", "silent", "reset-in-headers"] {
                await #expect(throws: SluiceError.self) { try await manager.send(Request(url: fault(path))) }
            }
            #expect(try await manager.send(Request(url: fault("ok"))).status == 200)
        }
    }
}
