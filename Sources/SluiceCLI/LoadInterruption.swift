import Foundation
import Synchronization

/// Ctrl-C during a load run, as wrk, hey and k6 take it: the first stops the run from starting
/// requests and lets those in flight end, so that its figures are printed and its reports written
/// for what it sent; a second quits at once. Either way the exit status is 130.
///
/// The signal handler only sets a flag and writes a fixed line (what a handler may do); the run
/// polls the flag. A process started with SIGINT ignored (`nohup`, a shell's background job) keeps
/// it ignored.
enum LoadInterruption {
    /// Whether SIGINT came.
    private static let interrupted = Atomic<Bool>(false)

    /// Whether the run was interrupted.
    static var isInterrupted: Bool { interrupted.load(ordering: .relaxed) }

    /// Takes SIGINT from here on, unless it was ignored when the process started.
    static func install() {
        _ = isInterrupted  // The flag's storage is made here, never in the handler.
        let previous = signal(SIGINT) { _ in LoadInterruption.signalled() }
        if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
            signal(SIGINT, SIG_IGN)
        }
    }

    /// The handler: async-signal-safe calls only.
    private static func signalled() {
        if interrupted.exchange(true, ordering: .relaxed) {
            let line: StaticString = "\nsluice: interrupted again: quitting\n"
            _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
            _exit(130)
        }
        let line: StaticString = "\nsluice: stopping: no more requests start, those in flight end (Ctrl-C again to quit at once)\n"
        _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
    }
}
