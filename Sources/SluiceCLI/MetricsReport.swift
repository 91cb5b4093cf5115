import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// The `--metrics` report: an exchange's timeline, bytes, connection and stage timings.
struct MetricsReport {
    let response: Response
    let task: TaskMetrics

    var text: String {
        var lines = ["status      \(response.status) over \(response.httpVersion)"]
        if let metrics = response.metrics {
            lines += [
                "dns         \(milliseconds(metrics.dnsLookup))",
                "connect     \(milliseconds(metrics.connect))",
                "tls         \(milliseconds(metrics.tlsHandshake))",
                "pretransfer \(milliseconds(metrics.timeToPreTransfer)) from start",
                "first byte  \(milliseconds(metrics.timeToFirstByte)) from start",
                "total       \(milliseconds(metrics.total))",
                "sent        \(metrics.bytesSent) bytes",
                "received    \(metrics.bytesReceived) bytes",
                "connection  \(metrics.connectionReused ? "reused" : "new") to \(metrics.remoteAddress ?? "?"):\(metrics.remotePort.map(String.init) ?? "?")",
            ]
        }
        for stage in task.stages {
            lines.append("stage       \(stage.name): \(milliseconds(stage.duration)) in \(stage.invocations) run(s)")
        }
        if let peak = MetricsReport.peakMemoryKiB() {
            lines.append("peak memory \(peak) KiB")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The process's peak resident memory (`VmHWM` in /proc/self/status), in KiB.
    static func peakMemoryKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }

    private func milliseconds(_ duration: Duration) -> String {
        DurationText.milliseconds(duration).formatted(.number.precision(.fractionLength(3))) + " ms"
    }
}
