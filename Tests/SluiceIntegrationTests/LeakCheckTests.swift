import Foundation
import Testing

/// Ten thousand failing requests (every fault of the fault server, a refused port, a name that
/// cannot resolve, a TLS alert), 32 at a time, in `sluice-leak-check`'s own process, so that no
/// other test opens files or allocates meanwhile. What the process holds must come back.
@Suite("Leaks: 10,000 failing requests leave descriptors and memory where they were", .timeLimit(.minutes(3)))
struct LeakCheckTests {
    struct Report: Decodable {
        struct Figures: Decodable {
            let descriptors: [String]
            let heapBytes: Int
            let residentBytes: Int
            var sockets: Int { descriptors.filter { $0 == "socket" }.count }
            var others: [String] { descriptors.filter { $0 != "socket" } }
        }
        let requests: Int
        let kinds: [String: Int]
        let beforeTransport: Figures
        let afterWarmUp: Figures
        let afterRun: Figures
        let afterShutdown: Figures
    }

    @Test("file descriptors and memory are back to their baselines after 10,000 failures")
    func tenThousandFailures() throws {
        let servers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".test-servers/servers.json")
        let path = ProcessInfo.processInfo.environment["SLUICE_TEST_SERVERS"] ?? servers.path
        let executable = SluiceProcess.executable.deletingLastPathComponent().appendingPathComponent("sluice-leak-check")
        let result = try SluiceProcess.run([path, "10000"], executable: executable)
        try #require(result.status == 0, "sluice-leak-check failed: \(result.error)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.output.utf8))

        #expect(report.kinds.values.reduce(0, +) == 10_000, "every request ended in an error: \(report.kinds)")
        for kind in ["connection failed", "DNS failure", "connection lost", "protocol error", "timeout",
                     "response too large", "redirect loop", "TLS failure"] {
            #expect(report.kinds[kind, default: 0] > 0, "no '\(kind)' among \(report.kinds)")
        }
        #expect(report.kinds["invalid request"] == nil && report.kinds["transport failure"] == nil, "\(report.kinds)")

        // Descriptors: the transport's own close with it; during the run only its wake-up pair and
        // at most two idle keep-alive connections are open, and nothing else is.
        #expect(report.afterShutdown.descriptors == report.beforeTransport.descriptors)
        #expect(report.afterRun.others == report.afterWarmUp.others)
        #expect(report.afterRun.sockets <= 4, "\(report.afterRun.descriptors)")

        // Memory: after a warm-up of 1,000 (pools, caches, TLS contexts), 10,000 more add less than
        // 100 bytes a request to the heap in use, and the heap is no larger after shutdown.
        let heapGrowth = report.afterRun.heapBytes - report.afterWarmUp.heapBytes
        #expect(heapGrowth < 1 << 20, "heap grew \(heapGrowth) bytes over 10,000 requests")
        #expect(report.afterShutdown.heapBytes <= report.afterWarmUp.heapBytes)
        let residentGrowth = report.afterRun.residentBytes - report.afterWarmUp.residentBytes
        #expect(residentGrowth < 16 << 20, "RSS grew \(residentGrowth >> 20) MiB over 10,000 requests")
    }
}
