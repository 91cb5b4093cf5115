import Foundation

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

    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
