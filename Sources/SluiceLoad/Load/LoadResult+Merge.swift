import Foundation
internal import Histogram
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

extension LoadResult {
    /// The shards of the run that are not measured here.
    public var missingShards: [Int] {
        let measured = Set(shards)
        return (0..<shardCount).filter { !measured.contains($0) }
    }

    /// Several shards' results as one: counts, errors and statuses added, histograms merged (so
    /// percentiles are read from every shard's counts together, never averaged), the window from
    /// the earliest start to the latest end.
    /// - Parameter results: each result with the name it is known by (its file), for messages.
    /// - Throws: `.configuration` when the results are not shards of one run (another pipeline,
    ///   loop, rate, concurrency or number of shards), or when a shard is measured twice;
    ///   `.decoding` when the counts add up to more than an `Int` holds.
    public static func merged(_ results: [(name: String, result: LoadResult)]) throws(SluiceError) -> LoadResult {
        guard var merged = results.first?.result, let firstName = results.first?.name else {
            throw SluiceError(kind: .configuration, message: "no load results to merge")
        }
        var measuredBy: [Int: String] = [:]
        for shard in merged.shards { measuredBy[shard] = firstName }
        merged.responseTimes = emptyHistogram()
        merged.serviceTimes = emptyHistogram()
        merged.responseTimes.autoResize = true
        merged.serviceTimes.autoResize = true
        for (index, (name, result)) in results.enumerated() {
            func differ(_ what: String, _ mine: String, _ theirs: String) -> SluiceError {
                SluiceError(kind: .configuration, message: "\(name) is not a shard of the same run as \(firstName): its \(what) is \(theirs), not \(mine)")
            }
            if result.pipeline.unicodeScalars.elementsEqual(merged.pipeline.unicodeScalars) == false { throw differ("pipeline", merged.pipeline, result.pipeline) }
            if result.openLoop != merged.openLoop { throw differ("loop", merged.openLoop ? "open" : "closed", result.openLoop ? "open" : "closed") }
            if result.askedRate != merged.askedRate { throw differ("rate", merged.askedRate.map(\.description) ?? "none", result.askedRate.map(\.description) ?? "none") }
            if result.concurrency != merged.concurrency { throw differ("concurrency", "\(merged.concurrency)", "\(result.concurrency)") }
            if let mine = merged.extent, let theirs = result.extent, !mine.unicodeScalars.elementsEqual(theirs.unicodeScalars) {
                throw differ("run", "'\(mine)'", "'\(theirs)'")
            }
            if result.shardCount != merged.shardCount { throw differ("number of shards", "\(merged.shardCount)", "\(result.shardCount)") }
            if index > 0 {
                for shard in result.shards {
                    if let other = measuredBy.updateValue(name, forKey: shard) {
                        throw SluiceError(kind: .configuration, message: "shard \(shard) of \(result.shardCount) is measured twice: in \(other) and in \(name)")
                    }
                }
                guard let ok = sum([merged.ok, result.ok]), let dropped = sum([merged.dropped, result.dropped]),
                    sum([ok, dropped] + merged.errorsByKind.values + result.errorsByKind.values) != nil
                else { throw SluiceError(kind: .decoding, message: "\(name): the counts add up to more than this machine counts") }
                merged.ok = ok
                merged.dropped = dropped
                merged.droppedBeforeStart += result.droppedBeforeStart
                merged.shards += result.shards
                merged.start = min(merged.start, result.start)
                merged.end = max(merged.end, result.end)
                merged.errorsByKind.merge(result.errorsByKind, uniquingKeysWith: +)
                merged.statuses.merge(result.statuses, uniquingKeysWith: +)
                merged.exchanges = merged.exchanges.flatMap { mine in result.exchanges.flatMap { sum([mine, $0]) } }
                merged.firstFailure = merged.firstFailure ?? result.firstFailure
                merged.stoppedBy = merged.stoppedBy ?? result.stoppedBy
            }
            merged.responseTimes.add(result.responseTimes)
            merged.serviceTimes.add(result.serviceTimes)
        }
        merged.shards.sort()
        return merged
    }

    /// How long after one result's window ended another's began, in seconds, when any began
    /// after another ended; `nil` when every window overlaps every other (shards that ran
    /// together, as `--start-at` starts them).
    public static func firstGap(between results: [LoadResult]) -> Double? {
        guard let lastStart = results.map(\.start).max(), let firstEnd = results.map(\.end).min(), lastStart > firstEnd else { return nil }
        return lastStart.timeIntervalSince(firstEnd)
    }
}
