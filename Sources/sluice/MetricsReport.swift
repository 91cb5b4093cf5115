import Sluice

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
        return lines.joined(separator: "\n") + "\n"
    }

    private func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return value.formatted(.number.precision(.fractionLength(3))) + " ms"
    }
}
