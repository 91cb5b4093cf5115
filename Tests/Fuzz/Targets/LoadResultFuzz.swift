import CZlib
import Foundation
import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// Load result files from anywhere (`sluice report merge` reads what other machines wrote). The
/// first byte chooses what the rest is:
/// - even: a whole file. It is read or refused with a message naming the file, never a crash;
///   one that reads is written again and reads as the same result, and merges with itself as
///   another shard into twice its counts with the same percentiles.
/// - odd: the counts payload of an HdrHistogram encoding, which the target deflates and wraps in
///   a valid envelope and file, so that the fuzzer reaches the payload reader past zlib's
///   checksum: read or refused, never a crash, a hang or a runaway allocation.
enum LoadResultFuzz {
    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        if mode % 2 == 0 {
            file(Array(input.dropFirst()))
        } else {
            payload(Array(input.dropFirst()))
        }
    }

    private static func file(_ bytes: [UInt8]) {
        let result: LoadResult
        do {
            result = try LoadResult(file: bytes, path: "fuzz.json")
        } catch {
            require(error.message.hasPrefix("fuzz.json: "), "an error that does not name the file: \(error.message)")
            return
        }
        let written = try! JSONWriter().string(from: result.fileJSON(redactor: Redactor(secrets: [])))
        let again: LoadResult
        do {
            again = try LoadResult(file: Array(written.utf8), path: "again.json")
        } catch {
            preconditionFailure("a result written back does not read: \(error.message)\n\(written)")
        }
        require(again.requests == result.requests && again.dropped == result.dropped && again.statuses == result.statuses, "counts changed: \(written)")
        require(again.responseTime == result.responseTime && again.serviceTime == result.serviceTime, "percentiles changed: \(written)")
        require(abs(again.start.timeIntervalSince(result.start)) < 1e-6 && abs(again.end.timeIntervalSince(result.end)) < 1e-6, "window changed: \(written)")
        var other = result
        other.shards = result.missingShards
        guard !other.shards.isEmpty, result.requests < Int.max / 2, let merged = try? LoadResult.merged([("a", result), ("b", other)]) else { return }
        require(merged.requests == 2 * result.requests, "merged \(merged.requests), not twice \(result.requests)")
        require(merged.responseTime == result.responseTime, "merging a result with its copy changed the percentiles")
    }

    private static func payload(_ payload: [UInt8]) {
        var inner: [UInt8] = []
        func append(_ value: some FixedWidthInteger) { withUnsafeBytes(of: value.bigEndian) { inner += $0 } }
        append(UInt32(0x1c84_9313))
        append(UInt32(payload.count))
        append(UInt32(0))
        append(UInt32(3))
        append(UInt64(1))
        append(UInt64(3_600_000_000))
        append((1.0).bitPattern)
        inner += payload
        var length = compressBound(uLong(inner.count))
        var deflated = [UInt8](repeating: 0, count: Int(length))
        require(compress2(&deflated, &length, inner, uLong(inner.count), 1) == Z_OK, "compress2 failed")
        var envelope: [UInt8] = []
        withUnsafeBytes(of: UInt32(0x1c84_9314).bigEndian) { envelope += $0 }
        withUnsafeBytes(of: UInt32(length).bigEndian) { envelope += $0 }
        envelope += deflated.prefix(Int(length))
        let histogram = Data(envelope).base64EncodedString()
        let file = """
            {"format": "sluice-load-result", "version": 1, "pipeline": "p", "mode": "open", "rate": 10, "concurrency": 1,
             "shards": {"count": 1, "measured": [0]}, "window": {"start": "2026-11-23T09:00:00Z", "end": "2026-11-23T09:00:01Z"},
             "ok": 0, "errors-by-kind": {}, "dropped": 0, "statuses": {}, "first-error": null,
             "histograms": {"unit": "microseconds", "response-time": "\(histogram)", "service-time": "\(histogram)"}}
            """
        do {
            _ = try LoadResult(file: Array(file.utf8), path: "payload.json")
        } catch {
            require(error.message.hasPrefix("payload.json: "), "an error that does not name the file: \(error.message)")
        }
    }
}
