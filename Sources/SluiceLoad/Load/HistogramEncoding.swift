import CZlib
import Foundation
internal import Histogram
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

/// HdrHistogram's own interchange form, the "V2 compressed" encoding in base64, as
/// HdrHistogram's Java, C, Go and Python libraries write and read it (and its log files, the
/// `.hlog` format, carry it): histograms written here can be read by those tools, and theirs here.
///
/// The bytes, all big-endian:
/// - a compressed envelope: cookie `0x1c849314`, the length of what follows, then that length of
///   zlib (RFC 1950) deflated bytes holding
/// - the encoding: cookie `0x1c849313`, the payload's length, the normalizing index offset (0), the
///   significant digits, the lowest discernible value and the highest trackable value (64 bits
///   each), the integer-to-double ratio (an IEEE double, 1.0), then
/// - the payload: the counts array from index 0 to the index of the largest value recorded, each
///   count a ZigZag LEB128 number (at most nine bytes, the ninth holding eight bits), a run of two
///   or more empty counts written as their number negated.
///
/// Reading is hostile-input safe: every length and index is checked, the inflated size is capped,
/// and a layout other than the one load results use (lowest 1, three significant digits) is a
/// typed error rather than a trap in the histogram library.
enum HistogramEncoding {
    /// Why bytes are not a histogram.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let encodingCookie: UInt32 = 0x1c84_9313
    static let compressedCookie: UInt32 = 0x1c84_9314
    /// The most inflated bytes read: far above the ~230 KB the widest histogram of an hour takes.
    static let maximumPayload = 16 << 20

    /// The base64 text of `histogram`.
    static func string(_ histogram: Histogram<UInt64>) -> String {
        let layout = Layout(digits: Int(histogram.numberOfSignificantValueDigits.rawValue))
        var payload: [UInt8] = []
        if histogram.totalCount > 0 {
            let limit = layout.index(of: histogram.maxRecorded) + 1
            var index = 0
            while index < limit {
                let count = histogram.countForValue(layout.value(at: index))
                index += 1
                if count == 0 {
                    var zeros: Int64 = 1
                    while index < limit, histogram.countForValue(layout.value(at: index)) == 0 {
                        zeros += 1
                        index += 1
                    }
                    appendZigZag(zeros > 1 ? -zeros : 0, to: &payload)
                } else {
                    appendZigZag(Int64(clamping: count), to: &payload)
                }
            }
        }
        var encoding: [UInt8] = []
        append(encodingCookie, to: &encoding)
        append(UInt32(payload.count), to: &encoding)
        append(UInt32(0), to: &encoding)
        append(UInt32(histogram.numberOfSignificantValueDigits.rawValue), to: &encoding)
        append(histogram.lowestDiscernibleValue, to: &encoding)
        append(histogram.highestTrackableValue, to: &encoding)
        append((1.0).bitPattern, to: &encoding)
        encoding += payload
        let deflated = deflate(encoding)
        var envelope: [UInt8] = []
        append(compressedCookie, to: &envelope)
        append(UInt32(deflated.count), to: &envelope)
        envelope += deflated
        return Data(envelope).base64EncodedString()
    }

    /// The histogram `text` encodes.
    static func histogram(_ text: String) throws(Failure) -> Histogram<UInt64> {
        guard let data = Data(base64Encoded: text) else { throw Failure(description: "not base64") }
        var envelope = Reader(bytes: [UInt8](data))
        let cookie = try envelope.uint32()
        guard cookie == compressedCookie else {
            throw Failure(description: "not a V2 compressed HdrHistogram (cookie 0x\(String(cookie, radix: 16)), expected 0x\(String(compressedCookie, radix: 16)))")
        }
        let length = Int(try envelope.uint32())
        guard length == envelope.remaining else {
            throw Failure(description: "the compressed length says \(length) bytes, but \(envelope.remaining) follow")
        }
        var encoding = Reader(bytes: try inflate(envelope.rest()))
        guard try encoding.uint32() == encodingCookie else { throw Failure(description: "the inflated bytes are not a V2 HdrHistogram encoding") }
        let payloadLength = Int(try encoding.uint32())
        let offset = try encoding.uint32()
        let digits = Int(try encoding.uint32())
        let lowest = try encoding.uint64()
        let highest = try encoding.uint64()
        let ratio = Double(bitPattern: try encoding.uint64())
        guard offset == 0 else { throw Failure(description: "a normalizing index offset (\(offset)) is not supported") }
        guard digits == 3, lowest == 1 else {
            throw Failure(description: "the layout is \(digits) significant digits from \(lowest); load results use 3 from 1")
        }
        guard highest >= 2, highest <= 1 << 62 else { throw Failure(description: "the highest trackable value \(highest) is out of range") }
        guard ratio == 1 else { throw Failure(description: "an integer-to-double ratio of \(ratio) is not supported") }
        guard payloadLength == encoding.remaining else {
            throw Failure(description: "the payload length says \(payloadLength) bytes, but \(encoding.remaining) follow")
        }
        var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: highest, numberOfSignificantValueDigits: .three)
        let layout = Layout(digits: 3)
        let limit = layout.index(of: highest) + 1
        var index = 0
        var total: UInt64 = 0
        while encoding.remaining > 0 {
            let count = try encoding.zigZag()
            if count < 0 {
                guard count != .min, index <= limit - Int(-count) else { throw Failure(description: "a run of empty counts goes past the highest trackable value") }
                index += Int(-count)
                continue
            }
            guard index < limit else { throw Failure(description: "a count at index \(index), past the highest trackable value") }
            if count > 0 {
                let (sum, overflow) = total.addingReportingOverflow(UInt64(count))
                guard !overflow, sum <= UInt64(Int64.max) else { throw Failure(description: "the counts add up to more than 2^63") }
                total = sum
                guard histogram.record(layout.value(at: index), count: UInt64(count)) else {
                    throw Failure(description: "a count at index \(index), past the highest trackable value")
                }
            }
            index += 1
        }
        return histogram
    }

    /// HdrHistogram's mapping between values and indexes of its counts array, for a lowest
    /// discernible value of 1 (the same in every HdrHistogram implementation; the Swift library
    /// keeps its own internal).
    struct Layout {
        let subBucketHalfCountMagnitude: Int
        let subBucketHalfCount: Int
        let subBucketMask: UInt64
        let leadingZeroCountBase: Int

        init(digits: Int) {
            var largestSingleUnit = 2
            for _ in 0..<digits { largestSingleUnit *= 10 }
            let subBucketCountMagnitude = Int.bitWidth - (largestSingleUnit - 1).leadingZeroBitCount
            subBucketHalfCountMagnitude = max(subBucketCountMagnitude, 1) - 1
            subBucketHalfCount = 1 << subBucketHalfCountMagnitude
            subBucketMask = UInt64((1 << subBucketCountMagnitude) - 1)
            leadingZeroCountBase = 64 - subBucketCountMagnitude
        }

        /// The counts array index of `value`.
        func index(of value: UInt64) -> Int {
            let bucket = leadingZeroCountBase - (value | subBucketMask).leadingZeroBitCount
            let subBucket = Int(value >> UInt64(bucket))
            return ((bucket + 1) << subBucketHalfCountMagnitude) + subBucket - subBucketHalfCount
        }

        /// The lowest value counted at `index`.
        func value(at index: Int) -> UInt64 {
            var bucket = (index >> subBucketHalfCountMagnitude) - 1
            var subBucket = (index & (subBucketHalfCount - 1)) + subBucketHalfCount
            if bucket < 0 {
                subBucket -= subBucketHalfCount
                bucket = 0
            }
            return UInt64(subBucket) << UInt64(bucket)
        }
    }

    /// Reads big-endian numbers and ZigZag LEB128 counts, refusing to read past the end.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var remaining: Int { bytes.count - position }

        mutating func byte() throws(Failure) -> UInt8 {
            guard position < bytes.count else { throw Failure(description: "the bytes end early") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func uint32() throws(Failure) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
            return value
        }

        mutating func uint64() throws(Failure) -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
            return value
        }

        /// HdrHistogram's ZigZag LEB128: seven bits a byte for eight bytes, then all eight.
        mutating func zigZag() throws(Failure) -> Int64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                if shift == 56 {
                    value |= UInt64(next) << 56
                    break
                }
                value |= UInt64(next & 0x7F) << shift
                if next & 0x80 == 0 { break }
                shift += 7
            }
            return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }

        func rest() -> ArraySlice<UInt8> { bytes[position...] }
    }

    private static func appendZigZag(_ value: Int64, to bytes: inout [UInt8]) {
        var encoded = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        for _ in 0..<8 {
            if encoded < 0x80 {
                bytes.append(UInt8(encoded))
                return
            }
            bytes.append(UInt8(encoded & 0x7F) | 0x80)
            encoded >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: encoded))
    }

    private static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    /// zlib's deflate of `bytes`, with the zlib header (as Java's `Deflater` writes).
    private static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, uLong(bytes.count), Z_DEFAULT_COMPRESSION) }
        }
        precondition(status == Z_OK, "compress2 cannot fail with a buffer of compressBound's size")
        return Array(output.prefix(Int(length)))
    }

    /// zlib's inflate of `bytes`, refusing more than ``maximumPayload`` bytes out.
    private static func inflate(_ bytes: ArraySlice<UInt8>) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        var input = Array(bytes)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let status: Int32 = input.withUnsafeMutableBufferPointer { input in
            stream.next_in = input.baseAddress
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                output += chunk.prefix(produced)
                if status != Z_OK || output.count > maximumPayload { return status }
                if produced == 0 && stream.avail_in == 0 { return Z_BUF_ERROR }
            }
        }
        guard output.count <= maximumPayload else { throw Failure(description: "inflates to more than \(maximumPayload) bytes") }
        guard status == Z_STREAM_END else { throw Failure(description: "the deflated bytes are damaged (zlib status \(status))") }
        guard stream.avail_in == 0 else { throw Failure(description: "bytes follow the end of the deflated stream") }
        return output
    }
}
