import Foundation
import Synchronization

/// A response body delivered as libcurl receives it: an `AsyncSequence` of byte pieces.
///
/// A request whose destination is ``ResponseDestination/stream(bufferSize:)`` gets its response
/// as soon as the head has arrived, with the body here (`Response.bodyStream`) instead of in
/// `Response.body`. Reading is paced by the reader: when it falls `bufferSize` bytes behind, the
/// transfer pauses receiving (`CURLPAUSE_RECV`, which stops reading the socket, so TCP or HTTP/2
/// flow control slows the server) and resumes once the reader has drained half of that. Memory
/// stays flat whatever the body's size.
///
/// The body can be read once. The exchange ends early, its connection closed, when the reader
/// stops: it breaks out of its loop, its task is cancelled, or the response is dropped unread
/// (a stage that throws a streamed response away, such as a redirect, does that). A failure
/// after the head (the connection lost, a timeout, ``Request/maxResponseSize`` passed) is thrown
/// by the iteration, as a ``SluiceError``.
///
/// ```swift
/// let response = try await manager.stream(request)
/// for try await piece in response.bodyStream! {
///     consume(piece)
/// }
/// ```
public final class ResponseBodyStream: AsyncSequence, Sendable {
    /// A piece of the body, as libcurl delivered it, after content decoding (a decoded piece is at
    /// most 64 KiB, however far the bytes received inflate).
    public typealias Element = Data
    /// What the iteration throws.
    public typealias Failure = SluiceError

    let channel: ResponseBodyChannel
    private let url: URL?
    private let iterated = Atomic<Bool>(false)
    /// What moves the bytes, kept alive while the body is read: a transport whose last reference
    /// goes shuts down, ending every exchange.
    private let transport: (any Transport)?
    /// The content codings the reader undoes, in the order applied; the channel holds the bytes
    /// as they came, so its buffer bounds them, and each piece read is decoded as it is taken.
    private let codings: [ContentCoding]
    /// The most decoded bytes taken (`Request.maxResponseSize`), when the body is decoded here.
    private let maxDecodedSize: Int64?

    package init(
        channel: ResponseBodyChannel, url: URL?, transport: (any Transport)? = nil,
        decoding codings: [ContentCoding] = [], maxDecodedSize: Int64? = nil
    ) {
        self.channel = channel
        self.url = url
        self.transport = transport
        self.codings = codings
        self.maxDecodedSize = maxDecodedSize
    }

    /// A stream over bytes already in memory, already ended: what a stage returns for a streamed
    /// request it answered itself (from a cache, say).
    public convenience init(_ body: Data, url: URL? = nil) {
        let channel = ResponseBodyChannel(capacity: Swift.max(1, body.count))
        if !body.isEmpty {
            _ = body.withUnsafeBytes { channel.offer($0) }
        }
        channel.finish(Result<TransferMetrics?, SluiceError>.success(nil))
        self.init(channel: channel, url: url)
    }

    deinit {
        if !iterated.load(ordering: .acquiring) {
            channel.abandon(url: url)
        }
    }

    /// The iterator; a second one throws `.invalidRequest`, since the pieces are gone.
    public func makeAsyncIterator() -> Iterator {
        let (first, _) = iterated.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        return Iterator(
            reader: first ? Reader(channel: channel, url: url, transport: transport) : nil, url: url,
            decoder: ContentDecoder(codings), maxDecodedSize: maxDecodedSize
        )
    }

    /// Reads the whole rest of the body into memory, up to `limit` bytes.
    /// - Throws: `.responseTooLarge` past `limit` (the transfer is then cancelled), or what the
    ///   iteration throws.
    public func collect(upTo limit: Int) async throws(SluiceError) -> Data {
        var body = Data()
        var iterator = makeAsyncIterator()
        while let piece = try await iterator.next() {
            guard body.count + piece.count <= limit else {
                throw SluiceError.responseTooLarge(limit: Int64(limit), url: url)
            }
            body.append(piece)
        }
        return body
    }

    /// How many times the transfer paused because the reader fell behind.
    public var pauses: Int { channel.pauses }
    /// Body bytes received so far.
    public var bytesReceived: Int64 { channel.received }
    /// How the whole exchange went, once the body has ended without error; `nil` before.
    public var finalMetrics: TransferMetrics? { channel.finalMetrics }

    /// Reads the pieces in order. Dropping it before the end cancels the exchange.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let reader: Reader?
        fileprivate let url: URL?
        fileprivate let decoder: ContentDecoder?
        fileprivate let maxDecodedSize: Int64?
        fileprivate var decodedBytes: Int64 = 0

        /// The next piece, or `nil` at the end of the body.
        public mutating func next() async throws(SluiceError) -> Data? {
            guard let reader else {
                throw SluiceError(kind: .invalidRequest, url: url, message: "a streamed response body can be read only once")
            }
            guard let decoder else { return try await reader.channel.next(url: url) }
            while true {
                if let piece = try decoding(reader, { () throws(ContentDecodingError) in try decoder.next() }) {
                    decodedBytes += Int64(piece.count)
                    if let maxDecodedSize, decodedBytes > maxDecodedSize {
                        reader.channel.abandon(url: url)
                        throw SluiceError.responseTooLarge(limit: maxDecodedSize, url: url)
                    }
                    return piece
                }
                guard let received = try await reader.channel.next(url: url) else {
                    try decoding(reader, decoder.finish)
                    return nil
                }
                received.withUnsafeBytes { decoder.append($0) }
            }
        }

        /// Runs a step of the decoder; a body it cannot decode ends the exchange.
        private func decoding<T>(_ reader: Reader, _ step: () throws(ContentDecodingError) -> T) throws(SluiceError) -> T {
            do {
                return try step()
            } catch {
                reader.channel.abandon(url: url)
                throw SluiceError.undecodableBody(error, url: url)
            }
        }
    }

    /// The one reader of a body: when the iterator holding it goes, unfinished, the transfer stops.
    fileprivate final class Reader: Sendable {
        let channel: ResponseBodyChannel
        let url: URL?
        let transport: (any Transport)?

        init(channel: ResponseBodyChannel, url: URL?, transport: (any Transport)?) {
            self.channel = channel
            self.url = url
            self.transport = transport
        }

        deinit {
            channel.abandon(url: url)
        }
    }
}
