import Foundation
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import Testing

/// The `cache` stage in `sluice run`: outcomes in the text line, `--verbose` and the JSON report;
/// a cache directory shared by runs and by processes running at once; option errors at their line.
@Suite("HTTP cache in the runner, against the scenario server")
struct CacheRunTests {
    private func count(_ servers: TestServers, _ key: String) async throws -> Int {
        let response = try await servers.manager().send(Request(url: servers.scenario.appendingPathComponent("count/\(key)")))
        return try #require(try response.jsonObject()["count"] as? Int)
    }

    @Test("a run's second request for a fresh URL is a hit: in the text line, --verbose and the JSON report")
    func outcomesInOutput() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let key = "run-\(UUID().uuidString)"
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.scenario.absoluteString)" }
              - cache
            requests:
              - name: first
                path: cache/\(key)?cache-control=max-age%3D60
              - name: second
                path: cache/\(key)?cache-control=max-age%3D60
            """, to: "cache.yaml")
        let text = try await SluiceProcess.launch(["run", "--no-color", "--verbose", path])
        #expect(text.status == 0, "\(text.output)\(text.error)")
        #expect(text.output.contains("cache miss\n") && text.output.contains("cache hit\n"), "\(text.output)")
        // A hit sends nothing, and its line names the URL it answers for, absolute as the miss's.
        #expect(text.output.contains("✔ second  GET \(servers.scenario.absoluteString)/cache/\(key)?cache-control=max-age%3D60  200"), "\(text.output)")
        #expect(text.error.contains("* cache: hit http://127.0.0.1:\(servers.scenario.port!)/cache/\(key)"), "\(text.error)")
        let json = try await SluiceProcess.launch(["run", "--format", "json", path])
        let report = try JSONReader().value(from: json.output)
        #expect(report["results"]?[0]?["cache"] == .string("miss"))
        #expect(report["results"]?[1]?["cache"] == .string("hit"))
        #expect(try await count(servers, key) == 2, "each run has its own memory cache")
    }

    @Test("a response fetched with one user's credentials is never given to another user's request, or to one with none; the same user's is a hit, with the stages in either order; the store holds no credential")
    func credentialsSelect() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        for (index, order) in [["cache", "url-resolution"], ["url-resolution", "cache"]].enumerated() {
            let key = "auth-\(index)-\(UUID().uuidString)"
            let stages = order.map { $0 == "cache" ? "  - cache: { directory: shared-cache }" : "  - url-resolution: { base-url: \"\(servers.scenario.absoluteString)\" }" }
            let path = try directory.write("""
                stages:
                \(stages.joined(separator: "\n"))
                requests:
                  - name: alice
                    path: cache/\(key)?cache-control=max-age%3D600
                    credential: { username: alice, password: alicepass1, schemes: basic }
                  - name: alice again
                    path: cache/\(key)?cache-control=max-age%3D600
                    headers: { Authorization: "Basic YWxpY2U6YWxpY2VwYXNzMQ==" }
                  - name: bob
                    path: cache/\(key)?cache-control=max-age%3D600
                    credential: { username: bob, password: bobpass22, schemes: basic }
                  - name: nobody
                    path: cache/\(key)?cache-control=max-age%3D600
                  - name: nobody again
                    path: cache/\(key)?cache-control=max-age%3D600
                """, to: "auth\(index).yaml")
            let run = try await SluiceProcess.launch(["run", "--no-color", "--format", "json", path])
            #expect(run.status == 0, "\(run.output)\(run.error)")
            let report = try JSONReader().value(from: run.output)
            let outcomes = (0..<5).map { report["results"]?[$0]?["cache"]?.stringValue }
            #expect(outcomes == ["miss", "hit", "miss", "miss", "hit"], "\(order): \(outcomes)")
            #expect(try await count(servers, key) == 3, "\(order)")
            #expect(!run.output.contains("alicepass1") && !run.output.contains("YWxpY2U6"), "\(run.output)")
        }
        // The store's files hold digests, never the credentials.
        let store = directory.file("shared-cache")
        let enumerator = FileManager.default.enumerator(atPath: store.path)
        var files = 0
        while let file = enumerator?.nextObject() as? String {
            let text = String(decoding: (try? Data(contentsOf: store.appendingPathComponent(file))) ?? Data(), as: UTF8.self)
            files += 1
            #expect(!text.contains("YWxpY2U6") && !text.contains("alicepass1") && !text.contains("Ym9iOm"), "\(file)")
        }
        #expect(files > 0)
    }

    @Test("a cache directory outlives the run: the next run's request is a hit and sends nothing")
    func directoryAcrossRuns() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let key = "dir-\(UUID().uuidString)"
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.scenario.absoluteString)" }
              - cache: { directory: http-cache, max-size: 1MiB }
            requests:
              - path: cache/\(key)?cache-control=max-age%3D3600
            """, to: "cache.yaml")
        // Fresh for an hour: on a loaded machine the second run has started a minute later.
        for expected in ["cache miss", "cache hit"] {
            let run = try await SluiceProcess.launch(["run", "--no-color", path])
            #expect(run.status == 0 && run.output.contains(expected), "\(run.output)\(run.error)")
        }
        #expect(try await count(servers, key) == 1)
        #expect(directory.contents.contains("http-cache"))
    }

    @Test("two runs at once share one cache directory: both pass, every entry is whole, no temporary file is left")
    func processesAtOnce() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let prefix = "shared-\(UUID().uuidString)"
        // Fresh for an hour: the third run may wait its turn behind the suite's other processes,
        // and what it checks is that the entries are shared and whole, not when they go stale.
        let requests = (0..<12).map { "  - { name: r\($0), path: \"cache/\(prefix)-\($0 % 6)?cache-control=max-age%3D3600\" }\n" }.joined()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.scenario.absoluteString)" }
              - cache: { directory: shared }
            requests:
            \(requests)
            """, to: "shared.yaml")
        let processes = try (0..<2).map { _ in
            try ChildProcess(executable: SluiceProcess.executable, arguments: ["run", "--no-color", path], environment: ProcessInfo.processInfo.environment, directory: nil, captures: false)
        }
        for process in processes {
            #expect(try await offPool { process.finish().status } == 0)
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.file("shared").path)
        #expect(entries.filter { $0.hasSuffix(".entry") }.count == 6)
        #expect(!entries.contains { $0.hasPrefix(".tmp-") })
        let third = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(third.output.components(separatedBy: "cache hit").count - 1 == 12, "\(third.output)")
    }

    @Test("bad cache options are load-time errors at their line; a listed cache gets the run's cookies above it")
    func options() async throws {
        let directory = try TemporaryDirectory()
        let size = try directory.write("stages:\n  - cache: { max-size: lots }\nrequests: []\n", to: "size.yaml")
        let refused = try await SluiceProcess.launch(["validate", size])
        #expect(refused.status == 2)
        #expect(refused.error.contains("size.yaml:2:"), "\(refused.error)")
        #expect(refused.error.contains("max-size must be a size such as 500KB or 64MiB, not lots"), "\(refused.error)")
        _ = try directory.write("a file, not a directory", to: "taken")
        let taken = try directory.write("stages:\n  - cache: { directory: taken }\nrequests: []\n", to: "taken.yaml")
        let notDirectory = try await SluiceProcess.launch(["validate", taken])
        #expect(notDirectory.status == 2)
        #expect(notDirectory.error.contains("taken.yaml:2:"), "\(notDirectory.error)")
        let file = try PipelineFile.load(text: "stages:\n  - cache\nrequests: []\n", path: "p.yaml")
        #expect(try file.makePipeline(transport: CurlTransport.shared).stageNames == ["header-injection", "redirects", "hsts", "cookies", "cache"])
    }
}
