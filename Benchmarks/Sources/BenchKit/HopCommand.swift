import ArgumentParser
import Foundation
import Sluice

/// `sluice-bench hop`: what handing work to libcurl's I/O thread and back costs on this machine,
/// with no request at all. A caller on the global executor that awaits `send` pays this round
/// trip once a request on top of the exchange; a caller already on the I/O thread does not.
///
/// Three loops, one round trip at a time, each timed as the median of its rounds:
/// - `global`: from a task on the global executor, a child task that prefers the I/O thread, and
///   its value awaited: the two thread switches of `send` from ordinary async code;
/// - `globalToGlobal`: the same child task on the global executor, which may run it on the
///   thread its parent frees: the floor of any hand-off there;
/// - `ioThread`: from a task on the I/O thread, a child task that prefers the same thread: the
///   task's own cost, no switch of thread.
struct HopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hop",
        abstract: "Measures µs and CPU per round trip to libcurl's I/O thread and back, with no request."
    )

    @Option(help: "Round trips timed per loop, in all rounds together.")
    var iterations = 50_000

    @Option(help: "Rounds the timed round trips are split into; the median round is reported.")
    var rounds = 10

    func run() async throws {
        let transport = CurlTransport()
        let executor = transport.executor
        let global = try await measure(on: nil, to: executor)
        let globalToGlobal = try await measure(on: nil, to: nil)
        let ioThread = try await measure(on: executor, to: executor)
        await transport.shutdown()
        report([
            "iterations": iterations,
            "globalMicroseconds": global.micros,
            "globalCPUMicroseconds": global.cpu,
            "globalToGlobalMicroseconds": globalToGlobal.micros,
            "globalToGlobalCPUMicroseconds": globalToGlobal.cpu,
            "ioThreadMicroseconds": ioThread.micros,
            "ioThreadCPUMicroseconds": ioThread.cpu,
        ])
    }

    /// µs and CPU µs per round trip from a task that prefers `origin` to a child task that prefers
    /// `target`, the medians of the rounds.
    private func measure(on origin: (any TaskExecutor)?, to target: (any TaskExecutor)?) async throws -> (micros: Double, cpu: Double) {
        let (iterations, rounds) = (iterations, max(1, rounds))
        return await Task(executorPreference: origin) {
            let perRound = max(1, iterations / rounds)
            for _ in 0..<perRound {
                _ = await Task(executorPreference: target) { 0 }.value
            }
            let clock = ContinuousClock()
            var micros: [Double] = []
            var cpu: [Double] = []
            for _ in 0..<rounds {
                let (start, startCPU) = (clock.now, ProcessCPU.seconds)
                for _ in 0..<perRound {
                    _ = await Task(executorPreference: target) { 0 }.value
                }
                micros.append((clock.now - start).seconds * 1e6 / Double(perRound))
                cpu.append((ProcessCPU.seconds - startCPU) * 1e6 / Double(perRound))
            }
            return (micros.sorted()[rounds / 2], cpu.sorted()[rounds / 2])
        }.value
    }
}
