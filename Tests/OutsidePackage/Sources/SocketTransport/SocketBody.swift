import Foundation
import SluiceCore

/// A response body read off the connection as its head frames it: `Content-Length`, chunked, or
/// up to the end of the connection; none for a `HEAD`, a 204 or a 304.
final class SocketBody: @unchecked Sendable {
    private enum Framing { case none, length(Int64), chunked, untilClose }

    private let connection: SocketConnection
    private var framing: Framing
    private var chunkLeft: Int64 = 0
    private var ended = false
    /// Body bytes read so far.
    private(set) var received: Int64 = 0
    /// The body's size when the head declares it.
    let expected: Int64?

    init(connection: SocketConnection, headers: HTTPHeaders, method: HTTPMethod) {
        self.connection = connection
        if method == .head {
            framing = .none
        } else if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            framing = .chunked
        } else if let length = headers["Content-Length"].flatMap({ Int64($0) }) {
            framing = .length(length)
        } else {
            framing = .untilClose
        }
        if case .length(let length) = framing { expected = length } else { expected = nil }
    }

    /// The next piece, `nil` at the end of the body.
    func next() throws(SocketError) -> Data? {
        guard !ended else { return nil }
        let piece: Data
        switch framing {
        case .none:
            piece = Data()
        case .length(let length):
            guard received < length else { piece = Data(); break }
            piece = try connection.bytes(upTo: Int(min(length - received, 65_536)))
            if piece.isEmpty { throw SocketError(kind: .connectionLost, message: "the body ended after \(received) of \(length) bytes") }
        case .untilClose:
            piece = try connection.bytes(upTo: 65_536)
        case .chunked:
            if chunkLeft == 0 {
                guard let line = try connection.line(), let size = Int64(line.split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16) else {
                    throw SocketError(kind: .protocolError, message: "a chunk size line is missing or wrong")
                }
                if size == 0 {
                    while let trailer = try connection.line(), !trailer.isEmpty {}
                    piece = Data()
                    break
                }
                chunkLeft = size
            }
            piece = try connection.bytes(upTo: Int(min(chunkLeft, 65_536)))
            if piece.isEmpty { throw SocketError(kind: .connectionLost, message: "the body ended inside a chunk") }
            chunkLeft -= Int64(piece.count)
            if chunkLeft == 0 { _ = try connection.line() }
        }
        if piece.isEmpty {
            ended = true
            return nil
        }
        received += Int64(piece.count)
        return piece
    }
}
