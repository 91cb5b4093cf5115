import Foundation
import Testing

/// A request's `retry:` and `delay:`, against the scenario server's `/flaky/KEY`, which answers
/// 202 a set number of times before 200: an eventually consistent job.
@Suite("Polling: retry until the expectations hold, delay before a request")
struct PollingRunTests {
    @Test("retry re-sends until every expectation holds, and every attempt is reported, in text and JSON")
    func retriesUntilPass() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let key = "poll-\(UUID().uuidString)"
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.scenario)/" }
            requests:
              - name: job
                path: flaky/\(key)?failures=2&status=202
                retry: { attempts: 5, interval: 50ms }
                expect:
                  status: 200
                  body:
                    $.attempt: 3
              - name: seen
                path: count/\(key)
                expect:
                  body:
                    $.count: 3
            """, to: "poll.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("✔ job  GET "))
        #expect(lines[0].hasSuffix("  attempt 3"))
        #expect(lines[1].hasPrefix("    attempt 1: 202 in "))
        #expect(lines[1].hasSuffix(": status: expected 200, actual 202; body $.attempt: expected 3, actual 1"))
        #expect(lines[2].hasPrefix("    attempt 2: 202 in "))
        #expect(lines[3].hasPrefix("✔ seen"))

        let report = directory.file("junit.xml").path
        let json = try await SluiceProcess.launch(["run", "--format", "json", "--only", "job", "--report", "junit:\(report)", path])
        let document = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let result = try #require((document?["results"] as? [[String: Any]])?.first)
        let attempts = (result["attempts"] as? [[String: Any]]) ?? []
        // The counter goes on from 3: 4 and 5 answer 202, 6 answers 200 with attempt 6, which is not 3.
        #expect(attempts.map { $0["status"] as? Int } == [202, 202, 200, 202, 202])
        #expect(attempts.map { $0["ok"] as? Bool } == [false, false, false, false, false])
        #expect(json.status == 1)
        // duration-ms is the last attempt's; total-ms and JUnit's time hold every attempt and the
        // four 50 ms waits between them (lower bounds: a slow machine only takes longer).
        let durations = attempts.compactMap { $0["duration-ms"] as? Double }
        #expect(result["duration-ms"] as? Double == durations.last)
        let total = try #require(result["total-ms"] as? Double)
        #expect(total >= 200 + durations.reduce(0, +) - 1, "\(total) ms for \(durations)")
        let xml = try #require(FileNodes.contents(report))
        let time = try #require(xml.firstMatch(of: /<testcase name="job" [^>]*time="([0-9.]+)"/).flatMap { Double($0.1) })
        #expect(time >= 0.2, "\(xml)")
    }

    @Test("retry gives up after its attempts: the last attempt's failure is the request's, exit 1")
    func givesUp() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - name: never-ready
                path: \(servers.httpbin.absoluteString)/status/503
                retry: { attempts: 3, interval: 10ms }
                expect: { status: 200 }
            """, to: "giveup.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 1)
        #expect(run.output.contains("✘ never-ready"))
        #expect(run.output.contains("  attempt 3\n"))
        #expect(run.output.components(separatedBy: "    attempt ").count - 1 == 2)
        #expect(run.output.contains("\(path):5:23: failed: status"))
    }

    @Test("delay: waits before sending; the server sees the request no sooner than the delay after the one before")
    func delay() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - name: first
                path: \(servers.httpbin.absoluteString)/get
                capture: { first: "$.url" }
              - name: later
                path: \(servers.httpbin.absoluteString)/get
                delay: 300ms
            """, to: "delay.yaml")
        let clock = ContinuousClock()
        let start = clock.now
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0)
        // A lower bound only: a loaded machine can be slower, never faster.
        #expect(clock.now - start >= .milliseconds(300))
    }

    @Test("sluice curl says what it cannot export: a request's retry: and the file's retry stage, each in a comment line")
    func curlSaysRetriesAreLeftOut() async throws {
        let directory = try TemporaryDirectory()
        let polling = try directory.write("requests:\n  - name: poll\n    path: http://h/\n    retry: { attempts: 3, interval: 1s }\n  - name: once\n    path: http://h/once\n", to: "poll.yaml")
        let exported = try await SluiceProcess.launch(["curl", polling])
        #expect(exported.output.contains("# poll\n# not exported: retry:, which sends this request again until its checks hold; curl has no such option\ncurl "), "\(exported.output)")
        #expect(!exported.output.contains("# once\n# not exported"), "\(exported.output)")
        let staged = try directory.write("stages:\n  - retry\nrequests:\n  - path: http://h/\n", to: "stage.yaml")
        let stageExported = try await SluiceProcess.launch(["curl", staged])
        #expect(stageExported.output.contains("# not exported: the file's retry stage"), "\(stageExported.output)")
    }

    @Test("bad retry and delay values are load errors at their line")
    func badValues() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - path: http://h/
                retry: { attempts: 0 }
              - path: http://h/a
                retry: { interval: 1s }
              - path: http://h/b
                retry: { attempts: 2, every: 1s }
              - path: http://h/c
                delay: soon
            """, to: "bad.yaml")
        let run = try await SluiceProcess.launch(["validate", path])
        #expect(run.status == 2)
        #expect(run.error.contains("\(path):3:24: error: retry attempts is a whole number from 1 to 10000"))
        #expect(run.error.contains("\(path):5:12: error: retry: needs attempts:"))
        #expect(run.error.contains("\(path):7:27: error: unknown key 'every' in retry"))
        #expect(run.error.contains("\(path):9:12: error: delay must be a duration"))
    }
}
