import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

extension RunReport {
    /// `--report tap:PATH`: the Test Anything Protocol, version 13, which `prove`, TAP::Parser,
    /// node-tap and most CI plugins read. One test point per request (`PIPELINE: NAME`), in run
    /// order; a failed one carries a YAML block with the message, where it is written, every
    /// failed check with its own place (`failures`, a list) and the response; a request a
    /// condition skipped is `ok ... # SKIP REASON`.
    ///
    /// Version 13, not 14: Perl's TAP::Parser, the reference consumer, refuses a stream that says 14,
    /// and nothing here needs 14's subtests.
    public static func tap(_ run: Run, redactor: Redactor) -> String {
        let unloaded = run.suites.filter { !$0.problems.isEmpty }.count
        var lines = ["TAP version 13", "1..\(run.results.count + unloaded)"]
        var number = 0
        for suite in run.suites {
            lines.append("# \(line(suite.pipeline)) (\(line(suite.file)))")
            if let first = suite.problems.first {
                number += 1
                lines.append("not ok \(number) - \(escaped(suite.file)): load")
                lines.append("  ---")
                lines += [
                    ("message", redactor.redact(suite.problems.map(\.message).joined(separator: "; "))), ("at", "\(suite.file):\(first.mark.line):\(first.mark.column)"),
                    ("severity", "error"), ("problems", redactor.redact(suite.problemText)),
                ].map { "  \($0.0): \(yamlString($0.1))" }
                lines.append("  ...")
            }
            for result in suite.results {
                number += 1
                let description = "\(escaped(suite.pipeline)): \(escaped(redactor.redact(result.name)))"
                if let reason = result.skipReason {
                    lines.append("ok \(number) - \(description) # SKIP \(line(redactor.redact(reason)))")
                    continue
                }
                lines.append("\(result.ok ? "ok" : "not ok") \(number) - \(description)")
                guard !result.ok else { continue }
                let file = location(result, suite)
                var block: [(String, String)] = []
                if let error = result.error {
                    block.append(("message", redactor.redact("\(error.kind)\(error.stage.map { " in \($0)" } ?? ""): \(error.message)")))
                    block.append(("at", "\(file):\(result.mark.line):\(result.mark.column)"))
                } else if let first = result.failures.first {
                    block.append(("message", redactor.redact(result.failures.map(\.description).joined(separator: "; "))))
                    block.append(("at", "\(file):\(first.mark.line):\(first.mark.column)"))
                }
                if let notJudged = result.notJudged { block.append(("not-judged", notJudged.description)) }
                block.append(("severity", result.error == nil ? "fail" : "error"))
                block.append(("url", redactor.redact(result.url)))
                if let summary = responseSummary(result, redactor: redactor) { block.append(("response", summary)) }
                if !result.attempts.isEmpty { block.append(("attempts", "\(result.attempts.count)")) }
                lines.append("  ---")
                lines += block.map { "  \($0.0): \(yamlString($0.1))" }
                // Every failed check where it is written, the first one's place included: a
                // consumer that reads `at` alone misses none of the others.
                // (A mapping each: TAP::Parser's YAMLish reads a list item holding ': ' as one.)
                if !result.failures.isEmpty {
                    lines.append("  failures:")
                    for failure in result.failures {
                        lines.append("    - at: \(yamlString("\(file):\(failure.mark.line):\(failure.mark.column)"))")
                        lines.append("      message: \(yamlString(redactor.redact(failure.description)))")
                    }
                }
                lines.append("  ...")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A test point's description: `#` would start a directive, so it is escaped as TAP says.
    private static func escaped(_ text: String) -> String {
        line(text).replacingCodePoints(of: "\\", with: "\\\\").replacingCodePoints(of: "#", with: "\\#")
    }

    /// Text on one line: line breaks become spaces.
    private static func line(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A double-quoted YAML scalar: JSON's string syntax, which YAML reads the same way.
    private static func yamlString(_ text: String) -> String {
        (try? JSONWriter().string(from: .string(text))) ?? "\"\""
    }
}
