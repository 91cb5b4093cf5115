import Foundation
import Testing

/// The `User-Agent` a run sends, as httpbin's `/headers` echoes it: sluice's own unless the file,
/// the request or the command line says otherwise, as curl sends its own.
@Suite("The User-Agent of sluice run")
struct UserAgentRunTests {
    /// The `User-Agent` httpbin saw from the run of `path` (`nil`: none), read from the echoed
    /// body the request writes to `echo.json` beside the file.
    private static func agent(_ path: String, _ arguments: [String] = []) async throws -> String? {
        let run = try await SluiceProcess.launch(["run"] + arguments + [path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let echo = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("echo.json")
        let body = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: echo)) as? [String: Any])
        let headers = try #require(body["headers"] as? [String: String])
        return headers["User-Agent"]
    }

    private static func pipeline(_ base: String, stages: String = "", request extra: String = "") -> String {
        """
        \(stages.isEmpty ? "" : "stages:\n  - \(stages)\n")requests:
          - name: echo
            path: \(base)/headers
            output: echo.json
        \(extra.isEmpty ? "" : "    \(extra)\n")
        """
    }

    @Test("a file without header-injection sends sluice/VERSION (OS; ARCH), as `sluice send` does; -A replaces it; -A '' sends none, as curl's")
    func defaultAndCommandLine() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.pipeline(base), to: "plain.yaml")
        let own = try #require(try await Self.agent(path))
        #expect(own.hasPrefix("sluice/") && own.contains(" (Linux; "), "\(own)")
        let sent = try await SluiceProcess.launch(["send", base + "/headers"])
        #expect(sent.output.contains("\"User-Agent\": \"\(own)\""), "\(sent.output)")
        #expect(try await Self.agent(path, ["-A", "mine/1.0"]) == "mine/1.0")
        #expect(try await Self.agent(path, ["-A", ""]) == nil)
        let verbose = try await SluiceProcess.launch(["validate", "--verbose", path])
        #expect(verbose.output.contains("header-injection  added: a run sends User-Agent: sluice/VERSION (OS; ARCH), as curl sends its own (header-injection: {user-agent: none} sends none)"), "\(verbose.output)")
    }

    @Test("-A goes over the file's header-injection, whose user-agent: none and \"\" send none; remove-headers leaves out what a stage injects")
    func fileAndRequest() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let directory = try TemporaryDirectory()
        let listed = try directory.write(Self.pipeline(base, stages: "header-injection: { user-agent: from-file }"), to: "listed.yaml")
        #expect(try await Self.agent(listed) == "from-file")
        #expect(try await Self.agent(listed, ["-A", "from-cli"]) == "from-cli")
        #expect(try await Self.agent(listed, ["-H", "X-Other: 1"]) == "from-file")
        for off in ["none", "\"\""] {
            let path = try directory.write(Self.pipeline(base, stages: "header-injection: { user-agent: \(off) }"), to: "off.yaml")
            #expect(try await Self.agent(path) == nil, "user-agent: \(off)")
        }
        let removed = try directory.write(Self.pipeline(base, stages: "header-injection: { user-agent: from-file }", request: "remove-headers: [user-agent]"), to: "removed.yaml")
        #expect(try await Self.agent(removed) == nil)
        let own = try directory.write(Self.pipeline(base, request: "headers: { User-Agent: own/2 }"), to: "own.yaml")
        #expect(try await Self.agent(own, ["-A", "from-cli"]) == "own/2")
    }
}
