import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

extension LoadResult {
    /// The load run as JUnit XML, for CI systems that show test results: one test suite with a
    /// test case for the requests (failing when any failed), one for the schedule (failing when
    /// requests were dropped; open loop only) and one for the shards (failing when a shard's
    /// result is missing; merged results of sharded runs only), and one for the run's end when
    /// something stopped it before it sent what it was asked (``stoppedBy``). The figures are the suite's
    /// properties: `rate.achieved`, `response-time.p99` (milliseconds) and so on.
    /// - Parameters:
    ///   - redactor: hides secrets in the first error.
    ///   - merged: whether this is shards merged (`sluice report merge`) rather than one shard's
    ///     own run, whose other shards are not missing but elsewhere.
    public func junit(redactor: Redactor, merged: Bool) -> String {
        func attribute(_ text: String) -> String { RunReport.xmlEscaped(redactor.redact(text)) }
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        var properties: [(String, String)] = [
            ("mode", openLoop ? "open" : "closed"), ("concurrency", "\(concurrency)"),
            ("requests", "\(requests)"), ("ok", "\(ok)"), ("errors", "\(errors)"), ("dropped", "\(dropped)"),
            ("exchanges", exchanges.map(String.init) ?? "unknown"),
            ("rate.asked", askedRate?.description ?? "none"), ("rate.achieved", number(achievedRate)),
        ]
        for (name, latency) in [("response-time", responseTime), ("service-time", serviceTime)] {
            properties += latency.named.map { ("\(name).\($0.name)", number($0.milliseconds)) }
        }
        properties += errorsInOrder.map { ("errors.\($0.kind)", "\($0.count)") }
        var cases: [(name: String, failure: String?)] = [
            ("requests", errors > 0 ? "\(errors) of \(requests) requests failed: " + errorsInOrder.map { "\($0.kind) ×\($0.count)" }.joined(separator: ", ") + (firstFailure.map { "; first: \($0)" } ?? "") : nil)
        ]
        if openLoop {
            let full = dropped - droppedBeforeStart
            var why: [String] = []
            if droppedBeforeStart > 0 {
                why.append("\(droppedBeforeStart) request\(droppedBeforeStart == 1 ? " was" : "s were") dropped: due before the run began, after its --start-at")
            }
            if full > 0 {
                why.append("\(full) request\(full == 1 ? " was" : "s were") dropped: \(concurrency) \(concurrency == 1 ? "was" : "were") already in flight when \(full == 1 ? "it was" : "they were") due")
            }
            cases.append(("schedule", why.isEmpty ? nil : why.joined(separator: "; ")))
        }
        if let stoppedBy {
            cases.append(("stopped", "the run was stopped by \(stoppedBy) after \(number(seconds)) s: the figures are those of the \(requests) requests sent until then"))
        }
        if merged && shardCount > 1 {
            let missing = missingShards
            cases.append(("shards", missing.isEmpty ? nil : "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(shardCount) missing"))
        }
        let failures = cases.filter { $0.failure != nil }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"sluice load\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" time=\"\(number(seconds))\">\n"
        xml += "  <testsuite name=\"\(attribute("load: " + pipeline))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(number(seconds))\" timestamp=\"\(RFC3339Timestamp.string(start))\">\n"
        xml += "    <properties>\n"
        for (name, value) in properties {
            xml += "      <property name=\"\(attribute(name))\" value=\"\(attribute(value))\"/>\n"
        }
        xml += "    </properties>\n"
        for testCase in cases {
            let open = "    <testcase name=\"\(testCase.name)\" classname=\"\(attribute("load: " + pipeline))\" time=\"\(number(seconds))\""
            if let failure = testCase.failure {
                xml += open + ">\n      <failure message=\"\(attribute(failure))\" type=\"load\"/>\n    </testcase>\n"
            } else {
                xml += open + "/>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }
}
