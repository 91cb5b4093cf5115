import CZstd

/// The Zstandard decoder (RFC 8878) for the `zstd` coding: frames one after another are one
/// body, and a frame whose window passes 8 MiB is refused, as RFC 9659 lets an HTTP recipient do
/// (so a server cannot make the client hold a window of up to 2 GiB per response). Each frame
/// must start with RFC 8878's magic number (or a skippable frame's): the legacy formats of zstd
/// before 1.0, which Debian's libzstd also reads, are not the `zstd` coding, and fuzzing found
/// libzstd reading them differently depending on where the input breaks.
final class ZstdDecompressor: ContentDecompressor {
    /// log2 of the largest window taken: 8 MiB (RFC 9659 section 3).
    static let windowLogMax: Int32 = 23

    private let context: OpaquePointer
    /// Whether the input so far ends at a frame's end (zstd's "0 bytes left to flush").
    private var atFrameEnd = true
    /// Whether fewer bytes than a magic number wait at a frame's start.
    private var waitingForMagic = false

    init() {
        // Creating a decoder fails only when memory does.
        context = ZSTD_createDCtx()!
        ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Self.windowLogMax)
    }

    deinit {
        ZSTD_freeDCtx(context)
    }

    var isAtEnd: Bool { atFrameEnd && !waitingForMagic }

    func decompress(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
        if atFrameEnd, !input.isEmpty {
            guard input.count >= 4 else {
                waitingForMagic = true
                return (0, 0)
            }
            waitingForMagic = false
            let magic = UInt32(input[0]) | UInt32(input[1]) << 8 | UInt32(input[2]) << 16 | UInt32(input[3]) << 24
            guard magic == UInt32(ZSTD_MAGICNUMBER) || magic & UInt32(ZSTD_MAGIC_SKIPPABLE_MASK) == UInt32(ZSTD_MAGIC_SKIPPABLE_START) else {
                throw ContentDecodingError(coding: .zstd, reason: "the data is not a Zstandard frame (RFC 8878): it starts 0x\(String(magic, radix: 16))")
            }
        }
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var destination = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let result = ZSTD_decompressStream(context, &destination, &source)
        if ZSTD_isError(result) != 0 {
            var reason = String(cString: ZSTD_getErrorName(result))
            if ZSTD_getErrorCode(result) == ZSTD_error_frameParameter_windowTooLarge {
                reason += " (the frame's window passes the 8 MiB RFC 9659 sets for HTTP)"
            }
            throw ContentDecodingError(coding: .zstd, reason: reason)
        }
        if source.pos > 0 || destination.pos > 0 { atFrameEnd = result == 0 }
        return (source.pos, destination.pos)
    }
}
