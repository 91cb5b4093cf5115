import Foundation
internal import Histogram
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

/// What a load run measured, for one shard or for several merged: counts, errors by kind,
/// statuses, the time window, and two latency histograms.
///
/// - **Response time** runs from when a request was *due* to its last byte: in the open loop its
///   place in the schedule, so time spent waiting behind a slow server counts, as the server's
///   users would feel it. In the closed loop a request is due when its worker is free to start it.
/// - **Service time** runs from when the request went on the wire (its connection ready, new or
///   reused): less than the response time by the time the client took to start it, and in the
///   closed loop by the time it took to connect.
///
/// The histograms are HdrHistograms of microseconds with three significant digits, the layout
/// every shard uses, so merged percentiles are read from the merged counts, never averaged.
public struct LoadResult: Sendable {
    /// Latencies in microseconds, up to an hour (longer ones are recorded as an hour).
    static let longestMicroseconds: UInt64 = 3_600_000_000

    /// The pipeline's name.
    public var pipeline: String
    /// Whether requests were sent on a schedule.
    public var openLoop: Bool
    /// The arrival rate asked for the whole run, in the open loop.
    public var askedRate: LoadRate?
    /// The cap on requests in flight, for the whole run.
    public var concurrency: Int
    /// What the run was asked to send, in the command line's words: its length and its selection
    /// (`--repeat 1000`, `--duration 30s --only checkout`); shards of one run say the same.
    /// `nil` in a file that does not record it.
    public var extent: String? = nil
    /// How many shards the run was split into.
    public var shardCount: Int
    /// The shards measured here: one for a shard's own result, several once merged.
    public var shards: [Int]
    /// When the run started (the first request was due), on the wall clock.
    public var start: Date
    /// When the last request ended, on the wall clock.
    public var end: Date
    /// Requests that completed and met their expectations.
    public var ok: Int
    /// Requests that failed, by the kind of failure: a `SluiceError/Kind` description, or
    /// `expectation not met`.
    public var errorsByKind: [String: Int]
    /// Requests of the open loop's schedule not sent because `concurrency` were already in
    /// flight when they were due.
    public var dropped: Int
    /// Of ``dropped``, the requests due before the shard began: it started after its
    /// `--start-at` and kept the run's schedule.
    public var droppedBeforeStart = 0
    /// How many responses arrived with each status, whatever a stage or an expectation then made
    /// of them; requests that got no response are not counted here.
    public var statuses: [Int: Int]
    /// The HTTP exchanges the transport made for the requests: as many as ``requests`` unless a
    /// stage sent some again (a redirect hop, the retry stage's tries: one more each) or answered
    /// one itself (a response from the cache: none). `nil` in a file that does not record it.
    public var exchanges: Int? = nil
    /// The first failure seen, to say why errors happened, with its response's status when one
    /// arrived.
    public var firstFailure: String?
    /// What stopped the run before it sent what it was asked (`Ctrl-C`, `SIGTERM`, `SIGHUP`):
    /// its figures are then those of the requests sent until then, and every report says so and
    /// fails. `nil` for a run that went to its end.
    public var stoppedBy: String? = nil
    /// Response times in microseconds.
    var responseTimes: Histogram<UInt64>
    /// Service times in microseconds.
    var serviceTimes: Histogram<UInt64>

    /// A histogram with the layout every load result uses.
    static func emptyHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(highestTrackableValue: longestMicroseconds, numberOfSignificantValueDigits: .three)
    }

    /// The sum of `numbers`, or `nil` when it does not fit in an `Int` (counts from files are
    /// checked with it before any arithmetic can trap).
    static func sum(_ numbers: some Sequence<Int>) -> Int? {
        var total = 0
        for number in numbers {
            let (sum, overflow) = total.addingReportingOverflow(number)
            if overflow { return nil }
            total = sum
        }
        return total
    }

    /// ``errorsByKind`` in the order every report lists it: the kinds by code point.
    public var errorsInOrder: [(kind: String, count: Int)] {
        errorsByKind.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }.map { ($0.key, $0.value) }
    }

    /// Requests that failed or missed an expectation.
    public var errors: Int { errorsByKind.values.reduce(0, +) }
    /// Requests that were sent and ended, one way or the other.
    public var requests: Int { ok + errors }
    /// The window from the first due request to the last end, in seconds: in the open loop at
    /// least the whole schedule, to when the request after the last would have been due.
    public var seconds: Double { max(0, end.timeIntervalSince(start)) }
    /// Requests ended per second of the window.
    public var achievedRate: Double { seconds > 0 ? Double(requests) / seconds : 0 }
    /// Response-time percentiles: from when each request was due.
    public var responseTime: Latency { Latency(responseTimes) }
    /// Service-time percentiles: from when each request went on the wire (its first exchange's
    /// `TransferMetrics/requestSentAt`; from its start when it never got there) to its end.
    public var serviceTime: Latency { Latency(serviceTimes) }

    /// Latency figures in milliseconds, read from a histogram.
    public struct Latency: Sendable, Hashable {
        /// The median.
        public var p50: Double
        /// The 90th percentile.
        public var p90: Double
        /// The 99th percentile.
        public var p99: Double
        /// The 99.9th percentile.
        public var p999: Double
        /// The slowest (the top of its histogram bucket).
        public var max: Double

        /// Percentiles of a histogram of microseconds.
        ///
        /// Each is the top of its bucket, as HdrHistogram's Java and Python libraries give it (the
        /// Swift library caps the top bucket at the largest value recorded, which a histogram read
        /// back from its encoding no longer knows): the figures are then the same for a run's own
        /// histogram, its file, and the same counts merged.
        init(_ histogram: Histogram<UInt64>) {
            func milliseconds(_ percentile: Double) -> Double {
                histogram.totalCount == 0 ? 0 : Double(histogram.highestEquivalentForValue(histogram.valueAtPercentile(percentile))) / 1000
            }
            p50 = milliseconds(50)
            p90 = milliseconds(90)
            p99 = milliseconds(99)
            p999 = milliseconds(99.9)
            max = Double(histogram.max) / 1000
        }

        /// The figures by name, in order: `p50`, `p90`, `p99`, `p99.9`, `max`.
        public var named: [(name: String, milliseconds: Double)] {
            [("p50", p50), ("p90", p90), ("p99", p99), ("p99.9", p999), ("max", max)]
        }
    }
}
