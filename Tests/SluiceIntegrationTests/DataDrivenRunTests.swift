import Foundation
import Testing

/// `for-each:` over a list, a CSV file and a JSON file, and `when:`/`skip:`, run against httpbin.
@Suite("Data-driven runs and conditions")
struct DataDrivenRunTests {
    @Test("for-each runs a request once per row of a list, a CSV file and a JSON file, row values as variables, results named with the row")
    func rows() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        _ = try directory.write("user,role\nalice,admin\n\"bob, jr\",\"line one\nline two\"\n", to: "users.csv")
        _ = try directory.write(#"[{"id": 7, "tags": ["a"]}, {"id": 8, "tags": []}]"#, to: "items.json")
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)/" }
              - serialization: { format: json }
            requests:
              - name: color
                path: anything/${item}
                for-each: [red, green]
                expect:
                  body: { $.url: "\(servers.httpbin.absoluteString)/anything/${item}" }
              - name: user ${user}
                method: POST
                path: anything
                for-each: { csv: users.csv }
                parameters: { user: "${user}", role: "${role}" }
                expect:
                  body:
                    $.json.user: "${user}"
                    $.json.role: "${role}"
              - for-each: { json: items.json }
                requests:
                  - name: item
                    path: anything/items/${id}
                    capture: { last: $.url }
                  - name: tags
                    method: POST
                    path: anything/tags
                    parameters: { tags: "${tags}" }
                    expect:
                      body: { $.json.tags: "${tags}" }
            """, to: "rows.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("✔ color [red]  GET \(servers.httpbin.absoluteString)/anything/red  200"))
        #expect(lines[1].hasPrefix("✔ color [green]  GET"))
        #expect(lines[2].hasPrefix("✔ user alice  POST"))
        #expect(lines[3].hasPrefix("✔ user bob, jr  POST"))
        #expect(lines[4].hasPrefix("✔ item [id=7, tags=[\"a\"]]  GET \(servers.httpbin.absoluteString)/anything/items/7"))
        #expect(lines[5].hasPrefix("✔ tags [id=7, tags=[\"a\"]]"))
        #expect(lines[6].hasPrefix("✔ item [id=8, tags=[]]"))
        #expect(lines.filter { $0.hasPrefix("✔") }.count == 8)
        #expect(run.output.contains("rows: 8 requests: 8 passed, 0 failed"))
    }

    @Test("the CSV rows are those Python's csv module reads from the same file: quotes, commas, line breaks, a BOM")
    func csvAgainstPython() async throws {
        let directory = try TemporaryDirectory()
        let csv = "\u{FEFF}name,note\r\n\"a, b\",\"say \"\"hi\"\"\"\r\nplain,\"two\nlines\"\r\nlast,\r\n"
        _ = try directory.write(csv, to: "tricky.csv")
        let path = try directory.write("""
            requests:
              - name: row ${name}
                path: http://127.0.0.1:9/${name}
                for-each: { csv: tricky.csv }
            """, to: "csv.yaml")
        let dry = try await SluiceProcess.launch(["run", "--dry-run", "--format", "json", path])
        let document = try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any]
        let names = (document?["requests"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import csv, json, sys; print(json.dumps(['row ' + r['name'] for r in csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8-sig'))]))", directory.file("tricky.csv").path]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        python.waitUntilExit()
        let expected = try JSONSerialization.jsonObject(with: output.fileHandleForReading.readDataToEndOfFile()) as? [String]
        #expect(names == expected)
        #expect(names == ["row a, b", "row plain", "row last"])
    }

    @Test("a CSV file with a quoted field never closed (Python's strict csv: unexpected end of data), a quote inside an unquoted field, or a row short of the header's columns is refused at load, naming the line or the row and the columns")
    func malformedCSV() async throws {
        let directory = try TemporaryDirectory()
        let cases = [
            ("a,b\n1,2\n\"x,3\n", "the quoted field that starts on line 3 is never closed"),
            ("a,b\n\"one\ntwo\",2\n\"say \"\"hi\"\"\n", "the quoted field that starts on line 4 is never closed"),
            ("a,b\n1,2\n3\n", "row 2 of the CSV file has 1 cell, but the header names 2 columns: b would have no value"),
            ("a,b\nab\"c,1\n", "line 2 has a quote inside a field that does not start with one; quote the whole field"),
        ]
        for (index, (csv, words)) in cases.enumerated() {
            _ = try directory.write(csv, to: "rows\(index).csv")
            let path = try directory.write("requests:\n  - path: http://127.0.0.1:9/${a}/${b}\n    for-each: { csv: rows\(index).csv }\n", to: "rows\(index).yaml")
            let run = try await SluiceProcess.launch(["run", path])
            #expect(run.status == 2 && run.error.contains(words), "\(csv.debugDescription): \(run.error)")
        }
        // A quoted field may hold commas, line breaks and doubled quotes; a blank line is no row.
        _ = try directory.write("a,b\n\"a\"\"b, c\",\"d\ne\"\n\nlast,\n", to: "fine.csv")
        let fine = try directory.write("requests:\n  - name: row ${a}\n    path: http://127.0.0.1:9/\n    for-each: { csv: fine.csv }\n", to: "fine.yaml")
        let dry = try await SluiceProcess.launch(["run", "--dry-run", fine])
        #expect(dry.status == 0 && dry.output.contains("row a\"b, c") && dry.output.contains("row last"), "\(dry.output)\(dry.error)")
    }

    @Test("a JSON or listed row that lacks a name another row has, or adds one, or mixes objects and single values, is refused at load, naming the row and the names; the same names in another order are fine")
    func rowsOfOneShape() async throws {
        let directory = try TemporaryDirectory()
        let cases = [
            ("[{\"a\": 1, \"b\": 2}, {\"a\": 3}]", "row 2 of the JSON file lacks b, which row 1 has: give every row the same names"),
            ("[{\"a\": 1, \"b\": 2}, {\"a\": 3, \"b\": 4, \"c\": 5}]", "row 2 of the JSON file has c, which row 1 has not"),
            ("[{\"a\": 1, \"b\": 2}, 7]", "row 2 of the JSON file is a single value, where row 1 is an object: give every row the same shape"),
        ]
        for (index, (json, words)) in cases.enumerated() {
            _ = try directory.write(json, to: "rows\(index).json")
            let path = try directory.write("requests:\n  - path: http://127.0.0.1:9/${a}/${b}\n    for-each: { json: rows\(index).json }\n", to: "rows\(index).yaml")
            let run = try await SluiceProcess.launch(["run", path])
            #expect(run.status == 2 && run.error.contains(words), "\(json): \(run.error)")
        }
        // Written in the pipeline, a row without b would read the pipeline's own b in silence.
        let listed = try directory.write("""
            variables: { b: fallback }
            requests:
              - path: http://127.0.0.1:9/${a}/${b}
                for-each:
                  - { a: 1, b: 2 }
                  - { a: 3 }
            """, to: "listed.yaml")
        let run = try await SluiceProcess.launch(["run", listed])
        #expect(run.status == 2 && run.error.contains("listed.yaml:6:") && run.error.contains("this for-each row lacks b, which the first row (line 5) has"), "\(run.error)")
        _ = try directory.write("[{\"a\": 1, \"b\": 2}, {\"b\": 4, \"a\": 3}]", to: "fine.json")
        let fine = try directory.write("requests:\n  - name: row ${a}\n    path: http://127.0.0.1:9/${b}\n    for-each: { json: fine.json }\n", to: "fine.yaml")
        let dry = try await SluiceProcess.launch(["run", "--dry-run", fine])
        #expect(dry.status == 0 && dry.output.contains("row 1") && dry.output.contains("row 3"), "\(dry.output)\(dry.error)")
    }

    @Test("a row value is data, never a template: ${env.SECRET} in a CSV cell is sent as written, not expanded")
    func rowValuesAreNotTemplates() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        _ = try directory.write("probe\n${env.SLUICE_ROW_SECRET}\n$${x}\n", to: "hostile.csv")
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)/" }
            requests:
              - name: probe
                path: anything
                for-each: { csv: hostile.csv }
                headers: { X-Probe: "${probe}" }
                capture: { echoed: "$.headers['X-Probe']" }
            """, to: "hostile.yaml")
        let run = try await SluiceProcess.launch(["run", "--format", "json", path], environment: ["SLUICE_ROW_SECRET": "top-secret-value"])
        #expect(!run.output.contains("top-secret-value"))
        let document = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        let results = document?["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["name"] as? String } == ["probe [probe=${env.SLUICE_ROW_SECRET}]", "probe [probe=$${x}]"])
        #expect(results.allSatisfy { $0["ok"] as? Bool == true })
    }

    @Test("when and skip decide per run: comparisons, exists on a capture that did not happen, a row's values; skipped requests pass")
    func conditions() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            variables:
              stage: staging
              limit: "10"
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)/" }
            requests:
              - name: login
                path: status/500
                capture: { token: $.token }
              - name: needs-token
                path: bearer
                when: exists token
                headers: { Authorization: "Bearer ${token}" }
              - name: staging-only
                path: get
                when: stage == 'staging' and limit >= 9.5
              - name: not-in-staging
                path: status/500
                skip: stage == "staging"
              - name: size
                path: anything/${item}
                for-each: ["5", "50"]
                skip: item > limit
            """, to: "when.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("○ needs-token  skipped: when: exists token does not hold"), "\(run.output)")
        #expect(lines.contains { $0.hasPrefix("✔ staging-only  GET") })
        #expect(lines.contains("○ not-in-staging  skipped: skip: stage == \"staging\" holds"))
        #expect(lines.contains { $0.hasPrefix("✔ size [\"5\"]  GET") })
        #expect(lines.contains("○ size [\"50\"]  skipped: skip: item > limit holds"))
        #expect(run.output.contains("when: 6 requests: 2 passed, 3 skipped, 1 failed"))

        let junit = directory.file("junit.xml").path
        _ = try await SluiceProcess.launch(["run", "--report", "junit:\(junit)", path])
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("skipped=\"3\""))
        #expect(xml.contains("<skipped message=\"when: exists token does not hold\"/>"))
    }

    @Test("conditions are checked at load time: syntax, and names nothing in the file supplies")
    func conditionErrors() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            variables: { region: eu }
            requests:
              - path: http://h/a
                when: regoin == 'eu'
              - path: http://h/b
                skip: region = 'eu'
              - path: http://h/c
                when: region
            """, to: "bad.yaml")
        let run = try await SluiceProcess.launch(["validate", path])
        #expect(run.status == 2)
        #expect(run.error.contains("\(path):4:11: error: when: regoin is not a variable, a capture or a for-each column; did you mean region?"), "\(run.error)")
        #expect(run.error.contains("\(path):6:11: error: skip: '=' at character 8 is not an operator"))
        #expect(run.error.contains("\(path):8:11: error: when: 'region' at character 1 needs a comparison"))
        let missing = try directory.write("requests:\n  - path: http://h/d\n    for-each: { csv: nowhere.csv }\n", to: "missing.yaml")
        let unread = try await SluiceProcess.launch(["validate", missing])
        #expect(unread.error.hasPrefix("\(missing):3:22: error: cannot read 'nowhere.csv'"), "\(unread.error)")
        // Rows of two shapes: each shape fails the request for the other, so the list is refused.
        let mixed = try directory.write("requests:\n  - path: http://h/${item}\n    for-each:\n      - 1\n      - {a: 1}\n", to: "mixed.yaml")
        let mixedRun = try await SluiceProcess.launch(["validate", mixed])
        #expect(mixedRun.status == 2 && mixedRun.error.hasPrefix("\(mixed):5:9: error: for-each mixes single values (${item}, line 4) and mappings of variables (line 5)"), "\(mixedRun.error)")
    }

    @Test("nested for-each that would expand past 100,000 requests is refused at load time, before memory fills")
    func expansionBomb() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("n\n" + (0..<1000).map(String.init).joined(separator: "\n") + "\n", to: "thousand.csv")
        let path = try directory.write("""
            requests:
              - for-each: { csv: thousand.csv }
                requests:
                  - for-each: { csv: thousand.csv }
                    requests:
                      - name: bomb
                        path: http://127.0.0.1:9/${n}
            """, to: "bomb.yaml")
        let run = try await SluiceProcess.launch(["validate", path])
        #expect(run.status == 2)
        #expect(run.error.contains("\(path):6:13: error: the pipeline expands to more than 100000 requests"), "\(run.error)")
    }
}
