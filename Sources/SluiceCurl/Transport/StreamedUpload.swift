import Foundation
import SluiceCore

/// A streamed request body on its way to libcurl: a task pulls the producer's pieces one at a
/// time into a one-piece slot, and libcurl's read callback (I/O thread) takes bytes from it.
///
/// When the slot is empty the read callback pauses sending (`CURL_READFUNC_PAUSE`); the pulling
/// task resumes it once it has put the next piece there. The task pulls the next piece only when
/// the slot is empty again, so a producer faster than the network waits in its own `next()`.
final class StreamedUpload: @unchecked Sendable {
    /// What a read from the slot gives.
    enum Read {
        /// Bytes copied into libcurl's buffer.
        case bytes(Int)
        /// Nothing yet: pause sending until `resumeSending` is called.
        case wait
        /// The body has ended, every byte sent.
        case end
        /// The producer failed, or gave more or fewer bytes than declared.
        case failed(SluiceError)
    }

    private struct State {
        var piece = Data()
        var offset = 0
        var ended = false
        var failure: SluiceError?
        /// Whether the read callback found the slot empty and paused sending.
        var readerWaiting = false
        var slotFree: UnsafeContinuation<Void, Never>?
        var sent: Int64 = 0
        var cancelled = false
        var resumeSending: (@Sendable () -> Void)?
    }

    /// The declared length, if any.
    let length: Int64?
    private let url: URL
    private let state = Locked(State())
    private var puller: Task<Void, Never>?

    /// Takes the body's pieces from `stream`, or fails with `.invalidRequest` when another
    /// transfer already took them.
    init(_ stream: RequestBodyStream, url: URL) throws(SluiceError) {
        guard let pieces = stream.take() else {
            throw SluiceError(
                kind: .invalidRequest, stage: "transport", url: url,
                message: "the request's streamed body was already sent once and cannot be sent again (a retry, or a redirect that keeps the body)"
            )
        }
        length = stream.length
        self.url = url
        puller = Task { [state, url] in
            await StreamedUpload.pull(pieces, into: state, url: url)
        }
    }

    deinit {
        puller?.cancel()
    }

    /// Starts pulling: `resumeSending` is called (on the pulling task) whenever a piece or the
    /// end arrives while the read callback waits.
    func start(resumeSending: @escaping @Sendable () -> Void) {
        state.withLock { $0.resumeSending = resumeSending }
    }

    /// Stops pulling, for a transfer that ended.
    func cancel() {
        let free = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.cancelled = true
            state.resumeSending = nil
            defer { state.slotFree = nil }
            return state.slotFree
        }
        free?.resume()
        puller?.cancel()
    }

    private static func pull(_ pieces: any RequestBodyPieces, into state: Locked<State>, url: URL) async {
        func deliver(_ change: (inout State) -> Void) {
            let resume = state.withLock { state -> (@Sendable () -> Void)? in
                change(&state)
                guard state.readerWaiting else { return nil }
                state.readerWaiting = false
                return state.resumeSending
            }
            resume?()
        }
        do {
            while let piece = try await pieces.next() {
                guard !piece.isEmpty else { continue }
                // Wait for the slot to be free, then fill it.
                await withUnsafeContinuation { (free: UnsafeContinuation<Void, Never>) in
                    let isFree = state.withLock { state -> Bool in
                        if state.cancelled || state.offset >= state.piece.count { return true }
                        state.slotFree = free
                        return false
                    }
                    if isFree { free.resume() }
                }
                if state.withLock({ $0.cancelled }) { return }
                deliver { state in
                    state.piece = piece
                    state.offset = 0
                }
            }
            deliver { $0.ended = true }
        } catch {
            deliver { state in
                state.failure = SluiceError(
                    kind: .transport, stage: "transport", url: url,
                    message: "the request body's producer failed: \(error)", underlying: error
                )
            }
        }
    }

    /// Copies the next bytes into libcurl's buffer (I/O thread).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        let (result, free) = state.withLock { state -> (Read, UnsafeContinuation<Void, Never>?) in
            if state.offset < state.piece.count {
                let count = min(buffer.count, state.piece.count - state.offset)
                state.piece.withUnsafeBytes { bytes in
                    buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + state.offset, byteCount: count)
                }
                state.offset += count
                state.sent += Int64(count)
                if let length, state.sent > length {
                    return (.failed(mismatch(sent: state.sent, length: length, more: true)), nil)
                }
                guard state.offset >= state.piece.count else { return (.bytes(count), nil) }
                state.piece = Data()
                state.offset = 0
                defer { state.slotFree = nil }
                return (.bytes(count), state.slotFree)
            }
            if let failure = state.failure { return (.failed(failure), nil) }
            if state.ended {
                if let length, state.sent < length {
                    return (.failed(mismatch(sent: state.sent, length: length, more: false)), nil)
                }
                return (.end, nil)
            }
            state.readerWaiting = true
            return (.wait, nil)
        }
        free?.resume()
        return result
    }

    /// Whether a body of declared length has given all of it: libcurl asks for no more bytes
    /// then, so the end of the stream is never read, and the body counts as sent here.
    var gaveDeclaredLength: Bool {
        guard let length else { return false }
        return state.withLock { $0.sent == length }
    }

    private func mismatch(sent: Int64, length: Int64, more: Bool) -> SluiceError {
        SluiceError(
            kind: .invalidRequest, stage: "transport", url: url,
            message: more
                ? "the streamed request body gave more than its declared length of \(length) bytes"
                : "the streamed request body ended after \(sent) of its declared \(length) bytes"
        )
    }
}
