import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

extension RunReport {
    /// The most bytes of a body the HTML report shows; the rest is cut, and the report says so.
    public static let htmlBodyLimit = 64 * 1024

    /// `--report html:PATH`: one self-contained page (no script, style sheet, font or image is
    /// fetched from anywhere) that a person reads after a run.
    ///
    /// For every request: its outcome, every expectation and capture with what was expected and
    /// found, each attempt of a `retry`, the request as sent and the response as received
    /// (headers and bodies, secrets redacted, bodies cut at ``htmlBodyLimit``), and a timeline of
    /// the request's time: the time inside each stage of the chain, and each libcurl phase of each
    /// exchange (DNS, TCP connect, TLS, sending, waiting for the first byte, receiving).
    /// Failed requests are open, the others folded; a box, labelled with the number of failures,
    /// shows only them.
    public static func html(_ run: Run, redactor: Redactor, generated: Date = Date()) -> String {
        let counts = run.counts
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>Sluice run: \(counts.failed == 0 ? "passed" : "\(counts.failed) failed")</title>
            <style>\(htmlStyle)</style>
            </head>
            <body>
            <header>
            <h1>Sluice run</h1>
            <p class="totals" id="totals"><span class="pass">\(counts.passed) passed</span> <span class="\(counts.failed > 0 ? "fail" : "muted")">\(counts.failed) failed</span> <span class="muted">\(counts.skipped) skipped</span> · \(run.suites.count) file\(run.suites.count == 1 ? "" : "s") · \(xmlEscaped(generated.formatted(Date.ISO8601FormatStyle())))</p>
            <label><input type="checkbox" id="failures-only"> failures only</label>
            </header>
            <main>

            """
        for suite in run.suites {
            let suiteCounts = Run(suites: [suite]).counts
            page += "<section class=\"suite\">\n<h2>\(xmlEscaped(suite.pipeline)) <span class=\"file\">\(xmlEscaped(suite.file))</span> <span class=\"muted\">\(suiteCounts.passed) passed, \(suiteCounts.failed) failed, \(suiteCounts.skipped) skipped · \(milliseconds(suite.elapsed))</span></h2>\n"
            page += chain(suite.chain)
            if !suite.problems.isEmpty {
                page += "<details class=\"request failed\" open>\n<summary><span class=\"mark\">✘</span> <span class=\"name\">the file did not load</span></summary>\n"
                    + "<div class=\"body\">\n<pre class=\"error\">\(xmlEscaped(redactor.redact(suite.problemText)))</pre>\n</div>\n</details>\n"
            }
            for result in suite.results {
                page += request(result, suite: suite, redactor: redactor)
            }
            page += "</section>\n"
        }
        page += """
            </main>
            <script>
            (function () {
              var failed = document.querySelectorAll('details.request.failed').length;
              var box = document.getElementById('failures-only');
              box.parentNode.appendChild(document.createTextNode(' (' + failed + ')'));
              box.addEventListener('change', function (event) {
                document.body.classList.toggle('failures-only', event.target.checked);
              });
            })();
            </script>
            </body>
            </html>

            """
        return page
    }

    /// The suite's chain as it ran, folded: each stage's level, rank, name and origin, top to bottom.
    private static func chain(_ chain: [ChainLink]) -> String {
        guard !chain.isEmpty else { return "" }
        var html = "<details class=\"chain\">\n<summary>chain: " + chain.map { xmlEscaped($0.name) }.joined(separator: " → ") + "</summary>\n<table>\n"
        html += "<tr><th>level</th><th>rank</th><th>stage</th><th>from</th></tr>\n"
        for link in chain {
            html += "<tr><td>\(link.placement.level)</td><td>\(link.placement.rank)</td><td>\(xmlEscaped(link.name))</td><td>\(xmlEscaped(link.origin))</td></tr>\n"
        }
        return html + "</table>\n</details>\n"
    }

    private static func request(_ result: RequestResult, suite: Suite, redactor: Redactor) -> String {
        let outcome = result.isSkipped ? "skipped" : (result.ok ? "passed" : "failed")
        let mark = result.isSkipped ? "○" : (result.ok ? "✔" : "✘")
        let status = result.status.map(String.init) ?? "—"
        var html = "<details class=\"request \(outcome)\"\(result.ok ? "" : " open")>\n"
        html += "<summary><span class=\"mark\">\(mark)</span> <span class=\"name\">\(xmlEscaped(redactor.redact(result.name)))</span> "
            + "<span class=\"method\">\(xmlEscaped(result.method.rawValue))</span> <span class=\"url\">\(xmlEscaped(redactor.redact(result.url)))</span> "
            + "<span class=\"status\">\(status)</span> <span class=\"duration\">\(milliseconds(result.duration))</span></summary>\n"
        html += "<div class=\"body\">\n<p class=\"where\">\(xmlEscaped(location(result, suite))):\(result.mark.line):\(result.mark.column)"
            + (result.tags.isEmpty ? "" : " · tags: " + result.tags.map(xmlEscaped).joined(separator: ", ")) + "</p>\n"
        if let reason = result.skipReason {
            html += "<p class=\"skipped\">Skipped: \(xmlEscaped(redactor.redact(reason)))</p>\n</div>\n</details>\n"
            return html
        }
        if let error = result.error {
            html += "<p class=\"error\">\(xmlEscaped(error.kind))\(error.stage.map { " in " + xmlEscaped($0) } ?? ""): \(xmlEscaped(redactor.redact(error.message)))</p>\n"
        }
        html += expectations(result, redactor: redactor)
        if !result.attempts.isEmpty {
            html += "<h3>Attempts</h3>\n<ol class=\"attempts\">\n"
            for attempt in result.attempts {
                let detail = attempt.error.map { "\($0.kind): \($0.message)" } ?? attempt.failures.map(\.description).joined(separator: "; ")
                html += "<li class=\"\(attempt.ok ? "pass" : "fail")\">\(attempt.status.map(String.init) ?? "—") in \(milliseconds(attempt.duration))"
                    + (detail.isEmpty ? "" : ": " + xmlEscaped(redactor.redact(detail))) + "</li>\n"
            }
            html += "</ol>\n"
        }
        if let metrics = result.metrics {
            html += timeline(metrics, total: result.duration)
        }
        if let sent = result.sent {
            html += "<h3>Request</h3>\n<pre class=\"message\">" + xmlEscaped("\(sent.method) \(redactor.redact(sent.url.absoluteString))\n")
            html += sent.headers.map { xmlEscaped("\($0.name): \(redactor.redact(header: $0.name, value: $0.value))\n") }.joined()
            if let body = bodyBytes(sent.body) { html += "\n" + bodyText(body, redactor: redactor) }
            html += "</pre>\n"
        }
        if let response = result.response {
            html += "<h3>Response</h3>\n<pre class=\"message\">" + xmlEscaped("\(response.httpVersion) \(response.status)\n")
            html += response.headers.map { xmlEscaped("\($0.name): \(redactor.redact(header: $0.name, value: $0.value))\n") }.joined()
            if let file = response.bodyFile {
                html += xmlEscaped("\n[body written to \(file.path), \(result.size) bytes]")
            } else if !response.body.isEmpty {
                html += "\n" + bodyText(response.body, redactor: redactor)
            }
            html += "</pre>\n"
        }
        return html + "</div>\n</details>\n"
    }

    /// Every expectation and capture, each marked met or not, with expected and actual for those
    /// that were not.
    private static func expectations(_ result: RequestResult, redactor: Redactor) -> String {
        var items = result.expectations.map { item in (item, result.failures.first { $0.label == item.label && $0.mark == item.mark }) }
        // A failure the request did not list up front (none today) is still shown.
        for failure in result.failures where !items.contains(where: { $0.1 == failure }) {
            items.append((RequestResult.CheckedItem(label: failure.label, mark: failure.mark), failure))
        }
        guard !items.isEmpty else { return "" }
        var html = "<h3>Expectations</h3>\n<ul class=\"expectations\">\n"
        for (item, failure) in items {
            let notJudged = result.notJudged.flatMap { $0.items.contains(item) ? $0.reason : nil }
            let state = failure != nil ? "fail" : (notJudged == nil ? "pass" : "unchecked")
            let mark = failure != nil ? "✘" : (notJudged == nil ? "✔" : "–")
            html += "<li class=\"\(state)\"><span class=\"mark\">\(mark)</span> <code>\(xmlEscaped(redactor.redact(item.label)))</code> <span class=\"muted\">line \(item.mark.line)</span>"
            if let failure {
                html += "<div class=\"compare\">expected <code>\(xmlEscaped(redactor.redact(failure.expected)))</code>, actual <code>\(xmlEscaped(redactor.redact(failure.actual)))</code></div>"
            } else if let notJudged {
                html += " <span class=\"muted\">not judged: \(xmlEscaped(notJudged))</span>"
            }
            html += "</li>\n"
        }
        return html + "</ul>\n"
    }

    /// Bars on the scale of the whole request: for each stage of the chain, the time spent inside
    /// it (its request and response halves together, the stages below it not counted), from the
    /// left edge; then each exchange's libcurl phases as a waterfall from the exchange's start.
    /// The runner's own bookkeeping stages are left out.
    private static func timeline(_ metrics: TaskMetrics, total: Duration) -> String {
        let scale = max(DurationText.milliseconds(total), 0.001)
        var rows: [(group: String, label: String, start: Double, length: Double)] = []
        for stage in metrics.stages where stage.invocations > 0 && stage.name != RunInfoStage.stageName {
            rows.append(("stage", stage.name + (stage.invocations > 1 ? " (×\(stage.invocations))" : ""), 0, DurationText.milliseconds(stage.duration)))
        }
        var start = 0.0
        for (index, transfer) in metrics.transfers.enumerated() {
            let hop = metrics.transfers.count > 1 ? " (exchange \(index + 1))" : ""
            // The phases in order, each starting where the one before ended.
            let phases: [(String, Duration)] = [
                ("DNS", transfer.dnsLookup), ("TCP connect", transfer.connect), ("TLS handshake", transfer.tlsHandshake),
                (transfer.connectionReused ? "sending (connection reused)" : "sending", transfer.preparing),
                ("waiting (TTFB)", transfer.waiting), ("receiving", transfer.receiving),
            ]
            var phaseStart = start
            for (label, duration) in phases {
                let length = DurationText.milliseconds(duration)
                if length > 0 || label.hasPrefix("waiting") { rows.append(("libcurl", label + hop, phaseStart, length)) }
                phaseStart += length
            }
            start += DurationText.milliseconds(transfer.total)
        }
        guard !rows.isEmpty else { return "" }
        var html = "<h3>Timeline</h3>\n<table class=\"timeline\">\n"
        for row in rows {
            let left = min(100, row.start / scale * 100)
            let width = max(0.3, min(100 - left, row.length / scale * 100))
            html += "<tr class=\"\(row.group)\"><th>\(row.group)</th><td class=\"label\">\(xmlEscaped(row.label))</td>"
                + "<td class=\"track\"><div class=\"bar\" style=\"margin-left:\(format(left))%;width:\(format(width))%\"></div></td>"
                + "<td class=\"time\">\(format(row.length, digits: 2)) ms</td></tr>\n"
        }
        return html + "</table>\n"
    }

    /// A body as text (secrets redacted), or a note for binary bytes; cut at ``htmlBodyLimit``.
    private static func bodyText(_ body: Data, redactor: Redactor) -> String {
        let shown = body.prefix(htmlBodyLimit)
        guard let text = String(data: shown, encoding: .utf8) ?? (body.count > htmlBodyLimit ? String(decoding: shown.dropLast(3), as: UTF8.self) : nil) else {
            return xmlEscaped("[\(body.count) bytes of binary body]")
        }
        let cut = body.count > htmlBodyLimit ? "\n[… \(body.count - shown.count) more bytes not shown]" : ""
        return xmlEscaped(redactor.redact(text) + cut)
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let value = DurationText.milliseconds(duration)
        return value < 1000 ? "\(format(value)) ms" : "\(format(value / 1000)) s"
    }

    private static func format(_ value: Double, digits: Int = 1) -> String {
        value.formatted(.number.precision(.fractionLength(digits)).grouping(.never).locale(Locale(identifier: "en_US_POSIX")))
    }

    private static let htmlStyle = """
        :root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --muted: #6e7781; --line: #d0d7de; }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
        header { background: #fff; border-bottom: 1px solid var(--line); padding: 12px 24px; }
        h1 { font-size: 20px; margin: 0 0 4px; }
        main { padding: 8px 24px 32px; }
        h2 { font-size: 16px; margin: 20px 0 8px; }
        h3 { font-size: 13px; margin: 12px 0 4px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
        .file { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; color: var(--muted); font-weight: normal; }
        .muted { color: var(--muted); font-weight: normal; }
        .pass { color: var(--pass); } .fail, .error { color: var(--fail); }
        .totals span { margin-right: 8px; font-weight: 600; }
        details.request { background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--pass); border-radius: 6px; margin: 6px 0; }
        details.request.failed { border-left-color: var(--fail); }
        details.request.skipped { border-left-color: var(--muted); }
        summary { cursor: pointer; padding: 8px 12px; display: flex; gap: 10px; align-items: baseline; }
        summary .name { font-weight: 600; } summary .url { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; color: var(--muted); flex: 1; overflow-wrap: anywhere; }
        .request.failed summary .mark, .request.failed summary .status { color: var(--fail); } .request.passed summary .mark { color: var(--pass); }
        .body { padding: 0 12px 12px; }
        .where { color: var(--muted); font-size: 12px; margin: 0; }
        ul.expectations { list-style: none; padding: 0; margin: 0; }
        ul.expectations li { padding: 2px 0; } ul.expectations li.pass .mark { color: var(--pass); } ul.expectations li.fail .mark { color: var(--fail); }
        .compare { margin-left: 20px; font-size: 13px; }
        code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
        pre.message { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 360px; overflow: auto; }
        table.timeline { width: 100%; border-collapse: collapse; font-size: 12px; }
        table.timeline th { text-align: left; color: var(--muted); font-weight: normal; width: 60px; }
        table.timeline td.label { width: 230px; } table.timeline td.time { width: 80px; text-align: right; font-family: ui-monospace, monospace; }
        td.track { background: #eaeef2; } .bar { height: 10px; border-radius: 2px; background: #0969da; }
        tr.libcurl .bar { background: #8250df; }
        body.failures-only details.request:not(.failed) { display: none; }
        """
}
