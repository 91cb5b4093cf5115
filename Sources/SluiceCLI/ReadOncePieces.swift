import Dispatch
import Foundation

/// Standard input as a streamed body (`-T -`), read on a thread of its own so that no executor
/// thread ever blocks on a terminal or a pipe, and never more than one piece ahead of the
/// transfer: the reader waits until the piece before it was taken.
struct StandardInputPieces: AsyncSequence, Sendable {
    typealias Element = Data

    /// The most bytes one read takes.
    static let pieceSize = 64 * 1024

    struct Iterator: AsyncIteratorProtocol {
        var pieces: AsyncStream<Data>.Iterator
        let taken: DispatchSemaphore

        mutating func next() async -> Data? {
            let piece = await pieces.next()
            // The reader may read the next piece now.
            taken.signal()
            return piece
        }
    }

    func makeAsyncIterator() -> Iterator {
        let taken = DispatchSemaphore(value: 0)
        let stream = AsyncStream<Data> { continuation in
            let reader = Thread {
                var buffer = [UInt8](repeating: 0, count: StandardInputPieces.pieceSize)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
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
