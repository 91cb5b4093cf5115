import Foundation
import Synchronization

/// A request body produced while it is sent: an `AsyncSequence` of byte pieces, pulled as libcurl
/// asks for them.
///
/// With a declared `length` the request carries `Content-Length` and the producer must give
/// exactly that many bytes; without one, HTTP/1.1 sends it with chunked transfer encoding (HTTP/2
/// frames it by itself). libcurl asks for the next bytes only when it can send them, so a
/// producer faster than the network waits, holding no more than one piece in the transport.
///
/// A stream is read once: it cannot be sent again (a redirect that keeps the body, a retry, a
/// second connection after a failed one), and such a second send fails with `.invalidRequest`.
///
/// ```swift
/// let body = RequestBodyStream(lines.map { Data($0.utf8) })
/// let response = try await manager.send(Request(method: .post, url: url, body: .stream(body)))
/// ```
public final class RequestBodyStream: Sendable, Equatable {
    /// The body's size in bytes, when it was declared.
    public let length: Int64?
    private let source: @Sendable () -> any RequestBodyPieces
    private let started = Atomic<Bool>(false)

    /// A body from any sequence of `Data` pieces.
    /// - Parameters:
    ///   - pieces: the body, piece by piece; empty pieces are skipped. An error it throws ends the
    ///     request with a `.transport` error that keeps it as `underlying`.
    ///   - length: the exact number of bytes `pieces` gives, sent as `Content-Length`; `nil` sends
    ///     the body chunked. A producer that gives fewer or more bytes fails the request.
    public init<Pieces: AsyncSequence & Sendable>(_ pieces: Pieces, length: Int64? = nil) where Pieces.Element == Data {
        self.length = length
        source = { IteratorPieces(iterator: pieces.makeAsyncIterator()) }
    }

    /// A body from any sequence of byte arrays (`[UInt8]`, `ArraySlice<UInt8>`, ...).
    public convenience init<Pieces: AsyncSequence & Sendable>(bytes pieces: Pieces, length: Int64? = nil)
    where Pieces.Element: Collection & Sendable, Pieces.Element.Element == UInt8 {
        self.init(pieces.map { Data($0) }, length: length)
    }

    /// The pieces, for the one transfer that sends the body; `nil` once taken (the body was sent
    /// already, and cannot be sent again). A transport pulls them as it can send them.
    public func take() -> (any RequestBodyPieces)? {
        let (first, _) = started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        return first ? source() : nil
    }

    /// Streams are equal only to themselves.
    public static func == (lhs: RequestBodyStream, rhs: RequestBodyStream) -> Bool {
        lhs === rhs
    }
}

/// The pieces of a streamed body, pulled one at a time by the one task that sends them.
public protocol RequestBodyPieces: AnyObject, Sendable {
    /// The next piece, `nil` at the end.
    func next() async throws -> Data?
}

/// The pieces of any `AsyncSequence`. Only the sending task calls `next`, one call at a time,
/// which is what makes holding the (non-Sendable) iterator safe.
private final class IteratorPieces<Iterator: AsyncIteratorProtocol>: RequestBodyPieces, @unchecked Sendable where Iterator.Element == Data {
    private var iterator: Iterator

    init(iterator: Iterator) {
        self.iterator = iterator
    }

    func next() async throws -> Data? {
        try await iterator.next()
    }
}
