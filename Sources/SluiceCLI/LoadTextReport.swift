import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// The text summary of a load run, or of shards merged by `sluice report merge`:
///
/// ```
/// checkout: load (open loop, at most 64 in flight)
///   requests  6000  ok 5990  errors 10  dropped 0
///   seconds   30.004
///   rps       199.8  (asked 200/s)
///   latency   p50 1.20 ms  p90 2.31 ms  p99 812.03 ms  p99.9 990.21 ms  max 1003.52 ms
///   service   p50 1.19 ms  p90 2.10 ms  p99 4.02 ms  p99.9 9.11 ms  max 1003.52 ms
///   errors    timeout ×10
///   statuses  200 ×5990
///   failed    10 of 6000 requests failed (timeout ×10)
/// ```
///
/// A run that exits 1 says why in its last line: the requests that failed, by kind, and the
/// requests of the schedule that were dropped, with what to change.
///
/// `latency` is the response time, from when each request was due; `service` (shown for the open
/// loop, where a gap between the two says the client fell behind; in the closed loop it differs
/// only by the time to connect, and is in the JSON) from when it went on the wire. Text from the result (the
/// pipeline's name, error kinds, the first error) may come from another machine's file, so its
/// control characters are shown escaped (`Terminal.printable`).
struct LoadTextReport {
    let terminal: Terminal
    let redactor: Redactor

    /// Why the run fails (exit status 1), `nil` when it passes: the requests that failed, by
    /// kind, and the requests dropped, with the remedy.
    static func failure(_ result: LoadResult) -> String? {
        var reasons: [String] = []
        if let stopped = result.stoppedBy {
            reasons.append("the run was stopped by \(Terminal.printable(stopped)) after \(FixedPointText.string(result.seconds, fractionDigits: 1)) s, before it sent what it was asked")
        }
        if result.errors > 0 {
            let kinds = result.errorsInOrder.map { "\(Terminal.printable($0.kind)) ×\($0.count)" }.joined(separator: ", ")
            reasons.append("\(result.errors) of \(result.requests) requests failed (\(kinds))")
        }
        let late = result.droppedBeforeStart
        if late > 0 {
            reasons.append("\(late) of \(result.requests + result.dropped) requests were dropped: they were due before the run began, after its --start-at; start the shards together")
        }
        if result.dropped - late > 0 {
            let dropped = "\(result.dropped - late) of \(result.requests + result.dropped) requests were dropped: they were due while \(result.concurrency) \(result.concurrency == 1 ? "was" : "were") in flight"
            // Requests that started late, not a slow server, filled the cap: the client's
            // machine could not keep up, and a higher cap only queues more behind it.
            let response: Double = result.responseTime.p50
            let service: Double = result.serviceTime.p50
            let clientBound = result.openLoop && response > 2 * service && response - service > 1
            let responseText = FixedPointText.string(response, fractionDigits: 2)
            let serviceText = FixedPointText.string(service, fractionDigits: 2)
            let remedy = clientBound
                ? "; the client could not keep up (response time p50 \(responseText) ms against the server's \(serviceText) ms): lower --rate, or spread it over machines with --shard"
                : "; raise --concurrency, or lower --rate"
            reasons.append(dropped + remedy)
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// The load mode's summary: counts, the rate, latency percentiles (response time, and in the
    /// open loop service time as well), errors by kind and statuses.
    /// - Parameter merged: whether the result is shards merged by `sluice report merge`, which
    ///   then names the shards missing; a shard's own run names only itself.
    func text(_ result: LoadResult, merged: Bool) -> String {
        func ms(_ value: Double) -> String { FixedPointText.string(value, fractionDigits: 2) }
        func percentiles(_ latency: LoadResult.Latency) -> String {
            latency.named.map { "\($0.name) \(result.requests > 0 ? "\(ms($0.milliseconds)) ms" : "n/a")" }.joined(separator: "  ")
        }
        func counted(_ pairs: [(String, Int)]) -> String {
            pairs.map { "\(Terminal.printable($0.0)) ×\($0.1)" }.joined(separator: "  ")
        }
        // A shard's own run says what it was asked for itself, beside the whole run's figures.
        let ownShard = !merged && result.shardCount > 1 && result.shards.count == 1
            ? result.shards.first.flatMap { LoadShard(index: $0, count: result.shardCount) } : nil
        // A merge with shards missing held only the measured shards' shares of the cap.
        let measured = merged && result.shards.count < result.shardCount
            ? result.shards.compactMap { LoadShard(index: $0, count: result.shardCount)?.share(of: result.concurrency) }.reduce(0, +) : nil
        let inFlight = (ownShard.map { $0.share(of: result.concurrency) } ?? measured).map { "\($0) (\(result.concurrency) for the run)" } ?? "\(result.concurrency)"
        let loop = result.openLoop ? "open loop, at most \(inFlight) in flight" : "closed loop, \(inFlight) in flight"
        var text = "\(Terminal.printable(result.pipeline)): load (\(loop))\n"
        let errors = result.errors > 0 ? terminal.red("\(result.errors)") : "0"
        let dropped = result.dropped > 0 ? terminal.red("\(result.dropped)") : "0"
        text += "  requests  \(result.requests)  ok \(result.ok)  errors \(errors)" + (result.openLoop ? "  dropped \(dropped)" : "") + "\n"
        if let exchanges = result.exchanges, exchanges != result.requests {
            text += "  exchanges \(exchanges)  (what went on the wire: a redirect hop or a retry is one more, a cached response none)\n"
        }
        text += "  seconds   \(FixedPointText.string(result.seconds, fractionDigits: 3))\n"
        let asked = result.askedRate.map { rate in
            guard ownShard != nil else { return "  (asked \(rate))" }
            let share = LoadRate(from: rate.from / Double(result.shardCount), to: rate.to / Double(result.shardCount))
            return "  (asked \(share) here, \(rate) for the run)"
        } ?? ""
        text += "  rps       \(FixedPointText.string(result.achievedRate, fractionDigits: 1))\(asked)\n"
        text += "  latency   \(percentiles(result.responseTime))\n"
        if result.openLoop {
            text += "  service   \(percentiles(result.serviceTime))\n"
        }
        if !result.errorsByKind.isEmpty {
            text += "  errors    " + counted(result.errorsInOrder.map { ($0.kind, $0.count) }) + "\n"
        }
        if !result.statuses.isEmpty {
            text += "  statuses  " + counted(result.statuses.sorted { $0.key < $1.key }.map { (String($0.key), $0.value) }) + "\n"
        }
        if result.shardCount > 1 {
            let missing = merged ? result.missingShards : []
            text += "  shards    \(result.shards.map(String.init).joined(separator: ",")) of \(result.shardCount)"
                + (missing.isEmpty ? "" : terminal.red("  missing \(missing.map(String.init).joined(separator: ","))")) + "\n"
        }
        if let failure = result.firstFailure {
            text += "  first error: \(Terminal.printable(redactor.redact(failure)))\n"
        }
        if let verdict = LoadTextReport.failure(result) {
            text += "  \(terminal.red("failed"))    \(verdict)\n"
        }
        return text
    }
}
