import Foundation
internal import Histogram
import Synchronization
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

/// Where a load run's workers record each request as it ends, readable while the run goes on.
///
/// Workers on different I/O threads record into different slots, each behind its own lock, so
/// they never contend; the slots are merged when read.
final class LoadRecorder: Sendable {
    /// One slot's figures.
    struct Tally: Sendable {
        var ok = 0
        var errorsByKind: [String: Int] = [:]
        var statuses: [Int: Int] = [:]
        var exchanges = 0
        var firstFailure: String?
        var responseTimes = LoadResult.emptyHistogram()
        var serviceTimes = LoadResult.emptyHistogram()
    }

    private let slots: [Locked<Tally>]
    private let droppedCount = Atomic<Int>(0)
    private let droppedBeforeStartCount = Atomic<Int>(0)
    private let doneCount = Atomic<Int>(0)
    private let errorCount = Atomic<Int>(0)

    /// A recorder with `slots` independent slots (one per I/O thread).
    init(slots: Int) {
        self.slots = (0..<max(1, slots)).map { _ in Locked(Tally()) }
    }

    /// Requests ended so far.
    var done: Int { doneCount.load(ordering: .relaxed) }
    /// Requests that failed so far.
    var errors: Int { errorCount.load(ordering: .relaxed) }
    /// Requests dropped so far.
    var dropped: Int { droppedCount.load(ordering: .relaxed) }
    /// Of ``dropped``, those due before the loop began (a shard that started after its
    /// `--start-at`).
    var droppedBeforeStart: Int { droppedBeforeStartCount.load(ordering: .relaxed) }

    /// Records one request's end in slot `slot`.
    /// - Parameters:
    ///   - response: from when it was due to its end.
    ///   - service: from when it started to its end.
    ///   - status: its response's status, if one arrived.
    ///   - exchanges: the HTTP exchanges the transport made for it.
    ///   - failure: the kind and the description of its failure, or `nil` when it passed.
    func record(slot: Int, response: Duration, service: Duration, status: Int?, exchanges: Int, failure: (kind: String, description: String)?) {
        slots[slot % slots.count].withLock { tally in
            tally.exchanges += exchanges
            _ = tally.responseTimes.record(Self.microseconds(response))
            _ = tally.serviceTimes.record(Self.microseconds(service))
            if let status { tally.statuses[status, default: 0] += 1 }
            if let failure {
                tally.errorsByKind[failure.kind, default: 0] += 1
                if tally.firstFailure == nil { tally.firstFailure = failure.description }
            } else {
                tally.ok += 1
            }
        }
        doneCount.add(1, ordering: .relaxed)
        if failure != nil { errorCount.add(1, ordering: .relaxed) }
    }

    /// Counts a request of the schedule that was not sent: the cap was reached when it was due,
    /// or it was due before the loop began.
    func drop(beforeStart: Bool = false) {
        droppedCount.add(1, ordering: .relaxed)
        if beforeStart { droppedBeforeStartCount.add(1, ordering: .relaxed) }
    }

    /// The response time's 99th percentile so far, in milliseconds (0 before any request ended).
    var responseTimeP99: Double {
        LoadResult.Latency(tally().responseTimes).p99
    }

    /// Every slot's figures together.
    func tally() -> Tally {
        var merged = Tally()
        for slot in slots {
            slot.withLock { tally in
                merged.ok += tally.ok
                merged.errorsByKind.merge(tally.errorsByKind, uniquingKeysWith: +)
                merged.statuses.merge(tally.statuses, uniquingKeysWith: +)
                merged.exchanges += tally.exchanges
                merged.firstFailure = merged.firstFailure ?? tally.firstFailure
                merged.responseTimes.add(tally.responseTimes)
                merged.serviceTimes.add(tally.serviceTimes)
            }
        }
        return merged
    }

    /// A duration in whole microseconds, within what the histograms track.
    private static func microseconds(_ duration: Duration) -> UInt64 {
        let value = DurationText.milliseconds(duration) * 1000
        return value <= 0 ? 0 : min(UInt64(value.rounded()), LoadResult.longestMicroseconds)
    }
}
