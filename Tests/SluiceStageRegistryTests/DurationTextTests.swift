import Foundation
import Testing
import SluiceStageRegistry

/// Durations as pipeline files and `--duration` write them, against Go's own `ParseDuration`
/// tables (the grammar k6 and Prometheus users type), less the signs Sluice refuses.
@Suite("Duration text")
struct DurationTextTests {
    struct Case: Decodable {
        let `in`: String
        let nanoseconds: String
    }

    struct Cases: Decodable {
        let parse: [Case]
        let errors: [String]
        let roundTrip: [Case]

        enum CodingKeys: String, CodingKey {
            case parse, errors
            case roundTrip = "round-trip"
        }
    }

    static let cases: Cases = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/go-parse-duration/cases.json")
        return try! JSONDecoder().decode(Cases.self, from: Data(contentsOf: url))
    }()

    /// Whether a case writes a sign, which Sluice refuses.
    static func isSigned(_ text: String) -> Bool {
        text.first == "-" || text.first == "+"
    }

    @Test("Go's table is read whole: 43 durations, 21 refusals, 2 round trips")
    func suiteIsWhole() {
        #expect(Self.cases.parse.count == 43 && Self.cases.errors.count == 21 && Self.cases.roundTrip.count == 2)
    }

    @Test("every duration of Go's table without a sign reads as Go reads it, to the nanosecond; every signed one is refused")
    func goParseTable() throws {
        for entry in Self.cases.parse + Self.cases.roundTrip {
            let parsed = DurationText.parse(entry.in)
            if Self.isSigned(entry.in) {
                #expect(parsed == nil, "\(entry.in)")
            } else {
                #expect(parsed == .nanoseconds(try #require(Int64(entry.nanoseconds))), "\(entry.in)")
            }
        }
        #expect(Self.cases.parse.filter { !Self.isSigned($0.in) }.count == 33)
    }

    @Test("every text Go refuses is refused")
    func goErrorTable() {
        for text in Self.cases.errors {
            #expect(DurationText.parse(text) == nil, "\(text)")
        }
    }

    @Test("what users type: k6's and wrk's durations, and what stays refused with the reason")
    func userForms() {
        #expect(DurationText.parse("1h30m") == .seconds(5400))
        #expect(DurationText.parse("2m30s") == .seconds(150))
        #expect(DurationText.parse("1.5m") == .seconds(90))
        // A bare number is no duration (wrk reads `-d 2` as seconds, curl's --max-time too;
        // Hurl's --delay as milliseconds): refused rather than guessed; `0` alone is zero.
        #expect(DurationText.parse("2") == nil && DurationText.parse("0") == .zero)
        // Two halves of the limit, each allowed alone: their sum is refused, not wrapped around.
        for bad in ["1 s", "1s ", " 1s", "1e3s", "1S", "1sec", "1d", "1h-30m", "soon", "s1", "1..5s",
                    "9223372036854775808ns9223372036854775808ns", "9223372036854775807ns1ns", "2562048h2562048h"] {
            #expect(DurationText.parse(bad) == nil, "\(bad)")
        }
    }
}
