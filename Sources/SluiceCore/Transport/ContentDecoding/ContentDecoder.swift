import Foundation

/// Undoes a response's content codings, stacked in any order, a piece at a time.
///
/// The body's bytes go in with ``append(_:)`` as they arrive; ``next(upTo:)`` gives decoded
/// pieces of at most that many bytes, pulling each coding's input from the one applied after it,
/// so however far a piece inflates (a gzip bomb, a zstd frame of repeated bytes), no more than one
/// piece per coding waits in memory. ``finish()`` says whether the body ended where its codings
/// end: a body cut inside a stream is an error, never a shorter body passed off as whole.
package final class ContentDecoder {
    /// One coding's decompressor and the input it has not taken yet.
    private struct Layer {
        let coding: ContentCoding
        let decompressor: any ContentDecompressor
        var input: [UInt8] = []
        var inputStart = 0
        /// Whether the last call filled its output, so more may be waiting without new input.
        var mayHoldOutput = false

        var pendingInput: Int { input.count - inputStart }
    }

    /// The layers in decoding order: the coding applied last comes first.
    private var layers: [Layer]
    /// Where every layer decodes into, one at a time, before what it gave is copied out: a piece
    /// costs one copy of the bytes it holds, never a fresh zeroed buffer per call.
    private var scratch: UnsafeMutableRawBufferPointer

    /// The body as received, before any coding is undone, when the decoder was asked to keep it.
    package private(set) var received: Data?
    /// Why the body is refused before a byte is decoded: more codings than ``maximumCodings``.
    private let refusal: ContentDecodingError?

    /// The most codings a response may stack, as curl allows (its `MAX_ENCODE_STACK`): each layer
    /// holds a decompressor's state and a frame of the pull, so a head of a few kilobytes naming
    /// thousands would otherwise take hundreds of megabytes and the stack.
    package static let maximumCodings = 5

    /// The most bytes a layer hands the next one at a time.
    private static let pieceSize = 64 << 10

    /// A decoder for `codings` (in the order applied), `nil` when there is nothing to undo; with
    /// `keepingReceived`, the bytes appended are kept too, as ``received``.
    package init?(_ codings: [ContentCoding], keepingReceived: Bool = false) {
        guard !codings.isEmpty else { return nil }
        received = keepingReceived ? Data() : nil
        scratch = .allocate(byteCount: Self.pieceSize, alignment: 1)
        guard codings.count <= Self.maximumCodings else {
            refusal = ContentDecodingError(
                coding: codings[codings.count - 1], reason: "the response names \(codings.count) content codings, more than the \(Self.maximumCodings) undone (as curl)"
            )
            layers = []
            return
        }
        refusal = nil
        layers = codings.reversed().map { coding in
            switch coding {
            case .gzip, .deflate: Layer(coding: coding, decompressor: InflateDecompressor(coding))
            case .brotli: Layer(coding: coding, decompressor: BrotliDecompressor())
            case .zstd: Layer(coding: coding, decompressor: ZstdDecompressor())
            }
        }
    }

    deinit {
        scratch.deallocate()
    }

    /// A decoder for a response's `Content-Encoding` values; `nil` when they name no coding or one
    /// this transport does not know (the body then stays as it came).
    convenience init?(contentEncoding: [String]) {
        guard let codings = ContentCoding.codings(in: contentEncoding) else { return nil }
        self.init(codings)
    }

    /// Takes the next bytes of the body as received.
    package func append(_ bytes: UnsafeRawBufferPointer) {
        received?.append(contentsOf: bytes)
        guard refusal == nil else { return }
        layers[0].input.append(contentsOf: bytes)
    }

    /// The next decoded piece, at most `maxCount` bytes; `nil` when the bytes appended so far give
    /// no more.
    /// - Throws: the decoder's refusal of a body with too many codings, or the coding's error.
    package func next(upTo maxCount: Int = ContentDecoder.pieceSize) throws(ContentDecodingError) -> Data? {
        if let refusal { throw refusal }
        return try pull(layers.count - 1, upTo: maxCount)
    }

    /// Checks that the body, now ended, ended at the end of every coding's stream.
    package func finish() throws(ContentDecodingError) {
        if let refusal { throw refusal }
        for layer in layers where !layer.decompressor.isAtEnd {
            throw ContentDecodingError(coding: layer.coding, reason: "the body ended inside its \(layer.coding.token) stream (cut short, or damaged)")
        }
    }

    private func pull(_ index: Int, upTo maxCount: Int) throws(ContentDecodingError) -> Data? {
        if maxCount > scratch.count {
            scratch.deallocate()
            scratch = .allocate(byteCount: maxCount, alignment: 1)
        }
        while true {
            if layers[index].pendingInput > 0 || layers[index].mayHoldOutput {
                let (consumed, produced) = try decompress(index, upTo: maxCount)
                layers[index].inputStart += consumed
                if layers[index].inputStart == layers[index].input.count {
                    layers[index].input.removeAll(keepingCapacity: true)
                    layers[index].inputStart = 0
                }
                layers[index].mayHoldOutput = produced == maxCount
                if produced > 0 {
                    return Data(bytes: scratch.baseAddress!, count: produced)
                }
                if consumed > 0 { continue }
            }
            guard index > 0, let upstream = try pull(index - 1, upTo: Self.pieceSize) else { return nil }
            if layers[index].inputStart > 0 {
                layers[index].input.removeFirst(layers[index].inputStart)
                layers[index].inputStart = 0
            }
            layers[index].input.append(contentsOf: upstream)
        }
    }

    /// Runs layer `index` over its pending input into the first `maxCount` bytes of `scratch`.
    private func decompress(_ index: Int, upTo maxCount: Int) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
        let layer = layers[index]
        let output = UnsafeMutableRawBufferPointer(rebasing: scratch[..<maxCount])
        let outcome = layer.input.withUnsafeBytes { input in
            Result { () throws(ContentDecodingError) in
                try layer.decompressor.decompress(UnsafeRawBufferPointer(rebasing: input[layer.inputStart...]), into: output)
            }
        }
        return try outcome.get()
    }
}
