import ArgumentParser
import Foundation

/// `sluice-bench throughput`: requests per second of one client against one URL.
struct ThroughputCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "throughput",
        abstract: "Sends GET requests with one client, C at once, and prints requests per second."
    )

    @Option(help: "The client: sluice, sluice-global, async-http-client or urlsession.")
    var client: String

    @Option(help: "The URL to fetch.")
    var url: String

    @Option(help: "How many requests to send.")
    var requests = 20_000

    @Option(help: "How many requests are in flight at once.")
    var concurrency = 1

    func run() async throws {
        guard let kind = ClientKind(rawValue: client) else {
            throw ValidationError("unknown client '\(client)'; one of \(ClientKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let target = URL(string: url) else { throw ValidationError("not a URL: \(url)") }
        let http = try kind.make(connections: concurrency)
        let outcome = await ClosedLoop(requests: requests, concurrency: concurrency).run(on: http.executors) {
            try await http.get(target).status == 200
        }
        try await http.shutdown()
        report([
            "client": kind.rawValue,
            "concurrency": concurrency,
            "requests": outcome.requests,
            "errors": outcome.errors,
            "seconds": outcome.seconds,
            "rps": Double(outcome.requests) / outcome.seconds,
            "firstError": outcome.firstError ?? "",
        ])
    }
}
