import Foundation
import Sluice

/// The live progress bar of the load mode, redrawn on standard error about ten times a second:
/// `[#########.........]  4500/10000  rps 2250  errors 0`.
struct ProgressBar {
    let total: Int
    let progress: LoadRun.Progress

    /// Redraws until cancelled, then clears the line.
    func show() async {
        while !Task.isCancelled {
            draw()
            try? await Task.sleep(for: .milliseconds(100))
        }
        Terminal.writeError("\r\u{1B}[2K")
    }

    private func draw() {
        let done = progress.done
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : 0
        let seconds = DurationText.milliseconds(ContinuousClock.now - progress.start) / 1000
        let rps = seconds > 0 ? Double(done) / seconds : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        Terminal.writeError("\r\u{1B}[2K[\(bar)]  \(done)/\(total)  rps \(Int(rps))  errors \(progress.errors)")
    }
}
