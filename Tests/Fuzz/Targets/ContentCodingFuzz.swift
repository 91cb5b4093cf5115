import Foundation
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad
import Sluice

/// Response bodies in each content coding from a hostile server, in pieces of every size: the
/// decoders never crash, never give a piece over the size asked for, and what they give (or,
/// but for zstd, that they refuse) does not depend on where the pieces break. The first byte picks the codings (one,
/// or two stacked) and the piece size; the rest is the body.
enum ContentCodingFuzz {
    static let codings: [[ContentCoding]] = [
        [.gzip], [.deflate], [.brotli], [.zstd], [.gzip, .brotli], [.deflate, .zstd],
    ]
    /// Decoded bytes a run stops at: a few hundred input bytes can inflate to gigabytes.
    static let outputCap = 4 << 20

    static func run(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let codings = codings[Int(first) % codings.count]
        let body = Array(input.dropFirst())
        let pieceSize = Int(first) / Self.codings.count % 5 + 1
        let whole = decode(body, codings, pieceSize: max(1, body.count))
        let pieces = decode(body, codings, pieceSize: pieceSize)
        switch (whole, pieces) {
        case (.success(let a?), .success(let b?)):
            require(a == b, "pieces of \(pieceSize) bytes decoded \(b.count) bytes, the whole body \(a.count)")
        case (.failure, .failure), (.success(nil), _), (_, .success(nil)):
            break
        case _ where codings.contains(.zstd):
            // libzstd does not promise to catch every corruption, and its one-pass path (a whole
            // frame at hand) checks less than its streaming one (facebook/zstd#3151): with zstd,
            // damaged bytes may be refused in one reading and not the other, never decoded apart.
            break
        default:
            require(false, "in pieces of \(pieceSize) bytes the body was \(pieces) and whole \(whole)")
        }
    }

    /// The body decoded in pieces of `pieceSize`; `nil` when it passed ``outputCap``.
    static func decode(_ body: [UInt8], _ codings: [ContentCoding], pieceSize: Int) -> Result<Data?, ContentDecodingError> {
        guard let decoder = ContentDecoder(codings) else { return .success(Data(body)) }
        var output = Data()
        var start = 0
        do {
            while start < body.count {
                let end = min(body.count, start + pieceSize)
                body[start..<end].withUnsafeBytes { decoder.append($0) }
                start = end
                while let piece = try decoder.next(upTo: 1000) {
                    require(!piece.isEmpty && piece.count <= 1000, "a piece of \(piece.count) bytes")
                    output += piece
                    if output.count > outputCap { return .success(nil) }
                }
            }
            try decoder.finish()
            return .success(output)
        } catch {
            return .failure(error)
        }
    }
}
