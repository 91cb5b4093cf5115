import ArgumentParser
import Foundation
import MallocInterposerSwift
import Sluice

/// `sluice-bench chain`: what the chain itself costs, with no network: a session manager over an
/// in-memory transport, first with no stages, then with the five built-in stages (URL resolution,
/// header injection, serialization, trust evaluation, response decoding). One request at a time,
/// so the figure is the cost of a request, not a throughput.
///
/// Allocations are counted when the process runs with malloc-interposer preloaded
/// (`LD_PRELOAD=libMallocInterposerSwift.so`); without it they print as -1.
struct ChainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chain",
        abstract: "Measures µs and allocations per request through the chain, with an in-memory transport."
    )

    @Option(help: "Requests timed per chain.")
    var iterations = 200_000

    @Option(help: "Requests sent before timing, per chain.")
    var warmup = 5_000

    @Flag(help: "Also measure each stage alone, as its cost over the chain with no stages.")
    var each = false

    func run() async throws {
        let transport = InMemoryTransport { request in
            Response(status: 200, headers: ["Content-Type": "application/json"], body: ChainCommand.body, url: request.url)
        }
        let bare = try Pipeline(transport: transport, redirects: nil)
        let pins = try TrustPin.pins(from: "sha256//" + Data(repeating: 7, count: 32).base64EncodedString())
        let stages: [any Stage] = [
            try URLResolution(baseURL: "https://api.example.test/v1/"),
            HeaderInjection(headers: ["Accept": "application/json"], authorization: .bearer("token")),
            Serialization(format: .json),
            TrustEvaluation(policy: try TrustPolicy(pinning: .publicKey, pins: pins)),
            ResponseDecoding(format: .json),
        ]
        let fiveStages = try Pipeline(stages: stages, transport: transport, redirects: nil)
        let absolute = Request(url: URL(string: "https://api.example.test/v1/items/42?page=2&q=swift")!)
        let relative = Request("items/{id}", pathParameters: ["id": "42"], parameters: ["page": 2, "q": "swift"])!
        let bareFigures = try await measure(SessionManager(pipeline: bare), absolute)
        let stageFigures = try await measure(SessionManager(pipeline: fiveStages), relative)
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
                let request = stage is URLResolution ? Request("items/42?page=2&q=swift")! : absolute
                let parameters = stage is Serialization ? ["page": 2, "q": "swift"] as JSONValue : nil
                var sent = request
                sent.parameters = parameters
                let stageAlone = try await measure(SessionManager(pipeline: alone), sent)
                figures[stage.name] = ["microseconds": stageAlone.micros - bareFigures.micros, "allocations": stageAlone.allocations - bareFigures.allocations]
            }
        }
        report(figures)
    }

    static let body = Data(#"{"id":42,"name":"sluice","tags":["http","swift"],"active":true}"#.utf8)

    /// µs per request over `iterations` sends, then allocations per request over a tenth as many.
    private func measure(_ manager: SessionManager, _ request: Request) async throws -> (micros: Double, allocations: Double) {
        for _ in 0..<warmup {
            _ = try await manager.send(request)
        }
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations {
            _ = try await manager.send(request)
        }
        let elapsed = clock.now - start
        let micros = elapsed.seconds * 1e6 / Double(iterations)

        let counted = max(1, iterations / 10)
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        for _ in 0..<counted {
            _ = try await manager.send(request)
        }
        MallocInterposerSwift.unhook()
        let mallocs = MallocInterposerSwift.getStatistics().mallocCount
        return (micros, mallocs > 0 ? Double(mallocs) / Double(counted) : -1)
    }
}
