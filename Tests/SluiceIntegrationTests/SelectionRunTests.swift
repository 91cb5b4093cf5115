import Foundation
import Testing

/// `tags:` with `--tag`/`--skip-tag`, `--only` globs, `--jobs`, and where variables come from:
/// `--var` over `--vars-file` over `SLUICE_VAR_NAME` over `variables:`.
@Suite("Selecting requests, running files in parallel, and variable sources")
struct SelectionRunTests {
    static func tagged(_ servers: TestServers, in directory: TemporaryDirectory) throws -> String {
        try directory.write("""
            tags: [api]
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)/" }
            requests:
              - name: health-check
                path: get
                tags: [smoke]
              - name: orders-list
                path: anything/orders
                tags: [slow]
              - name: orders-create
                method: POST
                path: anything/orders
                tags: [smoke, write]
            """, to: "tagged.yaml")
    }

    static func names(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("✔") || $0.hasPrefix("✘") }.map { String($0.split(separator: " ")[1]) }
    }

    @Test("--tag keeps requests with any of the tags (a file's tags count), --skip-tag leaves some out, --only takes globs")
    func selection() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try SelectionRunTests.tagged(servers, in: directory)
        func run(_ arguments: [String]) async throws -> [String] {
            let result = try await SluiceProcess.launch(["run", "--no-color"] + arguments + [path])
            #expect(result.status == 0, "\(arguments): \(result.output)\(result.error)")
            return SelectionRunTests.names(result.output)
        }
        #expect(try await run(["--tag", "smoke"]) == ["health-check", "orders-create"])
        #expect(try await run(["--tag", "api"]) == ["health-check", "orders-list", "orders-create"])
        #expect(try await run(["--tag", "smoke", "--skip-tag", "write"]) == ["health-check"])
        #expect(try await run(["--skip-tag", "slow", "--skip-tag", "write"]) == ["health-check"])
        #expect(try await run(["--only", "orders-*"]) == ["orders-list", "orders-create"])
        #expect(try await run(["--only", "*-c[hr]*"]) == ["health-check", "orders-create"])
        #expect(try await run(["--only", "orders-*", "--tag", "smoke"]) == ["orders-create"])
        let none = try await SluiceProcess.launch(["run", "--only", "billing-*", path])
        #expect(none.status == 2)
        #expect(none.error.contains("--only billing-*: \(path) has no request of that name"))
        // A tag no request has is a typo that would run nothing, or skip nothing, and pass.
        for (option, tag) in [("--tag", "smok"), ("--skip-tag", "wirte")] {
            let typo = try await SluiceProcess.launch(["run", option, tag, path])
            #expect(typo.status == 2 && typo.error.contains("\(option) \(tag): no request of \(path) has that tag (tags: api, slow, smoke, write)"), "\(typo.error)")
        }
        let other = try directory.write("requests:\n  - { name: x, path: http://127.0.0.1:1/, tags: [nightly] }\n", to: "other.yaml")
        let acrossFiles = try await SluiceProcess.launch(["run", "--tag", "smok", path, other])
        #expect(acrossFiles.status == 2 && acrossFiles.error.contains("--tag smok: no request of the 2 files has that tag (tags: api, nightly, slow, smoke, write)"), "\(acrossFiles.error)")
    }

    @Test("a glob matches the name with its for-each row too, and leaving out a request whose capture is used is an error")
    func globsAndCaptures() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - name: login
                path: \(servers.httpbin.absoluteString)/uuid
                capture: { id: $.uuid }
              - name: fetch
                path: \(servers.httpbin.absoluteString)/anything/${id}/${item}
                for-each: [a, b]
            """, to: "globs.yaml")
        let one = try await SluiceProcess.launch(["run", "--no-color", "--only", "login", "--only", "fetch [b]", path])
        #expect(SelectionRunTests.names(one.output) == ["login", "fetch"], "\(one.output)\(one.error)")
        #expect(one.output.contains("✔ fetch [b]"))
        let orphan = try await SluiceProcess.launch(["run", "--only", "fetch*", path])
        #expect(orphan.status == 2)
        #expect(orphan.error.contains("the selection leaves out request 'login', which captures ${id} for 'fetch [a]'"))
        // Nothing is sent by a dry run or `sluice curl`: the capture shows as its placeholder.
        for command in [["run", "--dry-run", "--no-color"], ["curl"]] {
            let shown = try await SluiceProcess.launch(command + ["--only", "fetch [b]", path])
            #expect(shown.status == 0 && shown.output.contains("/anything/<id>/b"), "\(command): \(shown.output)\(shown.error)")
        }
    }

    @Test("--jobs runs files at once, each with its own captures and cookies, and prints them in the order given")
    func parallelFiles() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        var paths: [String] = []
        for index in 0..<4 {
            // The first file is the slowest, so with 4 jobs it finishes last but prints first.
            let delay = index == 0 ? "delay: 400ms" : ""
            paths.append(try directory.write("""
                name: file-\(index)
                requests:
                  - name: set-\(index)
                    path: \(servers.httpbin.absoluteString)/cookies/set?owner=file-\(index)
                    \(delay)
                    capture: { seen: "$.cookies.owner" }
                  - name: check-\(index)
                    path: \(servers.httpbin.absoluteString)/cookies
                    expect:
                      body:
                        $.cookies.owner: file-\(index)
                        $.cookies: { count: 1 }
                  - name: capture-\(index)
                    path: \(servers.httpbin.absoluteString)/anything/${seen}
                    expect:
                      body: { $.url: { matches: "file-\(index)$" } }
                """, to: "f\(index).yaml"))
        }
        let run = try await SluiceProcess.launch(["run", "--no-color", "--jobs", "4"] + paths)
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let summaries = run.output.split(separator: "\n").filter { $0.contains(" requests: ") }.map { String($0.prefix { $0 != ":" }) }
        #expect(summaries == ["file-0", "file-1", "file-2", "file-3"])
        let names = SelectionRunTests.names(run.output)
        #expect(names == (0..<4).flatMap { ["set-\($0)", "check-\($0)", "capture-\($0)"] })
    }

    @Test("variables: --var over --vars-file (YAML or dotenv, a later file winning) over SLUICE_VAR_NAME over variables:; SLUICE_VAR_ values are secrets")
    func precedence() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            variables:
              a: from-variables
              b: from-variables
              c: from-variables
              d: from-variables
              e: from-variables
            stages:
              - response-decoding
            requests:
              - name: echo
                path: \(servers.httpbin.absoluteString)/anything
                headers: { X-A: "${a}", X-B: "${b}", X-C: "${c}", X-D: "${d}", X-E: "${e}" }
                expect:
                  body:
                    $.headers['X-A']: from-var
                    $.headers['X-B']: from-env-file
                    $.headers['X-C']: from-yaml-file
                    $.headers['X-D']: from-environment
                    $.headers['X-E']: from-variables
            """, to: "vars.yaml")
        let yaml = try directory.write("b: from-yaml-file\nc: from-yaml-file\na: from-yaml-file\n", to: "vars.yaml.d.yaml")
        let dotenv = try directory.write("# team defaults\nexport a=from-env-file\nb='from-env-file'\n", to: "team.env")
        let run = try await SluiceProcess.launch(
            ["run", "--no-color", "--format", "json", "--vars-file", yaml, "--vars-file", dotenv, "--var", "a=from-var", path],
            environment: ["SLUICE_VAR_a": "from-environment", "SLUICE_VAR_b": "from-environment", "SLUICE_VAR_c": "from-environment", "SLUICE_VAR_d": "from-environment"]
        )
        #expect(run.status == 0, "\(run.output)\(run.error)")
        // The environment's value is a secret: hidden wherever it would show.
        #expect(!run.output.contains("from-environment"))
        #expect(run.output.contains("***"))
    }

    @Test("a bad --vars-file is an error at its line; an unknown --report kind is refused")
    func badVariablesFile() async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try directory.write("requests:\n  - path: http://127.0.0.1:9/\n", to: "p.yaml")
        let dotenv = try directory.write("GOOD=1\nthis line has no equals\nB=\"unterminated\n", to: "bad.env")
        let run = try await SluiceProcess.launch(["validate", "--vars-file", dotenv, pipeline])
        #expect(run.status == 2)
        #expect(run.error.contains("\(dotenv):2:1: error: a line of a dotenv file is NAME=VALUE"))
        #expect(run.error.contains("\(dotenv):3:1: error: the value has no closing \""))
        let report = try await SluiceProcess.launch(["run", "--report", "pdf:out.pdf", pipeline])
        #expect(report.status == 2)
        #expect(report.error.contains("--report takes KIND:PATH with KIND one of json, tap, junit, html, histogram, not 'pdf:out.pdf'"))
    }
}
