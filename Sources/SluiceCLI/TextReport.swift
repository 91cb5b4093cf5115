import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// The text output of `sluice run`: a line per request, what failed and where, a summary.
struct TextReport {
    let file: PipelineFile
    let terminal: Terminal
    /// Hides the file's secrets, and those found in captures as the run goes on.
    var redactor: Redactor

    /// `✔ NAME  METHOD URL  STATUS  DURATION  SIZE`, with `cache hit` (or `miss`, `revalidated`,
    /// `stale`) when a cache handled it, then one line per failure with the
    /// pipeline line it comes from, and a line naming the checks a failure kept from being
    /// judged.
    func lines(for result: RequestResult) -> String {
        let where_ = result.file.isEmpty ? file.path : result.file
        if let reason = result.skipReason {
            return "\(terminal.bold("○")) \(terminal.bold(shown(result.name)))  skipped: \(shown(reason))\n"
        }
        let mark = result.ok ? terminal.green("✔") : terminal.red("✘")
        let status = result.status.map(String.init) ?? "---"
        let attempts = result.attempts.count > 1 ? "  attempt \(result.attempts.count)" : ""
        var text = "\(mark) \(terminal.bold(shown(result.name)))  \(result.method) \(shown(result.url))  \(status)  "
            + "\(TextReport.milliseconds(result.duration))  \(TextReport.size(result.size))"
            + (result.cache.map { "  cache \($0.rawValue)" } ?? "") + attempts + "\n"
        for attempt in result.attempts.dropLast() {
            let detail = attempt.error.map { "\($0.kind): \($0.message)" } ?? attempt.failures.map(\.description).joined(separator: "; ")
            text += "    attempt \(attempt.number): \(attempt.status.map(String.init) ?? "---") in \(TextReport.milliseconds(attempt.duration)): \(shown(detail))\n"
        }
        // A failed status check leads: a stage's refusal of the same response follows from it.
        let leading = result.statusFailureBesideError
        if let leading { text += failed(leading, in: where_) }
        if let error = result.error {
            let stage = error.stage.map { " in \($0)" } ?? ""
            text += "    \(where_):\(result.mark.line):\(result.mark.column): \(terminal.red("error")): \(error.kind)\(stage): \(shown(error.message))\n"
        }
        for failure in result.failures where failure != leading {
            text += failed(failure, in: where_)
        }
        // Every check is reported: those the failure kept from being judged are named.
        if let notJudged = result.notJudged {
            text += "    \(where_):\(result.mark.line):\(result.mark.column): \(shown(notJudged.description))\n"
        }
        return text
    }

    /// A failure's lines: where its expectation is written, what it expected, what it found.
    private func failed(_ failure: ExpectationFailure, in file: String) -> String {
        "    \(file):\(failure.mark.line):\(failure.mark.column): \(terminal.red("failed")): \(failure.label)\n"
            + "        expected: \(shown(failure.expected))\n"
            + "        actual:   \(shown(failure.actual))\n"
    }

    /// `* ` lines for what the stages reported, then `> ` request and `< ` response lines with
    /// headers, for `--verbose`: each exchange on the wire (every redirect hop, a revalidation's
    /// 304), as `curl -v` shows them, when the runner recorded them; else the request as sent and
    /// the response the chain gave.
    func verbose(for result: RequestResult) -> String {
        var text = ""
        for note in result.notes { text += "* \(note.stage): \(shown(note.detail))\n" }
        let exchanges = result.exchanges.isEmpty
            ? [(result.sent, result.response)] : result.exchanges.map { ($0.request, $0.response) }
        for (request, response) in exchanges {
            if let request {
                text += "> \(request.method) \(shown(request.url.absoluteString))\n"
                for field in request.headers { text += "> \(field.name): \(shown(header: field.name, value: field.value))\n" }
            }
            if let response {
                text += "< \(response.httpVersion) \(response.status)\(response.reasonPhrase.map { " " + shown($0) } ?? "")\n"
                for field in response.headers { text += "< \(field.name): \(shown(header: field.name, value: field.value))\n" }
            }
        }
        return text
    }

    /// `text` as printed: its secrets hidden, its control characters and bidirectional overrides
    /// escaped (`Terminal.printable`).
    private func shown(_ text: String) -> String {
        Terminal.printable(redactor.redact(text))
    }

    /// A header field's value as printed: hidden as the field's name asks, escaped.
    private func shown(header name: String, value: String) -> String {
        Terminal.printable(redactor.redact(header: name, value: value))
    }

    /// `N requests: P passed, [S skipped, ]F failed in S s`.
    func summary(_ results: [RequestResult], elapsed: Duration) -> String {
        let skipped = results.filter(\.isSkipped).count
        let failed = results.filter { !$0.ok }.count
        let passed = results.count - failed - skipped
        let counts = "\(terminal.green("\(passed) passed")), " + (skipped > 0 ? "\(skipped) skipped, " : "")
            + (failed > 0 ? terminal.red("\(failed) failed") : "0 failed")
        return "\(file.spec.name): \(results.count) request\(results.count == 1 ? "" : "s"): \(counts) in \(TextReport.milliseconds(elapsed))\n"
    }

    /// A dry run's request: its request line, headers and body as they would be sent.
    func dryRun(_ prepared: PreparedRequest) -> String {
        let spec = prepared.spec
        var text = "# \(spec.displayName)\n"
        if let reason = prepared.skipReason { return text + "# skipped, not sent: \(redactor.redact(reason))\n\n" }
        switch prepared.result {
        case .failure(let error):
            return text + "\(spec.source.location(spec.mark)): \(terminal.red("error")): \(redactor.redact(error.description))\n\n"
        case .success(let request):
            text += "\(request.method) \(redactor.redact(CapturePlaceholder.shown(request.url, names: prepared.placeholders)))\n"
            for field in request.headers { text += "\(field.name): \(redactor.redact(header: field.name, value: field.value))\n" }
            if let body = RunReport.bodyBytes(request.body) {
                if let string = String(data: body, encoding: .utf8) {
                    text += "\n" + redactor.redact(string) + (string.hasSuffix("\n") ? "" : "\n")
                } else {
                    text += "\n[\(body.count) bytes of binary body; --format json shows them as body-base64]\n"
                }
            }
            return text + "\n"
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = DurationText.milliseconds(duration)
        return value < 1000
            ? FixedPointText.string(value, fractionDigits: 1) + " ms"
            : FixedPointText.string(value / 1000, fractionDigits: 2) + " s"
    }

    static func size(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) B" : FixedPointText.string(Double(bytes) / 1024, fractionDigits: 1) + " KiB"
    }
}
