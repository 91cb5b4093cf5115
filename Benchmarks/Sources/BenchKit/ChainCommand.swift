import ArgumentParser
import Foundation
import Sluice

/// `sluice-bench chain`: what the chain itself costs, with no network: a session manager over an
/// in-memory transport, first with no stages, then with the five built-in stages (URL resolution,
/// header injection, serialization, trust evaluation, response decoding). One request at a time,
/// so the figure is the cost of a request, not a throughput.
///
/// Allocations are counted by `sluice-bench-allocs` (malloc-interposer linked in); `sluice-bench`
/// counts nothing and prints them as -1, so its times carry no instrumentation.
struct ChainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chain",
        abstract: "Measures µs and allocations per request through the chain, with an in-memory transport."
    )

    @Option(help: "Requests timed per chain, in all rounds together.")
    var iterations = 200_000

    @Option(help: "Rounds the timed requests are split into; the median round is reported.")
    var rounds = 10

    @Option(help: "Requests sent before timing, per chain.")
    var warmup = 5_000

    @Option(help: "Which chains to measure: both, bare or stages (one alone, for an instruction count under callgrind).")
    var chain = "both"

    @Flag(help: "Also measure each stage alone, as its cost over the chain with no stages.")
    var each = false

    func run() async throws {
        let transport = InMemoryTransport { request in
            Response(status: 200, headers: ["Content-Type": "application/json"], body: ChainCommand.body, url: request.url)
        }
        let bare = try Pipeline(transport: transport, redirects: nil)
        let stages: [any Stage] = [
            try URLResolution(baseURL: "https://api.example.test/v1/"),
            HeaderInjection(headers: ["Accept": "application/json"], authorization: .bearer("token")),
            Serialization(format: .json),
            // No pins: the in-memory transport has no certificate to check them against, and
            // refuses a pinned request (the policy is still put on every request).
            TrustEvaluation(policy: try TrustPolicy()),
            ResponseDecoding(format: .json),
        ]
        let fiveStages = try Pipeline(stages: stages, transport: transport, redirects: nil)
        let absolute = Request(url: URL(string: "https://api.example.test/v1/items/42?page=2&q=swift")!)
        let relative = Request("items/{id}", pathParameters: ["id": "42"], parameters: ["page": 2, "q": "swift"])
        guard ["both", "bare", "stages"].contains(chain) else { throw ValidationError("--chain is both, bare or stages") }
        let skipped = (micros: -1.0, allocations: -1.0)
        let bareFigures = chain == "stages" ? skipped : try await measure(SessionManager(pipeline: bare), absolute)
        let stageFigures = chain == "bare" ? skipped : try await measure(SessionManager(pipeline: fiveStages), relative)
        var figures: [String: any Sendable] = [
            "iterations": iterations,
            "bareMicroseconds": bareFigures.micros,
            "bareAllocations": bareFigures.allocations,
            "stagesMicroseconds": stageFigures.micros,
            "stagesAllocations": stageFigures.allocations,
        ]
        if each {
            for stage in stages {
                let alone = try Pipeline(stages: [stage], transport: transport, redirects: nil)
                let request = stage is URLResolution ? Request("items/42?page=2&q=swift") : absolute
                let parameters: JSONValue? = stage is Serialization ? ["page": 2, "q": "swift"] : nil
                var sent = request
                sent.parameters = parameters
                let stageAlone = try await measure(SessionManager(pipeline: alone), sent)
                let allocations = stageAlone.allocations >= 0 ? stageAlone.allocations - bareFigures.allocations : -1
                figures[stage.name] = ["microseconds": stageAlone.micros - bareFigures.micros, "allocations": allocations]
            }
        }
        report(figures)
    }

    static let body = Data(#"{"id":42,"name":"sluice","tags":["http","swift"],"active":true}"#.utf8)

    /// µs per request, the median of `rounds` rounds that share `iterations` sends (a round that a
    /// neighbour on the machine slowed down does not move the median); then allocations per
    /// request over a tenth as many sends, when the process counts them.
    private func measure(_ manager: SessionManager, _ request: Request) async throws -> (micros: Double, allocations: Double) {
        for _ in 0..<warmup {
            _ = try await manager.send(request)
        }
        let clock = ContinuousClock()
        let perRound = max(1, iterations / max(1, rounds))
        var roundMicros: [Double] = []
        for _ in 0..<max(1, rounds) {
            let start = clock.now
            for _ in 0..<perRound {
                _ = try await manager.send(request)
            }
            roundMicros.append((clock.now - start).seconds * 1e6 / Double(perRound))
        }
        roundMicros.sort()
        let micros = roundMicros[roundMicros.count / 2]

        let counted = max(1, iterations / 10)
        let counts = try await AllocationCounter.count {
            for _ in 0..<counted {
                _ = try await manager.send(request)
            }
        }
        return (micros, counts.map { Double($0.allocations) / Double(counted) } ?? -1)
    }
}
