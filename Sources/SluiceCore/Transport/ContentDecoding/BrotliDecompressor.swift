import CBrotli

/// The Brotli decoder (RFC 7932) for the `br` coding. Bytes after the stream's end are ignored.
final class BrotliDecompressor: ContentDecompressor {
    private let state: OpaquePointer
    private var ended = false
    private var tookInput = false

    init() {
        // Creating a decoder fails only when memory does.
        state = BrotliDecoderCreateInstance(nil, nil, nil)!
    }

    deinit {
        BrotliDecoderDestroyInstance(state)
    }

    var isAtEnd: Bool { ended || !tookInput }

    func decompress(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
        if ended { return (input.count, 0) }
        if !input.isEmpty { tookInput = true }
        var availableIn = input.count
        var nextIn = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var availableOut = output.count
        var nextOut = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
        let consumed = input.count - availableIn
        let produced = output.count - availableOut
        switch result {
        case BROTLI_DECODER_RESULT_SUCCESS:
            ended = true
            return (consumed, produced)
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT, BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
            return (consumed, produced)
        default:
            let code = BrotliDecoderGetErrorCode(state)
            throw ContentDecodingError(coding: .brotli, reason: "the data is damaged (Brotli decoder error \(String(cString: BrotliDecoderErrorString(code))))")
        }
    }
}
