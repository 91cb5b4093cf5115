import CZlib

/// zlib's inflate for the `gzip` and `deflate` codings.
///
/// `gzip` takes several members one after another, as gunzip does; bytes after the last member
/// that start no new one are ignored, as browsers do. `deflate` is meant to be a zlib stream
/// (RFC 9110 section 8.4.1.2), but some servers send raw deflate: the first two bytes tell which,
/// as libcurl and Chromium decide, by whether they are a valid zlib header.
final class InflateDecompressor: ContentDecompressor {
    private let coding: ContentCoding
    private var stream = z_stream()
    /// Whether `stream` was initialised; a `deflate` stream waits for its first two bytes.
    private var started = false
    private var ended = false
    /// Whether bytes that start no gzip member followed the end: all that comes after is ignored.
    private var discarding = false
    private var tookInput = false

    init(_ coding: ContentCoding) {
        precondition(coding == .gzip || coding == .deflate)
        self.coding = coding
    }

    deinit {
        if started { inflateEnd(&stream) }
    }

    var isAtEnd: Bool { ended || !tookInput }

    func decompress(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
        if ended {
            // After a gzip member, another may follow; anything else is ignored, to the end.
            if discarding || coding != .gzip || input.isEmpty { return (input.count, 0) }
            // A lone 0x1f waits for the next byte: together they may start a member.
            if input.count == 1, input[0] == 0x1f { return (0, 0) }
            guard input[0] == 0x1f, input.count > 1, input[1] == 0x8b else {
                discarding = true
                return (input.count, 0)
            }
            inflateReset(&stream)
            ended = false
        }
        if !input.isEmpty { tookInput = true }
        if !started {
            if input.isEmpty { return (0, 0) }
            try start(sniffing: input)
            guard started else { return (0, 0) }
        }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(output.count)
        let status = inflate(&stream, Z_NO_FLUSH)
        let consumed = input.count - Int(stream.avail_in)
        let produced = output.count - Int(stream.avail_out)
        stream.next_in = nil
        stream.next_out = nil
        switch status {
        case Z_OK, Z_BUF_ERROR:
            return (consumed, produced)
        case Z_STREAM_END:
            ended = true
            return (consumed, produced)
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            throw ContentDecodingError(coding: coding, reason: message)
        }
    }

    /// Initialises zlib for the coding: gzip's header, or for deflate, once two bytes have come,
    /// a zlib header if they are one (RFC 1950: method 8, the check bits right) and raw otherwise.
    private func start(sniffing input: UnsafeRawBufferPointer) throws(ContentDecodingError) {
        let windowBits: Int32
        switch coding {
        case .gzip:
            windowBits = 16 + MAX_WBITS
        default:
            guard input.count >= 2 else { return }
            let header = UInt16(input[0]) << 8 | UInt16(input[1])
            let isZlib = input[0] & 0x0f == 8 && input[0] >> 4 <= 7 && header % 31 == 0
            windowBits = isZlib ? MAX_WBITS : -MAX_WBITS
        }
        let status = inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            throw ContentDecodingError(coding: coding, reason: "zlib could not start (status \(status))")
        }
        started = true
    }
}
