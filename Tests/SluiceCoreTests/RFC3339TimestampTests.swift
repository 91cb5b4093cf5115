import Foundation
import Testing

@testable import SluiceCore

@Suite("RFC 3339 timestamps")
struct RFC3339TimestampTests {
    @Test("RFC 3339's own examples (section 5.8) read as GNU date reads them")
    func examples() {
        // Expected values from `date -u -d TEXT +%s.%N` (GNU coreutils 9.1). Before 1970 it prints
        // the whole seconds rounded down and the fraction after them: -1041337173.870000000 is
        // -1041337173 + 0.87.
        let examples: [(String, Double)] = [
            ("1985-04-12T23:20:50.52Z", 482_196_050.52),
            ("1996-12-19T16:39:57-08:00", 851_042_397),
            ("1990-12-31T23:59:59Z", 662_687_999),
            ("1937-01-01T12:00:27.87+00:20", -1_041_337_173 + 0.87),
        ]
        for (text, seconds) in examples {
            let date = RFC3339Timestamp.date(text)
            #expect(date.map { abs($0.timeIntervalSince1970 - seconds) < 1e-6 } == true, "\(text): \(String(describing: date?.timeIntervalSince1970))")
        }
        // The leap second examples: read as the next second.
        #expect(RFC3339Timestamp.date("1990-12-31T23:59:60Z")?.timeIntervalSince1970 == 662_688_000)
        #expect(RFC3339Timestamp.date("1990-12-31T15:59:60-08:00")?.timeIntervalSince1970 == 662_688_000)
        #expect(RFC3339Timestamp.date("2026-11-23t09:00:00z")?.timeIntervalSince1970 == 1_795_424_400)
    }

    @Test("written with microseconds in UTC, and read back to the microsecond")
    func roundTrip() {
        for seconds in [0, 1_795_424_400.123456, -1_041_337_173.87, 951_782_400.000001] {
            let text = RFC3339Timestamp.string(Date(timeIntervalSince1970: seconds))
            #expect(text.hasSuffix("Z") && text.count == 27, "\(text)")
            #expect(abs(RFC3339Timestamp.date(text)!.timeIntervalSince1970 - seconds) < 1e-6, "\(text)")
        }
        #expect(RFC3339Timestamp.string(Date(timeIntervalSince1970: 1_795_424_400.25)) == "2026-11-23T09:00:00.250000Z")
        // Dates RFC 3339 cannot write are written as the nearest it can, not a trap.
        #expect(RFC3339Timestamp.string(Date(timeIntervalSince1970: 1e20)) == "9999-12-31T23:59:59.999999Z")
        #expect(RFC3339Timestamp.string(.distantPast) == "0001-01-01T00:00:00.000000Z")
    }

    @Test("anything else is refused, not guessed")
    func refused() {
        for bad in ["", "2026-11-23", "2026-11-23T09:00:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-11-23T24:00:00Z",
                    "2026-11-23T09:00:00.Z", "2026-11-23T09:00:00+0100", "2026-11-23T09:00:00+24:00", "2026-11-23T09:00:00Z ",
                    "２026-11-23T09:00:00Z", "1795424400"] {
            #expect(RFC3339Timestamp.date(bad) == nil, "\(bad)")
        }
        #expect(RFC3339Timestamp.date("2024-02-29T00:00:00Z") != nil)
    }
}
