import Foundation

/// The bounded buffer between a transfer that receives a body and the task that reads it.
///
/// The transfer offers each piece libcurl delivers (I/O thread); the reader takes pieces (any
/// task). When the reader falls behind and the buffer holds `capacity` bytes, an offer is refused:
/// the transfer then pauses receiving (libcurl keeps the piece and offers it again once resumed),
/// and the reader resumes it when it has drained the buffer to half. So however large the body,
/// at most `capacity` bytes and one piece wait in memory.
///
/// Either side can end the channel: the transfer with the body's end or its error, the reader by
/// abandoning it (it stopped reading, or its task was cancelled), which cancels the transfer.
package final class ResponseBodyChannel: @unchecked Sendable {
    /// What the transfer does when the reader asks: resume receiving, or cancel the exchange.
    package struct Producer: Sendable {
        var resume: @Sendable () -> Void
        var cancel: @Sendable () -> Void

        package init(resume: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
            self.resume = resume
            self.cancel = cancel
        }
    }

    private struct State {
        var pieces: [Data] = []
        var firstPiece = 0
        var buffered = 0
        /// Whether the last offer was refused, so the transfer waits for `resume`.
        var producerPaused = false
        var pauses = 0
        var received: Int64 = 0
        /// How the body ended, once it has; the reader sees it after the last piece.
        var end: Result<TransferMetrics?, SluiceError>?
        /// Whether the reader left; offers are then dropped.
        var abandoned = false
        /// Whether the reading task was cancelled: the transfer is, and a producer attached
        /// later is cancelled at once.
        var readerCancelled = false
        var waiter: UnsafeContinuation<Void, Never>?
        var producer: Producer?

        var hasPiece: Bool { firstPiece < pieces.count }
    }

    /// The most bytes the buffer holds before the transfer pauses.
    let capacity: Int
    private let state = Locked(State())

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    // MARK: The transfer's side (I/O thread)

    /// Connects the channel to its transfer. Until then an abandon cancels nothing.
    package func attach(_ producer: Producer) {
        let cancelNow = state.withLock { state -> Bool in
            if state.abandoned || state.readerCancelled { return true }
            guard state.end == nil else { return false }
            state.producer = producer
            return false
        }
        if cancelNow { producer.cancel() }
    }

    /// Takes a piece of the body; `false` when the buffer is full, and the transfer must pause
    /// and offer the same bytes again once resumed.
    package func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>?? in
            if state.abandoned { return .some(nil) }
            if state.buffered >= capacity {
                state.producerPaused = true
                state.pauses += 1
                return nil
            }
            if state.firstPiece > 64, state.firstPiece * 2 > state.pieces.count {
                state.pieces.removeFirst(state.firstPiece)
                state.firstPiece = 0
            }
            state.pieces.append(Data(bytes))
            state.buffered += bytes.count
            state.received += Int64(bytes.count)
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard let waiter else { return false }
        waiter?.resume()
        return true
    }

    /// Ends the body: the reader gets the pieces left, then `nil` or the error.
    package func finish(_ end: Result<TransferMetrics?, SluiceError>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            if state.end == nil { state.end = end }
            state.producer = nil
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    // MARK: The reader's side

    /// The next piece, `nil` at the end of the body; throws the transfer's error, or
    /// `.cancelled` when the reading task is cancelled (which cancels the transfer), once the
    /// pieces received before have been read.
    func next(url: URL?) async throws(SluiceError) -> Data? {
        while true {
            let (outcome, resume) = state.withLock { state -> (Result<Data?, SluiceError>?, (@Sendable () -> Void)?) in
                if state.hasPiece {
                    let piece = state.pieces[state.firstPiece]
                    state.pieces[state.firstPiece] = Data()
                    state.firstPiece += 1
                    state.buffered -= piece.count
                    var resume: (@Sendable () -> Void)?
                    if state.producerPaused, state.buffered <= capacity / 2 {
                        state.producerPaused = false
                        resume = state.producer?.resume
                    }
                    return (.success(piece), resume)
                }
                switch state.end {
                case .success?: return (.success(nil), nil)
                case .failure(let error)?: return (.failure(error), nil)
                case nil: return (nil, nil)
                }
            }
            resume?()
            if let outcome { return try outcome.get() }
            if Task.isCancelled {
                cancelTransfer(url: url)
                continue
            }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if state.hasPiece || state.end != nil { return true }
                        state.waiter = waiter
                        return false
                    }
                    if ready { waiter.resume() }
                }
            } onCancel: {
                cancelTransfer(url: url)
            }
        }
    }

    /// The reading task was cancelled: the transfer is cancelled, and the body ends with
    /// `.cancelled` after the pieces already received, which the reader still gets (a download
    /// keeps every byte that arrived before the cancel, however late its task runs).
    func cancelTransfer(url: URL?) {
        let (producer, waiter) = state.withLock { state -> (Producer?, UnsafeContinuation<Void, Never>?) in
            if state.end == nil { state.end = .failure(.cancelled(url: url, stage: "transport")) }
            state.readerCancelled = true
            defer {
                state.producer = nil
                state.waiter = nil
            }
            return (state.producer, state.waiter)
        }
        waiter?.resume()
        producer?.cancel()
    }

    /// The reader left: drops what is buffered, ends the body with `.cancelled` unless it had
    /// already ended, and cancels the transfer.
    func abandon(url: URL?) {
        let (producer, waiter) = state.withLock { state -> (Producer?, UnsafeContinuation<Void, Never>?) in
            guard !state.abandoned else { return (nil, nil) }
            state.abandoned = true
            state.pieces = []
            state.firstPiece = 0
            state.buffered = 0
            if state.end == nil {
                state.end = .failure(.cancelled(url: url, stage: "transport"))
            }
            defer { state.producer = nil; state.waiter = nil }
            return (state.producer, state.waiter)
        }
        waiter?.resume()
        producer?.cancel()
    }

    // MARK: Figures

    /// How many times the transfer paused because the reader fell behind.
    var pauses: Int { state.withLock { $0.pauses } }
    /// Body bytes taken from the transfer so far.
    var received: Int64 { state.withLock { $0.received } }
    /// The transfer's metrics once the body has ended.
    var finalMetrics: TransferMetrics? {
        state.withLock { state in
            if case .success(let metrics)? = state.end { return metrics }
            return nil
        }
    }
}
