import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `--report json:`, `tap:`, `junit:` and `html:` written by one run, each read by a consumer
/// nobody here wrote: Perl's TAP::Parser, Foundation's XML parser, and headless Chromium.
@Suite("Reports: JSON, TAP, JUnit and HTML at once")
struct ReportRunTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Where the documentation keeps the screenshot of a failing run.
    static let screenshot = root.appendingPathComponent("Sources/SluiceRunner/SluiceRunner.docc/Resources/html-report.png")

    /// A run with a pass, a failure, a skip, a polled request and an error, a secret in a header,
    /// and HTML in a response and a request name; its four reports.
    static func run(in directory: TemporaryDirectory, _ servers: TestServers) async throws -> (status: Int32, output: String) {
        let key = "report-\(UUID().uuidString)"
        let path = try directory.write("""
            name: checkout
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)/" }
              - header-injection:
                  authorization: { bearer: "${env.REPORT_TOKEN}" }
              - response-decoding
            requests:
              - name: list items
                path: anything/items
                expect:
                  status: 200
                  body: { $.method: GET }
                capture: { seen: $.url }
              - name: order <b>total</b>
                path: anything?note=<script>alert(1)</script><img src=x onerror=alert(2)>
                expect:
                  body:
                    $.args.note: { equals: nothing }
              - name: eventual job
                path: \(servers.scenario)/flaky/\(key)?failures=1&status=202
                retry: { attempts: 3, interval: 10ms }
                expect: { status: 200 }
              - name: staging only
                path: get
                when: seen == 'never'
              - name: teapot
                path: status/418
            """, to: "checkout.yaml")
        let arguments = ["json", "tap", "junit", "html"].flatMap { ["--report", "\($0):\(directory.file("report.\($0)").path)"] }
        let result = try await SluiceProcess.launch(["run", "--no-color"] + arguments + [path], environment: ["REPORT_TOKEN": "tok-report-secret"])
        return (result.status, result.output + result.error)
    }

    /// What Perl's TAP::Parser reads of a TAP file, on one line: version, tests run, passed,
    /// failed, skipped, whether the plan is right, parse errors.
    static func tapParser(_ path: String) throws -> String {
        let perl = Process()
        perl.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        perl.arguments = [
            "-MTAP::Parser", "-e",
            """
            my $p = TAP::Parser->new({source => $ARGV[0]});
            while (my $r = $p->next) {}
            print join(" ", $p->version, scalar $p->tests_run, scalar $p->passed, scalar $p->failed, scalar $p->skipped, $p->is_good_plan ? "plan-ok" : "plan-bad", scalar $p->parse_errors), "\\n";
            """,
            path,
        ]
        let output = Pipe()
        perl.standardOutput = output
        try perl.run()
        perl.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test("one run writes all four; JSON, TAP (read by Perl's TAP::Parser) and JUnit agree on the counts; no secret in any")
    func fourReports() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let run = try await ReportRunTests.run(in: directory, servers)
        #expect(run.status == 1, "\(run.output)")
        for kind in ["json", "tap", "junit", "html"] {
            let text = try String(contentsOf: directory.file("report.\(kind)"), encoding: .utf8)
            #expect(!text.contains("tok-report-secret"), "\(kind)")
        }

        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.file("report.json"))) as? [String: Any]
        #expect(json?["summary"] as? [String: Int] == ["files": 1, "passed": 2, "failed": 2, "skipped": 1])

        // Version 13, 5 tests, 3 pass (a skip is ok), 2 fail, 1 skipped, the plan right, no parse errors.
        #expect(try ReportRunTests.tapParser(directory.file("report.tap").path) == "13 5 3 2 1 plan-ok 0\n")

        let junit = try XMLDocument(contentsOf: directory.file("report.junit"))
        let suite = try #require(try junit.nodes(forXPath: "/testsuites/testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "tests")?.stringValue == "5")
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        #expect(suite.attribute(forName: "errors")?.stringValue == "1")
        #expect(suite.attribute(forName: "skipped")?.stringValue == "1")
    }

    @Test("TAP lists every failed check of a request with its own place, as TAP::Parser reads it, besides the first one's at")
    func tapListsEveryFailure() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - name: two
                path: \(servers.httpbin("get?a=1").absoluteString)
                expect:
                  body:
                    $.args.a: "2"
                    $.url: "elsewhere"
            """, to: "two.yaml")
        let report = directory.file("two.tap")
        let run = try await SluiceProcess.launch(["run", "--report", "tap:\(report.path)", path])
        #expect(run.status == 1)
        let perl = try await SluiceProcess.launch(
            ["-MTAP::Parser", "-e", "my $p = TAP::Parser->new({source => $ARGV[0]}); while (my $r = $p->next) { print join(\",\", map { $_->{at} } @{$r->data->{failures}}), \"\\n\" if $r->is_yaml } print scalar $p->parse_errors, \"\\n\";", report.path],
            executable: URL(fileURLWithPath: "/usr/bin/perl")
        )
        #expect(perl.output == "\(path):6:9,\(path):7:9\n0\n", "\(perl.output)\(perl.error)")
    }

    @Test("files that do not load still write each report: one error a file with every problem, read by TAP::Parser and an XML parser; no histogram")
    func unloadedFiles() async throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.write("requests:\n  - name: a\n    pathh: /x\n  - name: b\n    path: ${nope}\n", to: "bad.yaml")
        let also = try directory.write("requests:\n  - { name: c, path: \"http://127.0.0.1:1/${zip}\" }\n", to: "also.yaml")
        let arguments = ["json", "tap", "junit", "html"].flatMap { ["--report", "\($0):\(directory.file("report.\($0)").path)"] }
        let run = try await SluiceProcess.launch(["run", "--no-color"] + arguments + [bad, also])
        #expect(run.status == 2 && run.error.contains("bad.yaml:3:5: error: unknown key 'pathh'"), "\(run.error)")

        let junit = try XMLDocument(contentsOf: directory.file("report.junit"))
        let root = try #require(junit.rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "2" && root.attribute(forName: "errors")?.stringValue == "2")
        let errors = try junit.nodes(forXPath: "//testcase[@name='load']/error").compactMap { $0 as? XMLElement }
        #expect(errors.map { $0.attribute(forName: "type")?.stringValue } == ["invalid pipeline", "invalid pipeline"])
        // In the order the problems are reported: by file, then line.
        #expect(errors.first?.stringValue?.contains("also.yaml:2:22: error: undefined variable ${zip}") == true, "\(errors.first?.stringValue ?? "")")
        #expect(errors.last?.stringValue?.contains("bad.yaml:5:11: error: undefined variable ${nope}") == true, "\(errors.last?.stringValue ?? "")")

        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.file("report.json"))) as? [String: Any]
        #expect(json?["summary"] as? [String: Int] == ["files": 2, "passed": 0, "failed": 2, "skipped": 0])
        let problems = (json?["pipelines"] as? [[String: Any]])?.last?["problems"] as? [[String: Any]]
        #expect(problems?.count == 3 && problems?.first?["line"] as? Int == 2)

        #expect(try ReportRunTests.tapParser(directory.file("report.tap").path) == "13 2 0 2 0 plan-ok 0\n")
        let html = try String(contentsOf: directory.file("report.html"), encoding: .utf8)
        #expect(html.contains(">0 passed<") && html.contains(">2 failed<") && html.contains("the file did not load"))

        // A load run's histogram is a result for `sluice report merge`: none is made up.
        let histogram = directory.file("shard.json")
        let load = try await SluiceProcess.launch(["run", "--repeat", "2", "--report", "histogram:\(histogram.path)", "--report", "junit:\(directory.file("load.xml").path)", bad])
        #expect(load.status == 2 && !FileManager.default.fileExists(atPath: histogram.path))
        #expect(try String(contentsOf: directory.file("load.xml"), encoding: .utf8).contains("type=\"invalid pipeline\""))
    }

    @Test("the HTML report, rendered by headless Chromium with no network, shows every request, expectation, attempt and timeline; hostile HTML stays text")
    func htmlInChromium() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        _ = try await ReportRunTests.run(in: directory, servers)
        let page = directory.file("report.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        // Self-contained: nothing to fetch. The page's CSP also forbids every fetch.
        #expect(html.range(of: #"<[a-zA-Z][^>]*\s(src|href)\s*=|url\(|@import"#, options: .regularExpression) == nil)

        let dom = try Chromium.dumpDOM(page)
        // The page's script ran: it counts the failures into the box's label.
        #expect(dom.contains("failures only (2)"), "\(dom.prefix(2000))")
        #expect(dom.contains("<title>Sluice run: 2 failed</title>"))
        for name in ["list items", "order &lt;b&gt;total&lt;/b&gt;", "eventual job", "staging only", "teapot"] {
            #expect(dom.contains("<span class=\"name\">\(name)</span>"), "\(name)")
        }
        // No element came out of the hostile text: only escaped text.
        #expect(!dom.contains("<img"))
        #expect(!dom.contains("<b>total"))
        #expect(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(dom.contains("Authorization: Bearer ***"))
        #expect(dom.contains("Skipped: when: seen == 'never' does not hold") || dom.contains("Skipped: when: seen == &#39;never&#39; does not hold"))
        #expect(dom.contains("expected <code>\"nothing\"</code>") || dom.contains("expected <code>nothing</code>"), "\(dom)")
        #expect(dom.contains("<li class=\"fail\">202 in "))
        #expect(dom.contains("<li class=\"pass\">200 in "))
        #expect(dom.contains("<td class=\"label\">url-resolution</td>"))
        #expect(dom.contains("<td class=\"label\">waiting (TTFB)</td>"))
        // The chain as it ran, above the file's requests: level, rank, stage, where it is listed.
        #expect(dom.contains("<summary>chain: url-resolution → header-injection → response-decoding → redirects → hsts → cookies</summary>"), "\(dom)")
        #expect(dom.contains("<tr><td>hop</td><td>100</td><td>cookies</td><td>added: a run keeps cookies between its requests</td></tr>"))

        let shot = directory.file("report.png")
        try Chromium.screenshot(page, to: shot)
        let png = try Data(contentsOf: shot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 20_000)
        if ProcessInfo.processInfo.environment["SLUICE_UPDATE_SCREENSHOT"] == "1" {
            _ = try? FileManager.default.removeItem(at: ReportRunTests.screenshot)
            try FileManager.default.copyItem(at: shot, to: ReportRunTests.screenshot)
        }
    }
}

/// Debian's headless Chromium, run on a file with every network request refused.
enum Chromium {
    static let executable = "/usr/bin/chromium-headless-shell"

    static func run(_ arguments: [String]) throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: executable), "no \(executable); scripts/setup installs chromium-headless-shell")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        process.arguments = [
            "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--user-data-dir=\(profile.path)",
            "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
        ] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    /// The page's DOM after its scripts ran, serialized.
    static func dumpDOM(_ page: URL) throws -> String {
        try run(["--dump-dom", page.absoluteString])
    }

    /// A PNG of the page, 1100 pixels wide.
    static func screenshot(_ page: URL, to file: URL) throws {
        _ = try run(["--screenshot=\(file.path)", "--window-size=1100,1400", page.absoluteString])
    }
}
