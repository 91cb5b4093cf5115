import Foundation
import Testing

/// A request's own `http-version:` and `limit-rate:`, against Hurl's test app (which checks the
/// version it was sent with), in a pipeline file, converted from Hurl's options, and exported by
/// `sluice curl`.
@Suite("A request's http-version and limit-rate")
struct HTTPVersionRunTests {
    private static let pipeline = """
        requests:
          - name: ten
            path: http://localhost:8000/http_version/10
            http-version: "1.0"
            limit-rate: 1MB
            expect: { status: 200 }
          - name: eleven
            path: http://localhost:8000/http_version/11
            http-version: 1.1
            expect: { status: 200 }
        """

    @Test("http-version 1.0 and 1.1 reach the server as those versions; without it the transport's own is used and the server refuses")
    func versionsReachTheServer() async throws {
        let directory = try TemporaryDirectory()
        let connectTo = try TestServers.load().hurlConnectTo.flatMap { ["--connect-to", $0] }
        let path = try directory.write(Self.pipeline, to: "versions.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color"] + connectTo + [path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let without = try directory.write(Self.pipeline.replacingOccurrences(of: "    http-version: \"1.0\"\n", with: ""), to: "without.yaml")
        let refused = try await SluiceProcess.launch(["run", "--no-color"] + connectTo + [without])
        #expect(refused.status == 1 && refused.output.contains("✘ ten"), "\(refused.output)")
    }

    @Test("sluice curl writes them as curl's --http1.0, --http1.1 and --limit-rate; a bad value is refused at its line")
    func exportedAndRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(Self.pipeline, to: "versions.yaml")
        let export = try await SluiceProcess.launch(["curl", path])
        #expect(export.status == 0, "\(export.error)")
        #expect(export.output.contains("--http1.0 --limit-rate 1000000"), "\(export.output)")
        #expect(export.output.contains("--http1.1"), "\(export.output)")
        let bad = try directory.write("requests:\n  - path: http://a.test/\n    http-version: 3\n    limit-rate: fast\n", to: "bad.yaml")
        let refused = try await SluiceProcess.launch(["validate", bad])
        #expect(refused.status == 2)
        #expect(refused.error.contains("bad.yaml:3:19: error: http-version is 1.0, 1.1 or 2"), "\(refused.error)")
        #expect(refused.error.contains("bad.yaml:4:17: error: limit-rate must be a size"), "\(refused.error)")
    }

    @Test("Hurl's http1.0 / http1.1 / limit-rate options and --http1.0, --limit-rate convert to them; an entry's own option wins")
    func fromHurl() async throws {
        let directory = try TemporaryDirectory()
        let hurl = try directory.write("""
            GET http://localhost:8000/http_version/10
            HTTP 200

            GET http://localhost:8000/http_version/11
            [Options]
            http1.1: true
            limit-rate: 500000
            HTTP 200
            """, to: "versions.hurl")
        let connectTo = try TestServers.load().hurlConnectTo.flatMap { ["--connect-to", $0] }
        let run = try await SluiceProcess.launch(["run", "--no-color", "-0", "--limit-rate", "1M"] + connectTo + [hurl])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let convert = try await SluiceProcess.launch(["convert", "--http1.0", "--limit-rate", "1M", hurl])
        #expect(convert.output.contains("    http-version: \"1.0\"\n    limit-rate: 1048576\n"), "\(convert.output)")
        #expect(convert.output.contains("    http-version: \"1.1\"\n    limit-rate: 500000\n"), "\(convert.output)")
        let both = try await SluiceProcess.launch(["run", "--http1.0", "--http2", hurl])
        #expect(both.status == 2 && both.error.contains("give one of --http1.0, --http1.1 and --http2"), "\(both.error)")
    }
}
