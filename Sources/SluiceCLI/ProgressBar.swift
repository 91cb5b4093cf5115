import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// The live progress line of the load mode, redrawn on standard error about ten times a second:
/// `[#########.........]  4500/10000  12s, 8s left  rate 2250/s  p99 3.1 ms  errors 0  dropped 0`,
/// as k6 shows elapsed and remaining time (remaining by --duration, or estimated from the rate
/// for a count).
///
/// The rate is the last second's, not the average since the start, so a stall shows as it
/// happens; p99 is the response time's over the run so far.
struct ProgressBar {
    /// How many requests the run sends, when a count bounds it.
    let total: Int?
    /// How long the run lasts, when a duration bounds it.
    let duration: Duration?
    let progress: LoadRun.Progress

    /// Redraws until cancelled, then clears the line.
    func show() async {
        var samples: [(time: ContinuousClock.Instant, done: Int)] = []
        while !Task.isCancelled {
            let now = ContinuousClock.now
            samples.append((now, progress.done))
            // The last second's samples, and the one before them to measure from.
            if let recent = samples.lastIndex(where: { now - $0.time > .seconds(1) }) { samples.removeFirst(recent) }
            draw(now: now, samples: samples)
            try? await Task.sleep(for: .milliseconds(100))
        }
        Terminal.writeError("\r\u{1B}[2K")
    }

    private func draw(now: ContinuousClock.Instant, samples: [(time: ContinuousClock.Instant, done: Int)]) {
        guard let start = progress.start, now >= start else {
            // Before the start: waiting for --start-at's time, or still connecting the pipeline up.
            Terminal.writeError("\r\u{1B}[2K" + (progress.start == nil ? "starting" : "waiting for the start time (--start-at)"))
            return
        }
        let done = progress.done
        let width = 30
        let elapsed = now - start
        var fraction = 0.0
        if let total, total > 0 { fraction = Double(done) / Double(total) }
        if let duration, duration > .zero { fraction = max(fraction, DurationText.milliseconds(elapsed) / DurationText.milliseconds(duration)) }
        let filled = min(width, Int(fraction * Double(width)))
        var rate = 0.0
        if let first = samples.first, let last = samples.last, last.time > first.time {
            rate = Double(last.done - first.done) / (DurationText.milliseconds(last.time - first.time) / 1000)
        }
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let count = total.map { "\(done)/\($0)" } ?? "\(done)"
        let p99 = progress.p99.formatted(.number.precision(.fractionLength(1)).grouping(.never))
        let seconds = Int(DurationText.milliseconds(elapsed) / 1000)
        var left: Int?
        if let duration, duration > .zero { left = max(0, Int((DurationText.milliseconds(duration - elapsed) / 1000).rounded(.up))) }
        if let total, rate > 0 { left = min(left ?? .max, Int((Double(max(0, total - done)) / rate).rounded(.up))) }
        let time = "\(seconds)s" + (left.map { ", \($0)s left" } ?? "")
        var line = "\r\u{1B}[2K[\(bar)]  \(count)  \(time)  rate \(Int(rate))/s  p99 \(p99) ms  errors \(progress.errors)"
        if progress.dropped > 0 { line += "  dropped \(progress.dropped)" }
        Terminal.writeError(line)
    }
}
