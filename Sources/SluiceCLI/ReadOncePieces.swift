import Dispatch
import Foundation

/// A file that can be read once, streamed as a body as curl's `-T` streams one: standard input
/// (`-T -`), a FIFO, a device (`-T /dev/null`). Opened and read on a thread of its own, so that no
/// executor thread ever blocks on a terminal, a pipe or a FIFO waiting for its writer, and never
/// more than one piece ahead of the transfer: the reader waits until the piece before it was
/// taken.
struct ReadOncePieces: AsyncSequence, Sendable {
    typealias Element = Data

    /// The most bytes one read takes.
    static let pieceSize = 64 * 1024

    /// The file's path; `nil` for standard input.
    let path: String?

    /// A file that could not be opened or read, and the system's reason.
    struct ReadFailure: Error, CustomStringConvertible {
        let path: String
        let reason: String

        var description: String { "cannot read the upload file \(path): \(reason)" }
    }

    struct Iterator: AsyncIteratorProtocol {
        var pieces: AsyncThrowingStream<Data, any Error>.Iterator
        let taken: DispatchSemaphore

        mutating func next() async throws -> Data? {
            let piece = try await pieces.next()
            // The reader may read the next piece now.
            taken.signal()
            return piece
        }
    }

    func makeAsyncIterator() -> Iterator {
        let taken = DispatchSemaphore(value: 0)
        let stream = AsyncThrowingStream<Data, any Error> { [path] continuation in
            let reader = Thread {
                func failure(_ path: String) -> ReadFailure {
                    ReadFailure(path: path, reason: String(cString: strerror(errno)))
                }
                var descriptor = STDIN_FILENO
                if let path {
                    repeat {
                        descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
                    } while descriptor < 0 && errno == EINTR
                    guard descriptor >= 0 else { return continuation.finish(throwing: failure(path)) }
                }
                defer { if path != nil { close(descriptor) } }
                var buffer = [UInt8](repeating: 0, count: ReadOncePieces.pieceSize)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    if count < 0 { return continuation.finish(throwing: failure(path ?? "-")) }
                    guard count > 0 else { break }
                    guard case .enqueued = continuation.yield(Data(buffer[0..<count])) else { break }
                    taken.wait()
                }
                continuation.finish()
            }
            // A transfer that ends early lets a waiting reader go.
            continuation.onTermination = { _ in taken.signal() }
            reader.start()
        }
        return Iterator(pieces: stream.makeAsyncIterator(), taken: taken)
    }
}
