import Foundation

extension RequestBody {
    /// How many bytes the body sends: memory as it is, files by their size on disk, a stream its
    /// declared length; 0 for no body, and for a stream of unknown length. A file that cannot be
    /// read counts as 0.
    public var byteCount: Int64 {
        if case .stream(let stream) = self { return stream.length ?? 0 }
        // The URL only names the request in errors, which this discards.
        return (try? UploadSource(self, url: URL(fileURLWithPath: "/")))?.size ?? 0
    }

    /// Hands the body's bytes to `consume` in order, in pieces of at most 64 KiB, reading files
    /// from disk as it goes and never whole: for a stage that hashes or signs a body.
    /// - Parameters:
    ///   - url: the request's URL, named in errors.
    ///   - consume: called with each piece, in order.
    /// - Throws: `.fileIO` when a body file cannot be read, `.invalidRequest` for a streamed body
    ///   (its bytes exist only while it is sent: a stage that signs one would otherwise sign an
    ///   empty body), and what `consume` throws.
    public func forEachChunk(url: URL, _ consume: (Data) throws -> Void) throws {
        if case .stream = self {
            throw SluiceError(
                kind: .invalidRequest, url: url,
                message: "a streamed request body cannot be read before it is sent, so it cannot be hashed or signed; send it from memory or a file, or sign without the payload (aws-sigv4's unsigned-payload)"
            )
        }
        guard let source = try UploadSource(self, url: url) else { return }
        var buffer = Data(count: 64 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            guard count > 0 else { return }
            try consume(count == buffer.count ? buffer : buffer.prefix(count))
        }
    }
}
