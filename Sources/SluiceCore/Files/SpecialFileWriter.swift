#if canImport(Glibc)
import Glibc
#endif

/// Writes to a device, a FIFO or a terminal opened without blocking: what cannot go at once waits
/// until the other side takes it, checking every 100 ms whether the task was cancelled, so a
/// reader that stops reading holds up this task alone and never the thread for good. A reader
/// that went away is `EPIPE`, never a `SIGPIPE` that would end the process.
struct SpecialFileWriter {
    let descriptor: Int32

    /// Whether the Swift task running this code, if any, was cancelled.
    static var isTaskCancelled: Bool {
        withUnsafeCurrentTask { $0?.isCancelled ?? false }
    }

    /// Writes every byte.
    /// - Parameter failure: the error for a system error code (`ECANCELED` for a cancelled task).
    func write(_ bytes: UnsafeRawBufferPointer, failure: (Int32) -> SluiceError) throws(SluiceError) {
        var written = 0
        while written < bytes.count {
            let count = writeWithoutSignal(bytes.baseAddress! + written, bytes.count - written)
            if count > 0 {
                written += count
                continue
            }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN:
                try waitUntilWritable(failure: failure)
            default:
                throw failure(code)
            }
        }
    }

    private func waitUntilWritable(failure: (Int32) -> SluiceError) throws(SluiceError) {
        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            if SpecialFileWriter.isTaskCancelled { throw failure(ECANCELED) }
            let count = poll(&ready, 1, 100)
            if count > 0 { return }
            if count < 0, errno != EINTR { throw failure(errno) }
        }
    }

    /// `write(2)` with `SIGPIPE` held back on this thread: a write to a pipe whose reader is gone
    /// then fails with `EPIPE`, and the signal it raised is taken from the thread's pending set
    /// before the mask is restored, unless one was pending already.
    private func writeWithoutSignal(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        let result = Glibc.write(descriptor, bytes, count)
        let code = errno
        if result < 0, code == EPIPE, !wasPending {
            var noWait = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &noWait)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        errno = code
        return result
    }
}
