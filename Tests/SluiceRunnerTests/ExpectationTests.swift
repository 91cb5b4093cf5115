import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner

@Suite("Expectations and captures against responses")
struct ExpectationTests {
    private static let body: JSONValue = [
        "name": "widget", "price": 9.5, "count": 3, "tags": ["a", "b"], "owner": nil,
        "items": [["id": 1, "tags": ["x"]], ["id": 2, "tags": ["y", "z"]]],
    ]

    /// The failures of a request's `expect:` given as YAML, against `body` and a 200 JSON response.
    private func failures(_ expect: String, duration: Duration = .milliseconds(5), headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]) throws -> [ExpectationFailure] {
        let file = try PipelineFile.load(text: "requests:\n  - path: http://h/\n    expect:\n" + expect, path: "p.yaml", environment: [:])
        let response = Response(status: 200, headers: headers, decoded: .json(ExpectationTests.body))
        return file.spec.requests[0].expectations.compactMap {
            $0.evaluate(response: response, body: response.jsonBody, duration: duration, scope: file.scope)
        }
    }

    @Test("every body operator, met and not met", arguments: [
        ("$.name: widget", true), ("$.name: gadget", false),
        ("$.price: 9.5", true), ("$.count: 3.0", true), ("$.tags: [a, b]", true), ("$.tags: [b, a]", false),
        ("$.owner: null", true), ("$.missing: 1", false),
        ("$.name: {not: gadget}", true), ("$.name: {not: widget}", false),
        ("$.name: {contains: idg}", true), ("$.tags: {contains: b}", true), ("$: {contains: price}", true), ("$.tags: {contains: c}", false),
        ("$.name: {matches: '^w.d'}", true), ("$.name: {matches: '^x'}", false), ("$.count: {matches: '3'}", false),
        ("$.name: {exists: true}", true), ("$.missing: {exists: false}", true), ("$.name: {exists: false}", false),
        ("$.price: {lt: 10}", true), ("$.price: {le: 9.5}", true), ("$.price: {gt: 9.5}", false), ("$.count: {ge: 3}", true),
        ("$.name: {lt: 3}", false),
        ("$.count: {type: integer}", true), ("$.count: {type: number}", true), ("$.price: {type: integer}", false),
        ("$.tags: {type: array}", true), ("$: {type: object}", true), ("$.owner: {type: null}", true), ("$.name: {type: string}", true),
        ("$.tags: {count: 2}", true), ("$.name: {count: 6}", true), ("$: {count: 6}", true), ("$.items[*].id: {count: 2}", true),
        ("$..tags[*]: {count: 5}", true), ("$.tags: {count: 3}", false),
        ("$.items[-1].id: 2", true), ("$.items[*].id: [1, 2]", true), ("$..id: [1, 2]", true), ("\"$['name']\": widget", true),
        ("$.price: {gt: 9, lt: 10}", true), ("$.price: {gt: 9, lt: 9.2}", false),
    ])
    func operators(predicate: String, met: Bool) throws {
        let found = try failures("      body:\n        \(predicate)\n")
        #expect(found.isEmpty == met, "\(found)")
    }

    @Test("a failure says what was expected, what was found, and where it is written")
    func failureText() throws {
        let found = try failures("      status: 2xx\n      body:\n        $.price: {lt: 5}\n        $.missing: 1\n")
        #expect(found.map(\.description) == [
            "body $.price lt: expected < 5, actual 9.5",
            "body $.missing: expected 1, actual nothing at $.missing",
        ])
        #expect(found[0].mark == YAMLNode.Mark(line: 6, column: 19))
    }

    @Test("status takes codes, lists and classes; headers take values and /regex/; max-duration limits time")
    func statusHeadersDuration() throws {
        #expect(try failures("      status: 200\n").isEmpty)
        #expect(try failures("      status: [201, 2xx]\n").isEmpty)
        #expect(try failures("      status: 404\n").map(\.description) == ["status: expected 404, actual 200"])
        #expect(try failures("      headers: {content-type: 'application/json; charset=utf-8'}\n").isEmpty)
        #expect(try failures("      headers: {Content-Type: '/^application\\/json/'}\n").isEmpty)
        #expect(try failures("      headers: {Content-Type: '/xml/'}\n").count == 1)
        #expect(try failures("      headers: {X-Nope: a}\n").map(\.actual) == ["no X-Nope header"])
        #expect(try failures("      max-duration: 10ms\n").isEmpty)
        #expect(try failures("      max-duration: 10ms\n", duration: .milliseconds(11)).map(\.description) == ["max-duration: expected at most 10 ms, actual 11 ms"])
    }

    @Test("captures take a JSONPath (every value with its JSON type), a header, or a regex group (strings)")
    func captures() throws {
        let file = try PipelineFile.load(text: """
            requests:
              - path: http://h/
                capture:
                  name: $.name
                  tags: $.tags
                  count: $.count
                  etag: { header: ETag }
                  word: { regex: "w(id)get" }
                  whole: { regex: "gad" }
                  none: $.missing
            """, path: "p.yaml", environment: [:])
        let response = Response(status: 200, headers: ["ETag": "\"v1\""], body: Data(#"{"name":"widget","gadget":1}"#.utf8), decoded: .json(ExpectationTests.body))
        let values = try file.spec.requests[0].captures.map { try $0.value(from: response, body: response.jsonBody) }
        #expect(values == ["widget", ["a", "b"], 3, "\"v1\"", "id", "gad", nil])
        #expect(values.map { $0.map(VariableScope.text(of:)) } == ["widget", #"["a","b"]"#, "3", "\"v1\"", "id", "gad", nil], "the text ${NAME} renders")
    }

    @Test("without a decoding stage the body is read as JSON when it is JSON")
    func undecodedJSON() {
        #expect(Response(status: 200, body: Data(#"{"a":[1]}"#.utf8)).jsonBody == ["a": [1]])
        #expect(Response(status: 200, body: Data("<html>".utf8)).jsonBody == nil)
    }

    @Test("durations: ms, us, s, m, h; anything else is refused")
    func durations() {
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("1.5s") == .milliseconds(1500))
        #expect(DurationText.parse("2m") == .seconds(120))
        #expect(DurationText.parse("250us") == .microseconds(250))
        #expect(DurationText.parse("1h") == .seconds(3600))
        for bad in ["", "s", "5", "-1s", "1 s", "1e3s", "soon", "99999999999999h"] {
            #expect(DurationText.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("a duration is written as pipeline files write it (how sluice stages shows a default), and reads back the same")
    func durationText() {
        #expect(DurationText.string(.seconds(60)) == "60s" && DurationText.string(.milliseconds(200)) == "200ms" && DurationText.string(.microseconds(1500)) == "1.5ms")
        #expect(DurationText.string(.nanoseconds(1)) == "1ns" && DurationText.string(.microseconds(999)) == "999us")
        for duration: Duration in [.seconds(1), .milliseconds(250), .microseconds(1500), .seconds(3600), .nanoseconds(1), .microseconds(999), .nanoseconds(999_999)] {
            #expect(DurationText.parse(DurationText.string(duration)) == duration)
        }
    }
}
