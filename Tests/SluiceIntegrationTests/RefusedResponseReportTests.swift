import Foundation
import Testing

/// A response that arrived is reported with its status, headers and size in every output of
/// `sluice run`, whatever stage then refused it: a 404 HTML page through a JSON
/// `response-decoding` stage reads as "unacceptable status 404 (and content type text/html)", not
/// as a content-type failure with no status. Real servers on loopback play the other side: nginx
/// answers a missing file with its own 404 page, httpbin `/html` with a 200 HTML page, and the
/// fault server a 205 that carries a body.
@Suite("Refused responses keep their status in every output")
struct RefusedResponseReportTests {
    /// A pipeline with a JSON `response-decoding` stage, a HAR recorder above it, and three
    /// requests whose responses it refuses.
    private func pipeline(_ servers: TestServers, in directory: TemporaryDirectory) throws -> (path: String, har: URL) {
        let har = directory.file("run.har")
        let text = """
            stages:
              - har-recorder: { path: "\(har.path)" }
              - response-decoding: { format: json }
            requests:
              - name: missing-page
                path: \(servers.nginxHTTP.absoluteString)/no-such-file.json
              - name: html-page
                path: \(servers.httpbin.absoluteString)/html
              - name: reset-content-with-body
                path: \(servers.fault.absoluteString)/answer?status=205&type=text/plain&body=surprise

            """
        let path = directory.file("refused.yaml")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return (path.path, har)
    }

    @Test("JSON: status, size and headers of each refused response; the status failure first, the content type after it")
    func json() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let (path, har) = try pipeline(servers, in: directory)
        let result = try await SluiceProcess.launch(["run", "--format", "json", path])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(results.map { $0["status"] as? Int } == [404, 200, 205])
        for entry in results {
            #expect((entry["size"] as? Int ?? 0) > 0, "\(entry)")
            let headers = entry["headers"] as? [[String]] ?? []
            #expect(headers.contains { $0.first?.lowercased() == "content-type" }, "\(entry)")
            #expect(entry["ok"] as? Bool == false)
        }
        let errors = results.map { $0["error"] as? [String: Any] ?? [:] }
        #expect(errors[0]["kind"] as? String == "unacceptable status")
        let message = errors[0]["message"] as? String ?? ""
        #expect(message.hasPrefix("status 404 is not acceptable (200-299), and content type text/html"), "\(message)")
        #expect(errors[1]["kind"] as? String == "unacceptable content type")
        #expect(errors[2]["kind"] as? String == "unacceptable content type", "a 205 with a body is validated like any other")

        // The HAR recorder, above the refusing stage, records each response with its status.
        let archive = try JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any]
        let entries = (archive?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { ($0["response"] as? [String: Any])?["status"] as? Int } == [404, 200, 205])
    }

    @Test("text and JUnit: the status on the request's line, and the response head in the report")
    func textAndJUnit() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let (path, _) = try pipeline(servers, in: directory)
        let junit = directory.file("report.xml")
        let result = try await SluiceProcess.launch(["run", "--no-color", "--report", "junit:\(junit.path)", path])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✘ missing-page  GET ") && $0.contains("  404  ") }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("✘ html-page  GET ") && $0.contains("  200  ") }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("✘ reset-content-with-body  GET ") && $0.contains("  205  ") }, "\(result.output)")
        #expect(result.output.contains("error: unacceptable status in response-decoding: status 404 is not acceptable (200-299), and content type text/html"))
        #expect(!result.output.contains("  ---  "))

        let report = try String(contentsOf: junit, encoding: .utf8)
        #expect(report.contains("response: status 404, "), "\(report)")
        #expect(report.contains("response: status 205, 8 bytes"), "\(report)")
        #expect(report.contains("&lt; Content-Type: text/plain"), "\(report)")
    }

    @Test("load mode: responses counted by status, and the first error names its status")
    func loadMode() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let (path, _) = try pipeline(servers, in: directory)
        let result = try await SluiceProcess.launch(["run", "--format", "json", "--repeat", "4", "--concurrency", "2", "--only", "missing-page", path])
        #expect(result.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let load = try #require(document?["load"] as? [String: Any], "\(result.output)")
        #expect(load["statuses"] as? [String: Int] == ["404": 4])
        #expect((load["first-error"] as? String)?.hasPrefix("missing-page (status 404): unacceptable status: ") == true, "\(load)")
        let text = try await SluiceProcess.launch(["run", "--no-color", "--repeat", "4", "--concurrency", "2", "--only", "missing-page", path])
        #expect(text.output.contains("  statuses  404 ×4\n"), "\(text.output)")
    }

    @Test("a failed status check leads: a typo'd method's 405 before the content type of its error page, in text, JUnit and load mode")
    func failedStatusLeads() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            """
            stages:
              - response-decoding: { format: json }
            requests:
              - name: create
                method: PSOT
                path: \(servers.httpbin.absoluteString)/post
                expect:
                  status: 200
                  headers: { Content-Type: application/json }

            """, to: "psot.yaml")
        let junit = directory.file("report.xml")
        let text = try await SluiceProcess.launch(["run", "--no-color", "--report", "junit:\(junit.path)", path])
        #expect(text.status == 1)
        let lines = text.output.split(separator: "\n").map(String.init)
        let status = try #require(lines.firstIndex { $0.hasSuffix("failed: status") }, "\(text.output)")
        let refusal = try #require(lines.firstIndex { $0.contains("error: unacceptable content type in response-decoding") }, "\(text.output)")
        let header = try #require(lines.firstIndex { $0.hasSuffix("failed: headers.Content-Type") }, "\(text.output)")
        #expect(status < refusal && refusal < header, "every check judged, the status first: \(text.output)")
        #expect(lines[status + 2].hasSuffix("actual:   405"))

        let report = try String(contentsOf: junit, encoding: .utf8)
        #expect(report.contains("failures=\"1\" errors=\"0\""), "\(report)")
        #expect(report.contains("<failure message=\"status: expected 200, actual 405\" type=\"expectation\">"), "\(report)")
        #expect(report.contains("content type text/html; charset=utf-8 is not acceptable"), "the refusal beside it: \(report)")

        let load = try await SluiceProcess.launch(["run", "--no-color", "--repeat", "4", "--concurrency", "2", path])
        #expect(load.status == 1)
        #expect(load.output.contains("expectation not met ×4"), "\(load.output)")
        #expect(load.output.contains("create (status 405): status: expected 200, actual 405; unacceptable content type: "), "\(load.output)")

        // No stage refusing it: every failed check is in the first error, in the order written.
        let unrefused = try directory.write(
            """
            requests:
              - name: create
                method: PSOT
                path: \(servers.httpbin.absoluteString)/post
                expect:
                  status: 200
                  headers: { Content-Type: application/json }

            """, to: "unrefused.yaml")
        let checks = try await SluiceProcess.launch(["run", "--no-color", "--repeat", "2", unrefused])
        #expect(checks.output.contains("create (status 405): status: expected 200, actual 405; headers.Content-Type: expected application/json"), "\(checks.output)")
    }
}
