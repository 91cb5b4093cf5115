import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// The machine-readable documents of a run, as the pipeline format specifies them: the
/// `--format json` result and dry-run documents, and the `--report` files (JSON, TAP, JUnit XML,
/// HTML). Every string passes through the redactor.
public enum RunReport {
    /// One pipeline file's results.
    public struct Suite: Sendable {
        /// The file as given.
        public var file: String
        /// The pipeline's name.
        public var pipeline: String
        /// The results, in run order.
        public var results: [RequestResult]
        /// How long the file took.
        public var elapsed: Duration
        /// The chain of stages the requests ran through, top to bottom.
        public var chain: [ChainLink]
        /// Why the file did not load, when it did not: every problem found in it, and no results.
        /// Each report shows such a file as one error, so that CI reads a failed run, not an
        /// empty one.
        public var problems: [PipelineDiagnostic] = []

        /// Creates a suite.
        public init(file: String, pipeline: String, results: [RequestResult], elapsed: Duration = .zero, chain: [ChainLink] = []) {
            self.file = file
            self.pipeline = pipeline
            self.results = results
            self.elapsed = elapsed
            self.chain = chain
        }

        /// The suites of files that did not load: one a file, in the order the problems name them.
        public static func unloaded(_ problems: [PipelineDiagnostic]) -> [Suite] {
            var files: [String] = []
            for problem in problems where !files.contains(problem.file) { files.append(problem.file) }
            return files.map { file in
                var suite = Suite(file: file, pipeline: file, results: [])
                suite.problems = problems.filter { $0.file == file }
                return suite
            }
        }

        /// `FILE:LINE:COLUMN: error: MESSAGE` lines, one a problem.
        var problemText: String { problems.map(\.description).joined(separator: "\n") }
    }

    /// A whole run: every file's results, in the order the files were given.
    public struct Run: Sendable {
        /// The files' results.
        public var suites: [Suite]

        /// Creates a run.
        public init(suites: [Suite]) {
            self.suites = suites
        }

        /// Every result.
        var results: [RequestResult] { suites.flatMap(\.results) }

        /// Passed, failed and skipped counts of every result, a file that did not load counted
        /// as one failure.
        var counts: (passed: Int, failed: Int, skipped: Int) {
            var counts = RunReport.counts(results)
            counts.failed += suites.filter { !$0.problems.isEmpty }.count
            return counts
        }
    }

    /// Passed, failed and skipped counts: a skipped request is neither passed nor failed.
    static func counts(_ results: [RequestResult]) -> (passed: Int, failed: Int, skipped: Int) {
        let skipped = results.filter(\.isSkipped).count
        let failed = results.filter { !$0.ok }.count
        return (results.count - failed - skipped, failed, skipped)
    }

    /// `{"pipeline", "results": [...], "summary": {"passed", "failed", "skipped"}}`.
    public static func json(pipeline: String, results: [RequestResult], redactor: Redactor) -> JSONValue {
        let counts = counts(results)
        return [
            "pipeline": .string(pipeline),
            "results": .array(results.map { result(json: $0, redactor: redactor) }),
            "summary": ["passed": .int(counts.passed), "failed": .int(counts.failed), "skipped": .int(counts.skipped)],
        ]
    }

    /// `--report json:PATH`: `{"pipelines": [the --format json document of each file], "summary":
    /// {"files", "passed", "failed", "skipped"}}`, the same shape for one file or many. A file
    /// that did not load has `"problems": [{"line", "column", "message"}]` and no results.
    public static func json(_ run: Run, redactor: Redactor) -> JSONValue {
        let counts = run.counts
        return [
            "pipelines": .array(run.suites.map { suite in
                var document = json(pipeline: suite.pipeline, results: suite.results, redactor: redactor)
                if case .object(var object) = document {
                    object["file"] = .string(suite.file)
                    if !suite.problems.isEmpty {
                        object["summary"] = ["passed": 0, "failed": 1, "skipped": 0]
                        object["problems"] = .array(suite.problems.map { ["line": .int($0.mark.line), "column": .int($0.mark.column), "message": .string(redactor.redact($0.message))] })
                    }
                    document = .object(object)
                }
                return document
            }),
            "summary": [
                "files": .int(run.suites.count), "passed": .int(counts.passed), "failed": .int(counts.failed), "skipped": .int(counts.skipped),
            ],
        ]
    }

    /// `{"pipeline", "requests": [{"name", "method", "url", "headers": [[NAME, VALUE]], "body", "body-base64"}]}`.
    /// A request that could not be prepared has `"error"` instead of its headers and body; one its
    /// `when:` or `skip:` leaves out, `"skipped"` with why.
    public static func dryRunJSON(pipeline: String, prepared: [PreparedRequest], redactor: Redactor) -> JSONValue {
        let requests: [JSONValue] = prepared.map { entry in
            switch entry.result {
            case .success(let request):
                let body = bodyBytes(request.body)
                let text = body.flatMap { String(data: $0, encoding: .utf8) }
                return [
                    "name": .string(entry.spec.displayName),
                    "method": .string(request.method.rawValue),
                    "url": .string(redactor.redact(CapturePlaceholder.shown(request.url, names: entry.placeholders))),
                    "headers": .array(request.headers.map { [.string($0.name), .string(redactor.redact(header: $0.name, value: $0.value))] }),
                    "body": text.map { .string(redactor.redact($0)) } ?? .null,
                    "body-base64": body.flatMap { text == nil ? .string(redactor.redact($0).base64EncodedString()) : nil } ?? .null,
                ]
            case .failure where entry.skipReason != nil:
                return [
                    "name": .string(entry.spec.displayName),
                    "method": .string(entry.spec.method.rawValue),
                    "url": .string(redactor.redact(entry.spec.path.scalar ?? "")),
                    "skipped": .string(redactor.redact(entry.skipReason ?? "")),
                ]
            case .failure(let error):
                return [
                    "name": .string(entry.spec.displayName),
                    "method": .string(entry.spec.method.rawValue),
                    "url": .string(redactor.redact(entry.spec.path.scalar ?? "")),
                    "error": failure(json: RequestResult.Failure(error), redactor: redactor),
                ]
            }
        }
        return ["pipeline": .string(pipeline), "requests": .array(requests)]
    }

    /// The bytes a body sends: memory as it is, files read; `nil` for no body, and for a streamed
    /// one, whose bytes exist only while it is sent.
    public static func bodyBytes(_ body: RequestBody) -> Data? {
        func read(_ url: URL) -> Data { (try? Data(contentsOf: url)) ?? Data() }
        switch body {
        case .none, .stream: return nil
        case .data(let data): return data
        case .file(let url): return read(url)
        case .segments(let segments):
            return segments.reduce(into: Data()) { bytes, segment in
                switch segment {
                case .data(let data): bytes += data
                case .file(let url): bytes += read(url)
                }
            }
        }
    }

    /// JUnit XML: one `<testsuite>` per pipeline file, one `<testcase>` per request; unmet
    /// expectations are `<failure>`s, errors `<error>`s, skipped requests (by a condition or for a
    /// missing capture) `<skipped>`.
    public static func junit(_ suites: [Suite], redactor: Redactor) -> String {
        func attribute(_ text: String) -> String { xmlEscaped(redactor.redact(text)) }
        var suitesXML: [String] = []
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0, time: 0.0)
        for suite in suites {
            var cases: [String] = []
            var counts = (failures: 0, errors: 0, skipped: 0, time: 0.0)
            if let first = suite.problems.first {
                // A file that did not load: one test case in error, every problem in its text.
                counts.errors += 1
                cases.append(
                    "    <testcase name=\"load\" classname=\"\(attribute(suite.pipeline))\" time=\"0.000\">\n      <error message=\"\(attribute(first.message))\" type=\"invalid pipeline\">\(attribute(suite.problemText))</error>\n    </testcase>"
                )
            }
            for result in suite.results {
                let time = DurationText.milliseconds(result.wallTime) / 1000
                counts.time += time
                var body = ""
                if let reason = result.skipReason {
                    counts.skipped += 1
                    body = "<skipped message=\"\(attribute(reason))\"/>"
                } else if let error = result.error, result.statusFailureBesideError == nil {
                    counts.errors += 1
                    let where_ = "\(location(result, suite)):\(result.mark.line):\(result.mark.column)"
                    let answer = responseSummary(result, redactor: redactor).map { "\n" + $0 } ?? ""
                    let checks = (result.failures.map { "\n\(location(result, suite)):\($0.mark.line):\($0.mark.column): \($0)" } + [result.notJudged.map { "\n" + $0.description }].compactMap { $0 }).joined()
                    body = "<error message=\"\(attribute(error.message))\" type=\"\(attribute(error.kind))\">\(attribute("\(where_): \(error.stage.map { "\($0): " } ?? "")\(error.message)\(checks)\(answer)"))</error>"
                } else if !result.failures.isEmpty {
                    // A failed status check beside a stage's refusal of the same response is the
                    // cause: it leads, and the refusal is among the details.
                    counts.failures += 1
                    let failures = result.statusFailureBesideError.map { status in [status] + result.failures.filter { $0 != status } } ?? result.failures
                    let refusal = result.error.map { "\(location(result, suite)):\(result.mark.line):\(result.mark.column): \($0.stage.map { "\($0): " } ?? "")\($0.message)" }
                    let details = (failures.map { "\(location(result, suite)):\($0.mark.line):\($0.mark.column): \($0)" } + [refusal, result.notJudged?.description, responseSummary(result, redactor: redactor)].compactMap { $0 })
                        .joined(separator: "\n")
                    body = "<failure message=\"\(attribute(failures[0].description))\" type=\"expectation\">\(attribute(details))</failure>"
                }
                let open = "    <testcase name=\"\(attribute(result.name))\" classname=\"\(attribute(suite.pipeline))\" time=\"\(seconds(time))\""
                cases.append(body.isEmpty ? open + "/>" : open + ">\n      " + body + "\n    </testcase>")
            }
            suitesXML.append(
                "  <testsuite name=\"\(attribute(suite.pipeline))\" tests=\"\(cases.count)\" failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\" time=\"\(seconds(counts.time))\" file=\"\(attribute(suite.file))\">\n"
                    + cases.map { $0 + "\n" }.joined() + "  </testsuite>"
            )
            totals.tests += cases.count
            totals.failures += counts.failures
            totals.errors += counts.errors
            totals.skipped += counts.skipped
            totals.time += counts.time
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="sluice" tests="\(totals.tests)" failures="\(totals.failures)" errors="\(totals.errors)" skipped="\(totals.skipped)" time="\(seconds(totals.time))">
            \(suitesXML.joined(separator: "\n"))
            </testsuites>

            """
    }

    /// The file a result's request is written in: its own, or the suite's.
    static func location(_ result: RequestResult, _ suite: Suite) -> String {
        result.file.isEmpty ? suite.file : result.file
    }

    /// `response: status 404, 1234 bytes`, then a `< NAME: VALUE` line per header (secrets
    /// redacted), for a result whose response arrived; `nil` when none did.
    static func responseSummary(_ result: RequestResult, redactor: Redactor) -> String? {
        guard let response = result.response else { return nil }
        return (["response: status \(response.status), \(result.size) bytes"]
            + response.headers.map { "< \($0.name): \(redactor.redact(header: $0.name, value: $0.value))" })
            .joined(separator: "\n")
    }

    /// Text safe inside an XML or HTML attribute or element: the five special characters
    /// escaped, characters XML 1.0 cannot hold dropped. JUnit and the HTML report both use it.
    package static func xmlEscaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\n": output += "&#10;"
            case "\t", "\r": output.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20 && !(0xFFFE...0xFFFF).contains(scalar.value) { output.unicodeScalars.append(scalar) }
            }
        }
        return output
    }

    private static func result(json result: RequestResult, redactor: Redactor) -> JSONValue {
        [
            "name": .string(result.name),
            "method": .string(result.method.rawValue),
            "url": .string(redactor.redact(result.url)),
            "status": result.status.map { .int($0) } ?? .null,
            "size": result.response.map { _ in .int(result.size) } ?? .null,
            "headers": result.response.map { response in
                .array(response.headers.map { [.string($0.name), .string(redactor.redact(header: $0.name, value: $0.value))] })
            } ?? .null,
            "duration-ms": .double(rounded(DurationText.milliseconds(result.duration))),
            "total-ms": .double(rounded(DurationText.milliseconds(result.wallTime))),
            "cache": result.cache.map { .string($0.rawValue) } ?? .null,
            "ok": .bool(result.ok),
            "file": .string(result.file),
            "line": .int(result.mark.line),
            "tags": .array(result.tags.map { .string($0) }),
            "skipped": result.skipReason.map { .string(redactor.redact($0)) } ?? .null,
            "attempts": .array(result.attempts.map { attempt in
                [
                    "attempt": .int(attempt.number),
                    "status": attempt.status.map { .int($0) } ?? .null,
                    "duration-ms": .double(rounded(DurationText.milliseconds(attempt.duration))),
                    "ok": .bool(attempt.ok),
                    "error": attempt.error.map { failure(json: $0, redactor: redactor) } ?? .null,
                    "failures": .array(attempt.failures.map { failure(json: $0, redactor: redactor) }),
                ]
            }),
            "error": result.error.map { failure(json: $0, redactor: redactor) } ?? .null,
            "failures": .array(result.failures.map { failure(json: $0, redactor: redactor) }),
            "not-judged": result.notJudged.map { notJudged in
                [
                    "reason": .string(notJudged.reason),
                    "checks": .array(notJudged.items.map { ["expectation": .string($0.label), "line": .int($0.mark.line), "column": .int($0.mark.column)] }),
                ]
            } ?? .null,
            "decoded": result.decoded.map { redacted($0, redactor) } ?? .null,
        ]
    }

    private static func failure(json failure: ExpectationFailure, redactor: Redactor) -> JSONValue {
        [
            "expectation": .string(failure.label),
            "line": .int(failure.mark.line),
            "column": .int(failure.mark.column),
            "expected": .string(redactor.redact(failure.expected)),
            "actual": .string(redactor.redact(failure.actual)),
        ]
    }

    private static func failure(json failure: RequestResult.Failure, redactor: Redactor) -> JSONValue {
        [
            "stage": failure.stage.map { .string($0) } ?? .null,
            "kind": .string(failure.kind),
            "message": .string(redactor.redact(failure.message)),
        ]
    }

    /// A value with the secrets in its strings replaced.
    static func redacted(_ value: JSONValue, _ redactor: Redactor) -> JSONValue {
        guard !redactor.secrets.isEmpty else { return value }
        switch value {
        case .string(let text): return .string(redactor.redact(text))
        case .array(let elements): return .array(elements.map { redacted($0, redactor) })
        case .object(let object): return .object(JSONObject(object.map { (redactor.redact($0.key), redacted($0.value, redactor)) }))
        default: return value
        }
    }

    package static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
