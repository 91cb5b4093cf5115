import CZstd

/// The Zstandard decoder (RFC 8878) for the `zstd` coding: frames one after another are one
/// body, and a frame whose window passes 8 MiB is refused, as RFC 9659 lets an HTTP recipient do
/// (so a server cannot make the client hold a window of up to 2 GiB per response).
final class ZstdDecompressor: ContentDecompressor {
    /// log2 of the largest window taken: 8 MiB (RFC 9659 section 3).
    static let windowLogMax: Int32 = 23

    private let context: OpaquePointer
    /// Whether the input so far ends at a frame's end (zstd's "0 bytes left to flush").
    private var atFrameEnd = true

    init() {
        // Creating a decoder fails only when memory does.
        context = ZSTD_createDCtx()!
        ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Self.windowLogMax)
    }

    deinit {
        ZSTD_freeDCtx(context)
    }

    var isAtEnd: Bool { atFrameEnd }

    func decompress(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
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
