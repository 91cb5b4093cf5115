import Foundation
import Testing

/// Ten thousand failing requests (every fault of the fault server, a refused port, a name that
/// cannot resolve, a TLS alert), 32 at a time, in `sluice-leak-check`'s own process, so that no
/// other test opens files or allocates meanwhile. What the process holds must come back.
@Suite("Leaks: 10,000 failing requests leave descriptors and memory where they were", .timeLimit(.minutes(3)))
struct LeakCheckTests {
    /// One set of figures of `sluice-leak-check`'s report (its `Figures`, read as JSON).
    struct Figures {
        let descriptors: [String]
        let heapBytes: Int
        let residentBytes: Int
        var sockets: Int { descriptors.filter { $0 == "socket" }.count }
        var others: [String] { descriptors.filter { $0 != "socket" } }

        init(_ report: [String: Any], _ key: String) throws {
            let figures = try #require(report[key] as? [String: Any], "no \(key) in the report")
            descriptors = try #require(figures["descriptors"] as? [String])
            heapBytes = try #require(figures["heapBytes"] as? Int)
            residentBytes = try #require(figures["residentBytes"] as? Int)
        }
    }

    @Test("file descriptors and memory are back to their baselines after 10,000 failures")
    func tenThousandFailures() async throws {
        let servers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".test-servers/servers.json")
        let path = ProcessInfo.processInfo.environment["SLUICE_TEST_SERVERS"] ?? servers.path
        let executable = SluiceProcess.executable.deletingLastPathComponent().appendingPathComponent("sluice-leak-check")
        // No per-thread malloc caches: a chunk freed into one counts as in use, which made the
        // heap figures move by up to 100 KiB from run to run. Launched, not run: waiting 20 s or
        // more on one of the cooperative pool's two threads stalled every other test of the run
        // (a request with an 800 ms timeout took 35 s, failing the fault tests' hang check).
        let result = try await SluiceProcess.launch(
            [path, "10000"], executable: executable, environment: ["GLIBC_TUNABLES": "glibc.malloc.tcache_count=0"]
        )
        try #require(result.status == 0, "sluice-leak-check failed: \(result.error)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let kinds = try #require(report["kinds"] as? [String: Int])
        let (beforeTransport, afterWarmUp) = (try Figures(report, "beforeTransport"), try Figures(report, "afterWarmUp"))
        let (afterRun, afterShutdown) = (try Figures(report, "afterRun"), try Figures(report, "afterShutdown"))

        #expect(kinds.values.reduce(0, +) == 10_000, "every request ended in an error: \(kinds)")
        for kind in ["connection failed", "DNS failure", "connection lost", "protocol error", "timeout",
                     "response too large", "redirect loop", "TLS failure"] {
            #expect(kinds[kind, default: 0] > 0, "no '\(kind)' among \(kinds)")
        }
        #expect(kinds["invalid request"] == nil && kinds["transport failure"] == nil, "\(kinds)")

        // Descriptors: the transport's own close with it; during the run only its wake-up pair and
        // at most two idle keep-alive connections are open, and nothing else is.
        #expect(afterShutdown.descriptors == beforeTransport.descriptors)
        #expect(afterRun.others == afterWarmUp.others)
        #expect(afterRun.sockets <= 4, "\(afterRun.descriptors)")

        // Memory: after a warm-up of 1,000 (pools, caches, TLS contexts), 10,000 more add less than
        // 100 bytes a request to the heap in use, and shutting the transport down frees, never adds.
        // (The heap after shutdown is not compared with the warm-up's: process-wide caches that
        // fill as new paths run leave it up to 15 KiB either side, whatever the count.)
        let heapGrowth = afterRun.heapBytes - afterWarmUp.heapBytes
        #expect(heapGrowth < 1 << 20, "heap grew \(heapGrowth) bytes over 10,000 requests")
        #expect(afterShutdown.heapBytes <= afterRun.heapBytes)
        if report["addressSanitizer"] as? Bool != true {
            let residentGrowth = afterRun.residentBytes - afterWarmUp.residentBytes
            #expect(residentGrowth < 16 << 20, "RSS grew \(residentGrowth >> 20) MiB over 10,000 requests")
        }
    }
}
