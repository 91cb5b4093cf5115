import CZlib
import Foundation
import Histogram
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

@Suite("HdrHistogram's V2 compressed encoding: round trips, and hostile bytes refused")
struct HistogramEncodingTests {
    /// Latencies spread over every magnitude, from a fixed-seed generator (the same every run).
    static func sample(count: Int = 5000, seed: UInt64 = 7) -> Histogram<UInt64> {
        var histogram = LoadResult.emptyHistogram()
        var state = seed
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let magnitude = (state >> 59) % 33
            _ = histogram.record(min((state >> 20) % (1 << magnitude), LoadResult.longestMicroseconds))
        }
        return histogram
    }

    /// Every bucket's count, by the bucket's lowest value.
    static func buckets(_ histogram: Histogram<UInt64>) -> [UInt64: UInt64] {
        Dictionary(uniqueKeysWithValues: histogram.recordedValues().map { (histogram.lowestEquivalentForValue($0.value), UInt64($0.count)) })
    }

    @Test("what is written reads back bucket for bucket, with the same percentiles (p50 to max), min and max; an empty one too")
    func roundTrip() throws {
        for histogram in [Self.sample(), Self.sample(count: 1, seed: 3), LoadResult.emptyHistogram()] {
            let text = HistogramEncoding.string(histogram)
            #expect(text.hasPrefix("HISTF"), "the envelope's cookie 0x1c849314 is HISTF in base64")
            let read = try HistogramEncoding.histogram(text)
            #expect(read.totalCount == histogram.totalCount)
            #expect(Self.buckets(read) == Self.buckets(histogram))
            #expect(LoadResult.Latency(read) == LoadResult.Latency(histogram))
            #expect(read.max == histogram.max)
            #expect(read.minNonZero == histogram.minNonZero)
        }
    }

    @Test("the layout's index arithmetic is the library's: every bucket boundary maps to the library's own value")
    func layout() {
        let layout = HistogramEncoding.Layout(digits: 3)
        let histogram = LoadResult.emptyHistogram()
        for index in stride(from: 0, to: layout.index(of: LoadResult.longestMicroseconds), by: 7) {
            let value = layout.value(at: index)
            #expect(layout.index(of: value) == index)
            #expect(histogram.lowestEquivalentForValue(value) == value, "index \(index)")
            #expect(layout.index(of: histogram.highestEquivalentForValue(value)) == index)
        }
    }

    /// The base64 envelope around `encoding` (inner bytes, deflated here).
    static func envelope(_ encoding: [UInt8], cookie: UInt32 = HistogramEncoding.compressedCookie, lengthDelta: Int = 0) -> String {
        var length = compressBound(uLong(encoding.count))
        var deflated = [UInt8](repeating: 0, count: Int(length))
        _ = compress2(&deflated, &length, encoding, uLong(encoding.count), 6)
        deflated = Array(deflated.prefix(Int(length)))
        var bytes: [UInt8] = []
        withUnsafeBytes(of: cookie.bigEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt32(deflated.count + lengthDelta).bigEndian) { bytes += $0 }
        return Data(bytes + deflated).base64EncodedString()
    }

    /// An inner encoding with the given header fields and payload.
    static func encoding(digits: UInt32 = 3, lowest: UInt64 = 1, highest: UInt64 = 3_600_000_000, offset: UInt32 = 0, payload: [UInt8], payloadLength: Int? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        func add(_ value: some FixedWidthInteger) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
        add(HistogramEncoding.encodingCookie)
        add(UInt32(payloadLength ?? payload.count))
        add(offset)
        add(digits)
        add(lowest)
        add(highest)
        add((1.0).bitPattern)
        return bytes + payload
    }

    @Test("hostile or damaged encodings are typed errors, never a trap or a hang")
    func hostile() {
        let valid = HistogramEncoding.string(Self.sample())
        let bytes = [UInt8](Data(base64Encoded: valid)!)
        // ZigZag LEB128 of n is 2n for n ≥ 0 and 2|n| − 1 for n < 0.
        let cases: [(String, String)] = [
            ("not base64", "%%%"),
            ("empty", ""),
            ("truncated", Data(bytes.prefix(bytes.count - 3)).base64EncodedString()),
            ("not compressed", Data(bytes.prefix(8)).base64EncodedString()),
            ("wrong length", Self.envelope(Self.encoding(payload: [2]), lengthDelta: 1)),
            ("wrong cookie", Self.envelope(Self.encoding(payload: [2]), cookie: 0x1c84_9304)),
            ("damaged deflate", Data(bytes.prefix(12) + [UInt8](repeating: 0xFF, count: bytes.count - 12)).base64EncodedString()),
            ("another layout", Self.envelope(Self.encoding(digits: 2, payload: [2]))),
            ("a normalizing offset", Self.envelope(Self.encoding(offset: 4, payload: [2]))),
            ("a huge highest value", Self.envelope(Self.encoding(highest: .max, payload: [2]))),
            ("a payload length that lies", Self.envelope(Self.encoding(payload: [2, 2], payloadLength: 1))),
            ("a count past the highest value", Self.envelope(Self.encoding(highest: 2048, payload: [UInt8](repeating: 2, count: 3000)))),
            ("a run of zeros past the end", Self.envelope(Self.encoding(payload: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]))),
            ("counts adding up past 2^63", Self.envelope(Self.encoding(payload: [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))),
            ("a number cut short", Self.envelope(Self.encoding(payload: [0x80]))),
            // 20 MB of zero bytes (each a count of 0) deflate to about 20 KB: a decompression bomb.
            ("a decompression bomb", Self.envelope(Self.encoding(payload: [UInt8](repeating: 0, count: 20 << 20)))),
        ]
        for (name, text) in cases {
            #expect(throws: HistogramEncoding.Failure.self, "\(name)") { try HistogramEncoding.histogram(text) }
        }
    }
}
