import Foundation
import SluiceHurlFiles
import Testing

/// The parser never crashes or hangs: deterministic mutations of valid files, and large inputs.
struct HurlRobustnessTests {
    /// A fixed pseudo-random sequence (a 64-bit linear congruential generator with a constant seed),
    /// so that every run mutates the same way.
    struct MutationSequence {
        private var state: UInt64 = 0x5EED_1234_ABCD_0001

        mutating func next(below bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
    }

    static let fragments: [String] = [
        "{{", "}}", "\"", "`", "```", "\\", "[", "]", "#", "\n", "\r\n", " ", "\t", "HTTP 200\n", "HTTP/2 *\n",
        "[Asserts]\n", "[Captures]\n", "[Options]\n", "[Query]\n", "[Multipart]\n", "/", "base64,", "hex,", "file,",
        ";", "{", "<", "</a>", "<?", "\\u{", "\u{FEFF}", "not ", "== ", "nth ", "-", ":", "GET http://x\n",
        "jsonpath \"$.a\" ", "replace ", "newDate", "é", "👍🏽", "\u{0}", "variable: a=", "retry: ", "delay: 5",
        "```json\n", "```raw\n", "<!--", "<![CDATA[", "0.5e", "\\\"", "{{a ", "count ", "redact",
    ]

    static var corpus: [String] {
        HurlDocsExampleTests.filterExamples + HurlDocsExampleTests.requestExamples
            + HurlDocsExampleTests.responseExamples + [
                """
                POST http://localhost/{{path}}?a=b
                X-Name: {{name dateFormat "%Y"}}
                [Options]
                variable: n=1
                retry-interval: 100ms
                [Form]
                a: b
                HTTP/1.1 201
                [Captures]
                id: jsonpath "$.id" nth -1 redact
                [Asserts]
                jsonpath "$.a" not isEmpty
                body matches /a\\/b/
                ```json,escape
                {"a": "\\u{41}"}
                ```
                """
            ]
    }

    static func mutate(_ text: String, with sequence: inout MutationSequence) -> String {
        var scalars = Array(text.unicodeScalars)
        let operations = 1 + sequence.next(below: 4)
        for _ in 0..<operations {
            let position = sequence.next(below: scalars.count + 1)
            switch sequence.next(below: 5) {
            case 0:
                let length = min(sequence.next(below: 8) + 1, scalars.count - position)
                scalars.removeSubrange(position..<(position + length))
            case 1:
                let fragment = fragments[sequence.next(below: fragments.count)]
                scalars.insert(contentsOf: fragment.unicodeScalars, at: position)
            case 2:
                let length = min(sequence.next(below: 40), scalars.count - position)
                scalars.insert(contentsOf: scalars[position..<(position + length)], at: position)
            case 3:
                scalars.removeSubrange(position..<scalars.count)
            default:
                if position < scalars.count {
                    let other = sequence.next(below: scalars.count)
                    scalars.swapAt(position, other)
                }
            }
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    @Test func mutatedInputsNeverCrash() {
        var sequence = MutationSequence()
        let corpus = Self.corpus
        var parsed = 0
        var rejected = 0
        for index in 0..<4_000 {
            let text = Self.mutate(corpus[index % corpus.count], with: &sequence)
            do {
                _ = try HurlFile.parse(text)
                parsed += 1
            } catch {
                rejected += 1
                let lineCount = text.unicodeScalars.filter { $0 == "\n" }.count + 1
                #expect(error.line >= 1 && error.line <= lineCount + 1, "\(error) for \(text.debugDescription)")
                #expect(error.column >= 1, "\(error) for \(text.debugDescription)")
                #expect(error.message.hasPrefix("expected "), "\(error)")
            }
        }
        #expect(parsed + rejected == 4_000)
        #expect(parsed > 0)
        #expect(rejected > 0)
    }

    @Test func largeInputsParseInLinearTime() throws {
        let line = "jsonpath \"$.items[0].name\" split \",\" nth 0 == \"value {{x}}\" # check\n"
        let text = "GET http://localhost\nHTTP 200\n[Asserts]\n" + String(repeating: line, count: 20_000)
        let start = Date()
        let file = try HurlFile.parse(text)
        guard case .asserts(let asserts) = file.entries.first?.response?.sections.first?.content else {
            Issue.record("expected asserts")
            return
        }
        #expect(asserts.count == 20_000)
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test func pathologicalInputsAreRejectedQuickly() {
        let inputs = [
            String(repeating: "{", count: 100_000),
            "POST http://a\n" + String(repeating: "[", count: 100_000),
            "POST http://a\n" + String(repeating: "{\"a\":", count: 50_000),
            "GET http://a/" + String(repeating: "{{a ", count: 20_000),
            "GET http://a\n" + String(repeating: "x", count: 200_000),
            "GET http://a\nHTTP 200\n[Asserts]\n" + String(repeating: "body ", count: 50_000),
            "POST http://a\n```\n" + String(repeating: "``", count: 50_000),
            "POST http://a\n" + String(repeating: "<a>", count: 50_000),
            String(repeating: "\n", count: 100_000) + "GET",
            String(repeating: "# comment\r\n", count: 50_000),
        ]
        for input in inputs {
            let start = Date()
            _ = try? HurlFile.parse(input)
            #expect(Date().timeIntervalSince(start) < 30)
        }
    }
}
