import ArgumentParser
import Foundation
import Sluice

/// `sluice-bench download`: downloads one URL to a file with Sluice's library API and prints the
/// process's peak resident memory.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Downloads a URL to a file and prints the peak resident memory."
    )

    @Option(help: "The URL to download.")
    var url: String

    @Option(help: "The file to write; removed afterwards.")
    var to: String

    func run() async throws {
        guard let source = URL(string: url) else { throw ValidationError("not a URL: \(url)") }
        let destination = URL(fileURLWithPath: to)
        let transport = CurlTransport()
        let manager = SessionManager(pipeline: try Pipeline(transport: transport))
        let before = ProcessMemory.resident
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await manager.download(Request(url: source), to: destination)
        let elapsed = clock.now - start
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
        try? FileManager.default.removeItem(at: destination)
        await transport.shutdown()
        report([
            "status": response.status,
            "bytes": bytes,
            "seconds": elapsed.seconds,
            "residentBeforeMiB": before.mebibytes,
            "peakResidentMiB": ProcessMemory.peakResident.mebibytes,
        ])
    }
}
