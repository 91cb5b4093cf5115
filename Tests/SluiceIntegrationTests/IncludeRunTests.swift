import Foundation
import Testing

/// `include:`: a login, a setup and a teardown shared between files, run against httpbin; and the
/// errors of composition, each at its FILE:LINE:COLUMN.
@Suite("Pipelines that include other files")
struct IncludeRunTests {
    /// A suite in a temporary folder: shared stages and variables, a login, a teardown, and two
    /// files that use them.
    static func suite(_ servers: TestServers) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.file("_shared"), withIntermediateDirectories: true)
        _ = try directory.write("""
            variables:
              base: \(servers.httpbin.absoluteString)
            stages:
              - url-resolution: { base-url: "${base}" }
              - response-decoding
            """, to: "_shared/common.yaml")
        _ = try directory.write("""
            include: common.yaml
            requests:
              - name: login
                method: POST
                path: post
                headers: { Content-Type: application/json }
                body: '{"token": "tok-from-login"}'
                capture:
                  token: $.json.token
            """, to: "_shared/login.yaml")
        _ = try directory.write("""
            include: common.yaml
            requests:
              - name: logout
                method: DELETE
                path: delete
                headers: { Authorization: "Bearer ${token}" }
                expect:
                  body:
                    $.headers.Authorization: Bearer tok-from-login
            """, to: "_shared/teardown.yaml")
        _ = try directory.write("""
            include: _shared/common.yaml
            requests:
              - include: _shared/login.yaml
              - name: orders
                path: bearer
                headers: { Authorization: "Bearer ${token}" }
                expect:
                  body:
                    $.token: tok-from-login
              - name: broken
                path: status/500
                expect:
                  status: 200
              - name: never
                path: get
              - include: _shared/teardown.yaml
                always: true
            """, to: "orders.yaml")
        _ = try directory.write("""
            include: _shared/common.yaml
            requests:
              - include: _shared/login.yaml
              - name: profile
                path: anything/profile
                headers: { X-Token: "${token}" }
                expect:
                  body:
                    $.headers['X-Token']: tok-from-login
            """, to: "profile.yaml")
        return directory
    }

    @Test("a shared login's capture reaches the including file; a teardown marked always runs after --fail-fast stops, what it stopped is skipped and counted; lines name the included file")
    func sharedLoginAndTeardown() async throws {
        let servers = try TestServers.load()
        let directory = try IncludeRunTests.suite(servers)
        let orders = directory.file("orders.yaml").path
        let run = try await SluiceProcess.launch(["run", "--no-color", "--fail-fast", orders])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        let marks = lines.filter { $0.hasPrefix("✔") || $0.hasPrefix("✘") }.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(marks == ["✔ login", "✔ orders", "✘ broken", "✔ logout"], "\(run.output)")
        #expect(run.output.contains("○ never  skipped: --fail-fast stopped the run after 'broken' failed"), "\(run.output)")
        #expect(run.output.contains("\(orders):13:15: failed: status"))
        #expect(run.output.contains("orders: 5 requests: 3 passed, 1 skipped, 1 failed"), "\(run.output)")
    }

    @Test("a folder runs each pipeline once, leaving out _shared; --jobs 2 prints the files in order, each with its own captures")
    func folderInParallel() async throws {
        let servers = try TestServers.load()
        let directory = try IncludeRunTests.suite(servers)
        let run = try await SluiceProcess.launch(["run", "--no-color", "--jobs", "2", "--report", "json:\(directory.file("report.json").path)", directory.url.path])
        #expect(run.status == 1, "\(run.error)")
        let summaries = run.output.split(separator: "\n").filter { $0.contains(" requests: ") }
        #expect(summaries.map { $0.prefix(while: { $0 != ":" }) } == ["orders", "profile"], "\(run.output)")
        #expect(run.output.contains("✔ profile"))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.file("report.json"))) as? [String: Any]
        let pipelines = report?["pipelines"] as? [[String: Any]]
        #expect(pipelines?.map { $0["pipeline"] as? String } == ["orders", "profile"])
        let loginFile = ((pipelines?[1]["results"] as? [[String: Any]])?.first?["file"] as? String) ?? ""
        #expect(loginFile.hasSuffix("_shared/login.yaml"))
    }

    @Test("cycles, missing files and names defined twice are load errors at FILE:LINE:COLUMN that name both places")
    func compositionErrors() async throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write("include: b.yaml\nrequests:\n  - {name: a, path: 'http://h/'}\n", to: "a.yaml")
        _ = try directory.write("include: c.yaml\n", to: "b.yaml")
        _ = try directory.write("requests:\n  - include: a.yaml\n", to: "c.yaml")
        let cycle = try await SluiceProcess.launch(["validate", a])
        #expect(cycle.status == 2)
        #expect(cycle.error.contains("c.yaml:2:14: error: include cycle: \(a) includes \(directory.url.path)/b.yaml includes \(directory.url.path)/c.yaml includes \(directory.url.path)/a.yaml again (included at \(a):1:10, then \(directory.url.path)/b.yaml:1:10, then \(directory.url.path)/c.yaml:2:14)"), "\(cycle.error)")

        let missing = try directory.write("stages: []\nrequests:\n  - include: nowhere/login.yaml\n", to: "missing.yaml")
        let gone = try await SluiceProcess.launch(["validate", missing])
        #expect(gone.status == 2)
        #expect(gone.error.hasPrefix("\(missing):3:14: error: cannot include '\(directory.url.path)/nowhere/login.yaml': no such file"), "\(gone.error)")

        _ = try directory.write("variables:\n  base: http://one/\nrequests:\n  - {name: shared, path: 'http://h/'}\n", to: "first.yaml")
        let twice = try directory.write("include: first.yaml\nvariables:\n  base: http://two/\nrequests:\n  - {name: shared, path: 'http://h/'}\n", to: "twice.yaml")
        let doubled = try await SluiceProcess.launch(["validate", twice])
        #expect(doubled.status == 2)
        let first = "\(directory.url.path)/first.yaml"
        #expect(doubled.error.contains("\(twice):3:3: error: variable 'base' is defined twice: here and at \(first):2:3"), "\(doubled.error)")
        #expect(doubled.error.contains("\(twice):5:5: error: a request named 'shared' is already defined at \(first):4:5"), "\(doubled.error)")

        // An included file is one document, as the main file is; a second is not silently dropped.
        _ = try directory.write("requests:\n  - {name: first, path: 'http://h/'}\n---\nrequests: []\n", to: "two.yaml")
        let includesTwo = try directory.write("include: two.yaml\n", to: "includes-two.yaml")
        let second = try await SluiceProcess.launch(["validate", includesTwo])
        #expect(second.error.contains("two.yaml:4:1: error: a pipeline file holds one YAML document; this is a second"), "\(second.error)")

        _ = try directory.write("requests:\n  - {name: login, path: 'http://h/'}\n", to: "login.yaml")
        let again = try directory.write("requests:\n  - include: login.yaml\n  - include: login.yaml\n", to: "again.yaml")
        let repeated = try await SluiceProcess.launch(["validate", again])
        #expect(repeated.error.contains("login.yaml:2:5: error: request 'login' is included twice: at \(again):2:14 and at \(again):3:14"), "\(repeated.error)")
        // The same through the top-level include: list, each place named.
        let listed = try directory.write("include: [login.yaml, login.yaml]\nrequests: []\n", to: "listed.yaml")
        let listedTwice = try await SluiceProcess.launch(["validate", listed])
        #expect(listedTwice.error.contains("request 'login' is included twice: at \(listed):1:11 and at \(listed):1:23"), "\(listedTwice.error)")
    }

    @Test("a file that only declares stages and variables can be included, and one include of it serves a diamond")
    func declarationsOnly() async throws {
        let servers = try TestServers.load()
        let directory = try IncludeRunTests.suite(servers)
        let validate = try await SluiceProcess.launch(["validate", directory.file("orders.yaml").path, directory.file("_shared/login.yaml").path])
        #expect(validate.status == 0, "\(validate.error)")
        #expect(validate.output.contains("orders.yaml: ok (2 stages listed, 6 in the chain, 5 requests)"), "\(validate.output)")
    }

    @Test("a top-level include of a file with requests runs them first, as a setup, before the file's own")
    func setupFirst() async throws {
        let servers = try TestServers.load()
        let directory = try IncludeRunTests.suite(servers)
        let path = try directory.write("""
            include: [_shared/login.yaml]
            requests:
              - name: uses-token
                path: anything/${token}
                expect:
                  body: { $.url: { matches: "tok-from-login$" } }
            """, to: "setup.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(SelectionRunTests.names(run.output) == ["login", "uses-token"])
    }
}
