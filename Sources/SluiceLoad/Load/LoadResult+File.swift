import Foundation
internal import Histogram
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

extension LoadResult {
    /// The `format` of a load result file.
    public static let fileFormat = "sluice-load-result"
    /// The version of the format this build writes and reads.
    public static let fileVersion = 1

    /// The load result file `--report histogram:PATH` writes: one shard's (or a merge's) whole
    /// result, for `sluice report merge`.
    ///
    /// ```json
    /// {"format": "sluice-load-result", "version": 1, "pipeline": "checkout",
    ///  "mode": "open", "rate": 200 | {"from": 100, "to": 2000} | null, "concurrency": 64,
    ///  "extent": "--duration 60s --only checkout",
    ///  "shards": {"count": 4, "measured": [0]},
    ///  "window": {"start": "2026-11-23T09:00:00.000000Z", "end": "2026-11-23T09:01:00.012000Z"},
    ///  "ok": 2990, "errors-by-kind": {"timeout": 10}, "dropped": 0, "dropped-before-start": 0, "statuses": {"200": 2990},
    ///  "exchanges": 3000,
    ///  "first-error": "... (redacted)" | null, "stopped-by": "SIGTERM" | null,
    ///  "histograms": {"unit": "microseconds", "response-time": "HISTFAAA...", "service-time": "HISTFAAA..."}}
    /// ```
    ///
    /// The histograms are HdrHistogram's V2 compressed encoding in base64 (see
    /// `HistogramEncoding`), which HdrHistogram's own libraries read.
    public func fileJSON(redactor: Redactor) -> JSONValue {
        let rate: JSONValue = askedRate.map { $0.isRamp ? ["from": .double($0.from), "to": .double($0.to)] : .double($0.from) } ?? .null
        return [
            "format": .string(Self.fileFormat), "version": .int(Self.fileVersion),
            "pipeline": .string(pipeline), "mode": .string(openLoop ? "open" : "closed"), "rate": rate, "concurrency": .int(concurrency),
            "extent": extent.map { .string($0) } ?? .null,
            "shards": shardsJSON,
            "window": windowJSON,
            "ok": .int(ok),
            "errors-by-kind": errorsByKindJSON,
            "dropped": .int(dropped),
            "dropped-before-start": .int(droppedBeforeStart),
            "statuses": statusesJSON,
            "exchanges": exchanges.map { .int($0) } ?? .null,
            "first-error": firstFailure.map { .string(redactor.redact($0)) } ?? .null,
            "stopped-by": stoppedBy.map { .string($0) } ?? .null,
            "histograms": [
                "unit": "microseconds",
                "response-time": .string(HistogramEncoding.string(responseTimes)),
                "service-time": .string(HistogramEncoding.string(serviceTimes)),
            ],
        ]
    }

    /// Reads a load result file.
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - path: its path, for messages.
    /// - Throws: `.decoding` naming the file and the field for anything that is not a load result
    ///   file of this version.
    public init(file bytes: some Collection<UInt8>, path: String) throws(SluiceError) {
        func failure(_ message: String) -> SluiceError {
            SluiceError(kind: .decoding, message: "\(path): \(message)")
        }
        let document: JSONValue
        do {
            document = try JSONReader().value(from: bytes)
        } catch {
            throw failure("not JSON: \(error)")
        }
        guard document["format"]?.stringValue == Self.fileFormat else { throw failure("not a load result file (no \"format\": \"\(Self.fileFormat)\")") }
        guard document["version"]?.intValue == Self.fileVersion else {
            throw failure("version \(document["version"].map { "\($0)" } ?? "missing"); this sluice reads version \(Self.fileVersion)")
        }
        func field<T>(_ name: String, _ read: (JSONValue) -> T?, in value: JSONValue? = nil) throws(SluiceError) -> T {
            guard let found = (value ?? document)[name], let result = read(found) else { throw failure("field '\(name)' is missing or not valid") }
            return result
        }
        func count(_ value: JSONValue) -> Int? { value.intValue.flatMap { $0 >= 0 ? $0 : nil } }
        func counts(_ value: JSONValue) -> [String: Int]? {
            guard case .object(let object) = value else { return nil }
            var result: [String: Int] = [:]
            for member in object {
                guard let number = count(member.value), result.updateValue(number, forKey: member.key) == nil else { return nil }
            }
            return result
        }
        pipeline = try field("pipeline", \.stringValue)
        let mode = try field("mode", \.stringValue)
        guard mode == "open" || mode == "closed" else { throw failure("field 'mode' is '\(mode)', not open or closed") }
        openLoop = mode == "open"
        let rate = try field("rate", { $0 })
        if rate.isNull {
            askedRate = nil
        } else if let steady = rate.doubleValue {
            askedRate = LoadRate(from: steady)
        } else {
            askedRate = LoadRate(from: try field("from", \.doubleValue, in: rate), to: try field("to", \.doubleValue, in: rate))
        }
        guard askedRate?.isValid != false else { throw failure("field 'rate' is not a rate: from 0 to \(Int(LoadRate.maximum)) requests per second") }
        concurrency = try field("concurrency", count)
        // Optional: a file written before the run's extent was recorded has none.
        extent = document["extent"]?.stringValue
        let shardInfo = try field("shards", { $0 })
        let shardCount = try field("count", count, in: shardInfo)
        let shards = try field("measured", { value -> [Int]? in
            guard case .array(let items) = value, !items.isEmpty else { return nil }
            let numbers = items.compactMap(\.intValue)
            return numbers.count == items.count ? numbers : nil
        }, in: shardInfo)
        guard (1...LoadShard.maximumCount).contains(shardCount), shards.allSatisfy({ (0..<shardCount).contains($0) }), Set(shards).count == shards.count else {
            throw failure("field 'shards' has more than \(LoadShard.maximumCount) shards, names shards outside 0..<\(shardCount), or one twice")
        }
        self.shardCount = shardCount
        self.shards = shards
        let window = try field("window", { $0 })
        start = try field("start", { $0.stringValue.flatMap(RFC3339Timestamp.date) }, in: window)
        end = try field("end", { $0.stringValue.flatMap(RFC3339Timestamp.date) }, in: window)
        guard end >= start else { throw failure("the window ends before it starts") }
        ok = try field("ok", count)
        errorsByKind = try field("errors-by-kind", counts)
        dropped = try field("dropped", count)
        // Optional: a file that does not record it dropped none so.
        droppedBeforeStart = document["dropped-before-start"].flatMap(count) ?? 0
        guard droppedBeforeStart <= dropped else { throw failure("field 'dropped-before-start' is more than 'dropped'") }
        var statuses: [Int: Int] = [:]
        for (status, number) in try field("statuses", counts) {
            guard status.count == 3, status.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(status) else { throw failure("status '\(status)' is not a status code") }
            statuses[code] = number
        }
        self.statuses = statuses
        // Optional: a file written before exchanges were counted has none.
        exchanges = document["exchanges"].flatMap(count)
        let firstError = try field("first-error", { $0 })
        firstFailure = firstError.stringValue
        // Optional: a file that does not record it went to its end.
        stoppedBy = document["stopped-by"]?.stringValue
        let histograms = try field("histograms", { $0 })
        guard try field("unit", \.stringValue, in: histograms) == "microseconds" else { throw failure("histograms.unit must be microseconds") }
        func histogram(_ name: String) throws(SluiceError) -> Histogram<UInt64> {
            let text = try field(name, \.stringValue, in: histograms)
            do {
                return try HistogramEncoding.histogram(text)
            } catch {
                throw failure("histograms.\(name) cannot be read: \(error)")
            }
        }
        responseTimes = try histogram("response-time")
        serviceTimes = try histogram("service-time")
        guard Self.sum([ok, dropped] + errorsByKind.values) != nil else { throw failure("the counts add up to more than this machine counts") }
        guard responseTimes.totalCount == UInt64(requests), serviceTimes.totalCount == UInt64(requests) else {
            throw failure("the histograms count \(responseTimes.totalCount) and \(serviceTimes.totalCount) requests, but ok and errors add up to \(requests)")
        }
    }
}
