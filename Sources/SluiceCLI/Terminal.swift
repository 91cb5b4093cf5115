import Foundation
import Synchronization
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// What the runner knows of where it writes: whether standard output and standard error are
/// terminals, and whether colour is wanted.
struct Terminal {
    /// Whether standard output gets colour: a terminal, no `--no-color`, no `NO_COLOR`.
    let colors: Bool

    init(noColor: Bool) {
        colors = !noColor && isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Whether standard error is a terminal, where a live progress bar can redraw itself.
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    func green(_ text: String) -> String { colors ? "\u{1B}[32m\(text)\u{1B}[0m" : text }
    func red(_ text: String) -> String { colors ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { colors ? "\u{1B}[1m\(text)\u{1B}[0m" : text }

    /// `text` with every control character (C0, DEL, C1) and every bidirectional override or
    /// isolate written as `\u{…}`, for text from elsewhere (another machine's result file) that
    /// must not move the cursor, retitle the window or reorder what follows it on a terminal.
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a write to standard output failed (its reader went away: `sluice run FILE | head -1`).
    /// What the run still has to say is dropped, and the process ends with curl's status for output
    /// not written, 23, unless a worse one is due (``SluiceCommand``).
    static var standardOutputFailed: Bool { outputFailure.load(ordering: .relaxed) != 0 }

    /// Why the write to standard output failed, in the system's words (`its reader went away`
    /// for a closed pipe, `No space left on device` for a full disk); `nil` while none has.
    static var standardOutputFailure: String? {
        let number = outputFailure.load(ordering: .relaxed)
        guard number != 0 else { return nil }
        return number == EPIPE ? "its reader went away" : String(cString: strerror(number))
    }

    /// The `errno` of the failed write to standard output; 0 while none has failed.
    private static let outputFailure = Atomic<Int32>(0)

    /// Writes `text` to standard output, or drops it once a write there has failed.
    static func write(_ text: String) {
        guard !standardOutputFailed else { return }
        if !writeAll(text, to: STDOUT_FILENO) {
            outputFailure.store(errno == 0 ? EIO : errno, ordering: .relaxed)
        }
    }

    /// Writes `text` to standard error; a standard error that cannot be written has nobody to tell.
    static func writeError(_ text: String) {
        _ = writeAll(text, to: STDERR_FILENO)
    }

    /// `write(2)` until every byte is written, through interruptions and short writes; false on
    /// any other error. `SIGPIPE` is ignored (``SluiceCommand``), so a reader gone is `EPIPE`.
    private static func writeAll(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
