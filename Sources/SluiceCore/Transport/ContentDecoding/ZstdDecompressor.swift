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
    /// Whether a frame's start waits for the rest of its header.
    private var waitingForHeader = false
    /// The content size the current frame's header declares, `nil` when it declares none.
    private var declaredSize: UInt64?
    /// Bytes the current frame has decoded to so far.
    private var frameDecoded: UInt64 = 0

    init() {
        // Creating a decoder fails only when memory does.
        context = ZSTD_createDCtx()!
        ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Self.windowLogMax)
    }

    deinit {
        ZSTD_freeDCtx(context)
    }

    var isAtEnd: Bool { atFrameEnd && !waitingForHeader }

    func decompress(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
        if atFrameEnd, !input.isEmpty {
            guard let headerSize = try Self.headerSize(of: input) else {
                waitingForHeader = true
                return (0, 0)
            }
            waitingForHeader = false
            let size = headerSize > 0 ? ZSTD_getFrameContentSize(input.baseAddress, headerSize) : UInt64.max
            // UInt64.max and one less are libzstd's "unknown" and "error": no size to hold it to.
            declaredSize = size >= UInt64.max - 1 ? nil : size
            frameDecoded = 0
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
        frameDecoded += UInt64(destination.pos)
        if source.pos > 0 || destination.pos > 0 {
            atFrameEnd = result == 0
            // libzstd 1.5.4 checks the declared size when a frame comes whole, not when it comes
            // in pieces (found by fuzzing): a frame must never decode to less than it declares.
            if atFrameEnd, let declaredSize, frameDecoded != declaredSize {
                throw ContentDecodingError(
                    coding: .zstd,
                    reason: "a frame's header declares \(declaredSize) bytes of content, and its blocks hold \(frameDecoded)"
                )
            }
        }
        return (source.pos, destination.pos)
    }

    /// The size of the frame header `input` starts with (RFC 8878 section 3.1.1.1), 0 for a
    /// skippable frame (which declares no content); `nil` when too few bytes have come to tell.
    /// Throws when the bytes start no Zstandard frame.
    private static func headerSize(of input: UnsafeRawBufferPointer) throws(ContentDecodingError) -> Int? {
        guard input.count >= 4 else { return nil }
        let magic = UInt32(input[0]) | UInt32(input[1]) << 8 | UInt32(input[2]) << 16 | UInt32(input[3]) << 24
        if magic & UInt32(ZSTD_MAGIC_SKIPPABLE_MASK) == UInt32(ZSTD_MAGIC_SKIPPABLE_START) { return 0 }
        guard magic == UInt32(ZSTD_MAGICNUMBER) else {
            throw ContentDecodingError(coding: .zstd, reason: "the data is not a Zstandard frame (RFC 8878): it starts 0x\(String(magic, radix: 16))")
        }
        guard input.count >= 5 else { return nil }
        let descriptor = input[4]
        let singleSegment = descriptor & 0x20 != 0
        let dictionaryIDSize = [0, 1, 2, 4][Int(descriptor & 0x03)]
        let contentSizeSize = [singleSegment ? 1 : 0, 2, 4, 8][Int(descriptor >> 6)]
        let size = 5 + (singleSegment ? 0 : 1) + dictionaryIDSize + contentSizeSize
        return input.count >= size ? size : nil
    }
}
