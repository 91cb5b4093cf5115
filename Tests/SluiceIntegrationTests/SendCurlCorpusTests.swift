import Foundation
import Testing

/// `sluice send` beside curl 7.88 on command lines people really type
/// (`Tests/Fixtures/CurlCorpus`), each compared on its exit status and on what the scenario
/// server's `/raw` recorder received: request line, body, and header fields but the three
/// decided differences (`User-Agent`, `Accept-Encoding`, `Expect`).
@Suite("sluice send beside curl on a corpus of real command lines, compared on what the server received")
struct SendCurlCorpusTests {
    struct Line: Decodable {
        let source: String
        let args: [String]
        let sluice_status: Int32?
        /// Whether the request on the wire differs on purpose (then only the status is compared).
        let request_differs: Bool?
        let decision: String?
    }

    /// What the recorder saw, with the decided differences left out and the fields sorted (the
    /// two tools order them differently, which HTTP gives no meaning).
    static func received(_ output: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let line = object["request_line"] as? String, let headers = object["headers"] as? [[String]], let body = object["body"] as? String
        else { return nil }
        let fields = headers.filter { !["user-agent", "accept-encoding", "expect"].contains($0[0].lowercased()) }.map { "\($0[0].lowercased()): \($0[1])" }.sorted()
        return ([line] + fields + ["body: " + body]).joined(separator: "\n")
    }

    @Test("every command line: the same exit status and the same request on the wire as curl 7.88, or a listed decision")
    func corpus() async throws {
        let servers = try TestServers.load()
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/CurlCorpus/command-lines.json")
        let lines = try JSONDecoder().decode([Line].self, from: Data(contentsOf: corpus))
        #expect(lines.count >= 100)
        let directory = try TemporaryDirectory()
        let file = try directory.write("a=1\r\nb=two words\n", to: "data.txt")
        let json = try directory.write("{\"from\": \"file\"}\n", to: "body.json")
        let headerFile = try directory.write("X-From-File: yes\nX-Empty;\n\nAccept:\n", to: "headers.txt")
        let raw = servers.scenario.appendingPathComponent("raw").absoluteString
        for (index, line) in lines.enumerated() {
            var outputs: [String: String] = [:]
            var results: [String: (status: Int32, output: String)] = [:]
            for tool in ["curl", "sluice"] {
                let out = directory.file("\(tool)-\(index).out").path
                outputs[tool] = out
                let arguments = line.args.map { argument in
                    argument.replacingOccurrences(of: "{URL}", with: raw)
                        .replacingOccurrences(of: "{BARE}", with: raw.replacingOccurrences(of: "http://", with: ""))
                        .replacingOccurrences(of: "{HTTPBIN}/get", with: servers.httpbin("get").absoluteString)
                        .replacingOccurrences(of: "{FOUR}", with: servers.httpbin("status/404").absoluteString)
                        .replacingOccurrences(of: "{FILE}", with: file).replacingOccurrences(of: "{JSON}", with: json)
                        .replacingOccurrences(of: "{HEADERS}", with: headerFile).replacingOccurrences(of: "{OUT}", with: out)
                }
                if tool == "curl" {
                    results[tool] = try await CurlCLI.run(arguments)
                } else {
                    let sent = try await SluiceProcess.launch(["send"] + arguments)
                    results[tool] = (sent.status, sent.output)
                }
            }
            let curl = try #require(results["curl"])
            let sluice = try #require(results["sluice"])
            #expect(sluice.status == (line.sluice_status ?? curl.status), "\(line.source): exit \(sluice.status), curl \(curl.status)")
            let written = { (tool: String, result: (status: Int32, output: String)) in
                line.args.contains("{OUT}") ? (try? String(contentsOfFile: outputs[tool]!, encoding: .utf8)) ?? "" : result.output
            }
            if line.request_differs != true, let theirs = Self.received(written("curl", curl)) {
                #expect(Self.received(written("sluice", sluice)) == theirs, "\(line.source)")
            }
        }
    }
}
