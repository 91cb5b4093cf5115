/// One content coding's decompressor, driven a buffer at a time by ``ContentDecoder``.
protocol ContentDecompressor: AnyObject {
    /// Decodes what it can of `input` into `output`: how many bytes it took and gave. Taking and
    /// giving nothing means it needs more input (or, at the end of its stream, ignores what
    /// follows). Called with an empty `input` to flush output it still holds.
    func decompress(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int)

    /// Whether the input so far ends at the end of a whole stream (of its last member or frame),
    /// so that a body ending here is complete.
    var isAtEnd: Bool { get }
}
