import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

extension LoadResult {
    /// The `--format json` document of a load run:
    ///
    /// `{"pipeline", "load": {"requests", "ok", "errors", "seconds", "rps", "latency-ms": {"p50",
    /// "p90", "p99", "p99.9", "max"}, "service-time-ms": {...}, "mode": "open" | "closed",
    /// "rate": {"asked", "achieved"}, "concurrency", "dropped", "exchanges", "errors-by-kind": {KIND: N},
    /// "statuses": {"200": N}, "shards": {"count", "measured": [I]}, "window": {"start", "end"},
    /// "first-error", "stopped-by"}}`.
    ///
    /// `exchanges` counts the HTTP exchanges made (``LoadResult/exchanges``: redirect hops and the
    /// retry stage's tries add to `requests`, cached responses take away), `null` when a merged
    /// file did not record it. `stopped-by` names what stopped the run early (`"Ctrl-C"`, `"SIGTERM"`), `null` for a run
    /// that went to its end; a latency figure of a run that measured no request is `null`.
    ///
    /// `latency-ms` is the response time (from when each request was due); `rps` and
    /// `rate.achieved` are the same figure, requests ended per second of the window. `rate.asked`
    /// is a number, `{"from", "to"}` for a ramp, or `null` in the closed loop.
    public func json(redactor: Redactor) -> JSONValue {
        func rounded(_ value: Double) -> JSONValue { .double(RunReport.rounded(value)) }
        func latency(_ figures: Latency) -> JSONValue {
            .object(JSONObject(figures.named.map { ($0.name, requests > 0 ? rounded($0.milliseconds) : .null) }))
        }
        let asked: JSONValue = askedRate.map { $0.isRamp ? ["from": rounded($0.from), "to": rounded($0.to)] : rounded($0.from) } ?? .null
        let summary: JSONObject = [
            "requests": .int(requests), "ok": .int(ok), "errors": .int(errors),
            "seconds": rounded(seconds), "rps": rounded(achievedRate),
            "latency-ms": latency(responseTime), "service-time-ms": latency(serviceTime),
            "mode": .string(openLoop ? "open" : "closed"),
            "rate": ["asked": asked, "achieved": rounded(achievedRate)],
            "concurrency": .int(concurrency), "dropped": .int(dropped),
            "exchanges": exchanges.map { .int($0) } ?? .null,
            "errors-by-kind": errorsByKindJSON,
            "statuses": statusesJSON,
            "shards": shardsJSON,
            "window": windowJSON,
            "first-error": firstFailure.map { .string(redactor.redact($0)) } ?? .null,
            "stopped-by": stoppedBy.map { .string($0) } ?? .null,
        ]
        return ["pipeline": .string(pipeline), "load": .object(summary)]
    }

    /// ``errorsByKind`` as a JSON object, the kinds in code-point order.
    var errorsByKindJSON: JSONValue {
        .object(JSONObject(errorsInOrder.map { ($0.kind, .int($0.count)) }))
    }

    /// ``statuses`` as a JSON object, `{"200": N}`, in order of status.
    var statusesJSON: JSONValue {
        .object(JSONObject(statuses.sorted { $0.key < $1.key }.map { (String($0.key), .int($0.value)) }))
    }

    /// `{"count": N, "measured": [I...]}`.
    var shardsJSON: JSONValue {
        ["count": .int(shardCount), "measured": .array(shards.map { .int($0) })]
    }

    /// `{"start", "end"}` as RFC 3339 times with microseconds.
    var windowJSON: JSONValue {
        ["start": .string(RFC3339Timestamp.string(start)), "end": .string(RFC3339Timestamp.string(end))]
    }
}
