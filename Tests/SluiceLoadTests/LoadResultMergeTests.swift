import Foundation
import Histogram
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

@Suite("Load results: files written and read back, shards merged")
struct LoadResultMergeTests {
    /// Shard `index` of four: its own latencies (a fixed-seed sample), counts and window.
    static func shard(_ index: Int) -> LoadResult {
        let responseTimes = HistogramEncodingTests.sample(count: 2000 + index * 500, seed: UInt64(index + 1))
        let serviceTimes = HistogramEncodingTests.sample(count: 2000 + index * 500, seed: UInt64(index + 11))
        let requests = Int(responseTimes.totalCount)
        let start = Date(timeIntervalSince1970: 1_795_424_400 + Double(index) * 0.01)
        return LoadResult(
            pipeline: "checkout", openLoop: true, askedRate: LoadRate(from: 100, to: 2000), concurrency: 64, shardCount: 4, shards: [index],
            start: start, end: start.addingTimeInterval(60 + Double(index)), ok: requests - index, errorsByKind: index == 0 ? [:] : ["timeout": index],
            dropped: index * 2, statuses: [200: requests - index], firstFailure: index == 2 ? "the first" : nil,
            responseTimes: responseTimes, serviceTimes: serviceTimes
        )
    }

    @Test("four shards merged: the totals of their counts, and every percentile of their histograms added by hand")
    func merge() throws {
        let shards = (0..<4).map(Self.shard)
        let merged = try LoadResult.merged(shards.enumerated().map { ("shard-\($0.offset).json", $0.element) })
        var byHand = LoadResult.emptyHistogram()
        var serviceByHand = LoadResult.emptyHistogram()
        for shard in shards {
            byHand.add(shard.responseTimes)
            serviceByHand.add(shard.serviceTimes)
        }
        #expect(merged.requests == shards.map(\.requests).reduce(0, +))
        #expect(merged.requests == Int(byHand.totalCount))
        #expect(merged.ok == shards.map(\.ok).reduce(0, +) && merged.dropped == 12 && merged.errorsByKind == ["timeout": 6])
        #expect(merged.statuses == [200: merged.ok])
        #expect(merged.shards == [0, 1, 2, 3] && merged.missingShards.isEmpty)
        #expect(merged.start == shards[0].start && merged.end == shards[3].end)
        #expect(merged.firstFailure == "the first")
        #expect(merged.responseTime == LoadResult.Latency(byHand))
        #expect(merged.serviceTime == LoadResult.Latency(serviceByHand))
        // Never averaged: the mean of the shards' p99s is not the merged p99 here.
        let averaged = shards.map(\.responseTime.p99).reduce(0, +) / 4
        #expect(averaged != merged.responseTime.p99)
        // Merging the merge with nothing changes nothing; merging in any order gives the same.
        let reversed = try LoadResult.merged(shards.reversed().enumerated().map { ("r\($0.offset)", $0.element) })
        #expect(reversed.responseTime == merged.responseTime && reversed.requests == merged.requests && reversed.shards == merged.shards)
    }

    @Test("a result file reads back as the result it was written from, through JSON")
    func fileRoundTrip() throws {
        let shard = Self.shard(2)
        let text = try JSONWriter(prettyPrinted: true).string(from: shard.fileJSON(redactor: Redactor(secrets: ["the"])))
        let read = try LoadResult(file: Array(text.utf8), path: "shard.json")
        #expect(read.requests == shard.requests && read.ok == shard.ok && read.dropped == shard.dropped)
        #expect(read.errorsByKind == shard.errorsByKind && read.statuses == shard.statuses)
        #expect(read.responseTime == shard.responseTime && read.serviceTime == shard.serviceTime)
        #expect(read.askedRate == shard.askedRate && read.shards == [2] && read.shardCount == 4 && read.concurrency == 64)
        #expect(abs(read.start.timeIntervalSince(shard.start)) < 1e-6 && abs(read.end.timeIntervalSince(shard.end)) < 1e-6)
        #expect(read.firstFailure == "*** first", "the first error is written redacted")
    }

    @Test("results of different runs do not merge, and a shard measured twice is named")
    func mismatches() {
        var other = Self.shard(1)
        other.concurrency = 32
        #expect(throws: SluiceError.self) { try LoadResult.merged([("a", Self.shard(0)), ("b", other)]) }
        do {
            _ = try LoadResult.merged([("a", Self.shard(0)), ("b", Self.shard(0))])
            Issue.record("a shard measured twice merged")
        } catch {
            #expect(error.message == "shard 0 of 4 is measured twice: in a and in b")
        }
    }
}
