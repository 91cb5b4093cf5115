import Foundation
import Sluice
import Synchronization

/// Ctrl-C, `kill` or a closed terminal (SIGINT, SIGTERM, SIGHUP) during `sluice send` or a run.
///
/// - `sluice send` and a run of checks: the staging files of outputs not yet in place are
///   removed (the files the user named stay as they were, as the "Files you name" article
///   promises), then the process ends by the same signal, with the status a shell reads as that
///   signal's (130 for Ctrl-C), as curl ends.
/// - A load run takes the first signal as wrk, hey and k6 take Ctrl-C, and as k6 takes SIGTERM
///   (what Slurm's `scancel` and a time limit, and Kubernetes deleting a pod, send): no more
///   requests start, those in flight end, and the figures are printed and the reports written
///   for what was sent, marked as stopped (``stoppingSignal``); the process then exits with 128
///   and the signal's number. A second signal ends it at once, as above.
///
/// The handler only reads and sets flags and writes a fixed line or the signal's number to a pipe
/// (what a handler may do); a thread of its own reads the pipe, removes the files, which takes a
/// lock, and sends the process the signal again with its default action. A signal the process
/// was started with ignored (`nohup`, a shell's background job) stays ignored.
enum Interruption {
    /// The pipe's end the handler writes to; -1 before ``install(stopsLoadFirst:)``.
    private static let signalled = Atomic<Int32>(-1)
    /// Whether the first signal stops a load run rather than ending the process.
    private static let stopsLoadFirst = Atomic<Bool>(false)
    /// The first signal of a load run; 0 before it.
    private static let stopping = Atomic<Int32>(0)

    /// The signal that stopped the load run, `nil` while none has.
    static var stoppingSignal: Int32? {
        let number = stopping.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// How a report names a signal: `Ctrl-C` for SIGINT, else its name.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "Ctrl-C"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }

    /// Takes SIGINT, SIGTERM and SIGHUP from here on. Called once, before any output is opened.
    /// - Parameter stopsLoadFirst: whether this is a load run, which the first signal stops.
    static func install(stopsLoadFirst: Bool) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        let (reading, writing) = (ends[0], ends[1])
        signalled.store(writing, ordering: .relaxed)
        Interruption.stopsLoadFirst.store(stopsLoadFirst, ordering: .relaxed)
        Thread.detachNewThread {
            var number: UInt8 = 0
            while read(reading, &number, 1) != 1 {}
            OutputFile.removeUnfinishedStagingFiles()
            signal(Int32(number), SIG_DFL)
            // To the process, not this thread, which may block it.
            kill(getpid(), Int32(number))
        }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(number) { Interruption.handle($0) }
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number, SIG_IGN)
            }
        }
    }

    /// The handler: async-signal-safe calls only.
    private static func handle(_ number: Int32) {
        if stopsLoadFirst.load(ordering: .relaxed) {
            if stopping.compareExchange(expected: 0, desired: number, ordering: .relaxed).exchanged {
                let line: StaticString = "\nsluice: stopping: no more requests start, those in flight end (Ctrl-C again to quit at once)\n"
                _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
                return
            }
            let line: StaticString = "\nsluice: interrupted again: quitting\n"
            _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
        }
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(signalled.load(ordering: .relaxed), &byte, 1)
    }
}
