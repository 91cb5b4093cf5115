import Foundation
import Sluice
import Synchronization

/// Ctrl-C, `kill` or a closed terminal during `sluice send` or a run: the staging files of
/// outputs not yet in place are removed (the files the user named stay as they were, as the
/// "Files you name" article promises), then the process ends by the same signal, with the status
/// a shell reads as that signal's (130 for Ctrl-C), as curl ends.
///
/// The handler only writes the signal's number to a pipe (what a handler may do); a thread of
/// its own reads it, removes the files, which takes a lock, and sends the process the signal
/// again with its default action. A signal the process was started with ignored (`nohup`, a
/// shell's background job) stays ignored.
enum InterruptionCleanup {
    /// The pipe's end the handler writes to; -1 before ``install()``.
    private static let signalled = Atomic<Int32>(-1)

    /// Takes SIGINT, SIGTERM and SIGHUP from here on. Called once, before any output is opened.
    static func install() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        let (reading, writing) = (ends[0], ends[1])
        signalled.store(writing, ordering: .relaxed)
        Thread.detachNewThread {
            var number: UInt8 = 0
            while read(reading, &number, 1) != 1 {}
            OutputFile.removeUnfinishedStagingFiles()
            signal(Int32(number), SIG_DFL)
            // To the process, not this thread, which may block it.
            kill(getpid(), Int32(number))
        }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(number) { InterruptionCleanup.handle($0) }
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number, SIG_IGN)
            }
        }
    }

    /// The handler: async-signal-safe calls only.
    private static func handle(_ number: Int32) {
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(signalled.load(ordering: .relaxed), &byte, 1)
    }
}
