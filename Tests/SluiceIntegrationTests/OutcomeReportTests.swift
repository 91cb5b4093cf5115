import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One outcome model feeds every report: a run with a pass, an nginx HTML 404 the file expects
/// (not failed for its type), a status failure beside a content-type refusal, a capture that finds nothing and the
/// request it skips, written as text, JSON, JUnit, TAP and HTML at once, all agreeing with each
/// other and with the exit status.
@Suite("What the user checks is judged and reported the same in every report")
struct OutcomeReportTests {
    @Test("text, JSON, JUnit, TAP, HTML and the exit status agree: 2 passed, 2 failed, 1 skipped; the status failure is reported beside the content-type refusal")
    func fiveReportsAgree() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            name: outcomes
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)/" }
              - response-decoding: { format: json }
            requests:
              - name: wrong status
                path: \(servers.nginx("no-such-page.html"))
                expect: { status: 200 }
              - name: expected not found
                path: \(servers.nginx("no-such-page.html"))
                expect: { status: 404 }
              - name: finds nothing
                path: get
                capture: { id: $.nothing }
              - name: needs the id
                path: anything/${id}
              - name: plain
                path: get
            """, to: "outcomes.yaml")
        let reports = ["json", "junit", "tap", "html"].flatMap { ["--report", "\($0):\(directory.file("report.\($0)").path)"] }
        let run = try await SluiceProcess.launch(["run", "--no-color"] + reports + [path])
        #expect(run.status == 1, "\(run.output)\(run.error)")

        // Text: the status failure the user wrote, and the stage's refusal beside it.
        #expect(run.output.contains("5 requests: 2 passed, 1 skipped, 2 failed"), "\(run.output)")
        #expect(run.output.contains("failed: status"), "\(run.output)")
        #expect(run.output.contains("expected: 200") && run.output.contains("actual:   404"), "\(run.output)")
        #expect(run.output.contains("content type text/html is not acceptable"), "\(run.output)")
        #expect(run.output.contains("○ needs the id  skipped: ${id} has no value: request 'finds nothing' did not capture it"), "\(run.output)")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.file("report.json"))) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["passed"] as? Int == 2 && summary["failed"] as? Int == 2 && summary["skipped"] as? Int == 1, "\(summary)")

        let junit = try XMLDocument(contentsOf: directory.file("report.junit"))
        let suite = try #require(try junit.nodes(forXPath: "//testsuite").first as? XMLElement)
        let failures = Int(suite.attribute(forName: "failures")?.stringValue ?? "") ?? -1
        let errors = Int(suite.attribute(forName: "errors")?.stringValue ?? "") ?? -1
        #expect(failures + errors == 2 && suite.attribute(forName: "skipped")?.stringValue == "1" && suite.attribute(forName: "tests")?.stringValue == "5")

        let tap = try String(contentsOf: directory.file("report.tap"), encoding: .utf8).split(separator: "\n")
        #expect(tap.filter { $0.hasPrefix("not ok ") }.count == 2)
        #expect(tap.filter { $0.hasPrefix("ok ") && $0.contains("# SKIP") }.count == 1)
        #expect(tap.filter { $0.hasPrefix("ok ") && !$0.contains("# SKIP") }.count == 2)

        let html = try String(contentsOf: directory.file("report.html"), encoding: .utf8)
        #expect(html.contains(">2 passed<") && html.contains(">2 failed<") && html.contains(">1 skipped<"), "the HTML report's totals")
    }
}
