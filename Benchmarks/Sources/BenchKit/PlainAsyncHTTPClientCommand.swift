import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore

/// `sluice-bench async-http-client-plain`: AsyncHTTPClient driven the way its own documentation
/// shows, with none of this package's machinery (no ``ClosedLoop``, no `HTTPBenchClient`): a task
/// group of C loops, each sending its share of the requests one after another with
/// `execute(_:timeout:)` and reading each body with `collect(upTo:)`, the pool allowed C HTTP/1.1
/// connections to the host. The table sets it beside the `async-http-client` row, which the
/// shared closed loop drives, so that a figure of that peer is checked against a plain client of
/// its own.
struct PlainAsyncHTTPClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "async-http-client-plain",
        abstract: "Sends GET requests with AsyncHTTPClient in a plain task group, C at once, and prints requests per second."
    )

    @Option(help: "The URL to fetch.")
    var url: String

    @Option(help: "How many requests to send.")
    var requests = 20_000

    @Option(help: "How many requests are in flight at once.")
    var concurrency = 1

    func run() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(concurrency, 1)
        )
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let target = url
        let loops = max(1, min(concurrency, requests))
        let clock = ContinuousClock()
        let start = clock.now
        let (errors, firstError) = await withTaskGroup(of: (Int, String?).self) { group in
            for loop in 0..<loops {
                // The first `requests % loops` loops send one request more than the others.
                let share = requests / loops + (loop < requests % loops ? 1 : 0)
                group.addTask {
                    var errors = 0
                    var firstError: String?
                    for _ in 0..<share {
                        do {
                            let response = try await client.execute(HTTPClientRequest(url: target), timeout: .seconds(30))
                            _ = try await response.body.collect(upTo: 64 << 20)
                            if response.status != .ok {
                                errors += 1
                                firstError = firstError ?? "status \(response.status.code)"
                            }
                        } catch {
                            errors += 1
                            firstError = firstError ?? "\(error)"
                        }
                    }
                    return (errors, firstError)
                }
            }
            var errors = 0
            var firstError: String?
            for await (loopErrors, loopFirst) in group {
                errors += loopErrors
                firstError = firstError ?? loopFirst
            }
            return (errors, firstError)
        }
        let seconds = (clock.now - start).seconds
        try await client.shutdown()
        report([
            "client": "async-http-client-plain",
            "concurrency": concurrency,
            "requests": requests,
            "errors": errors,
            "seconds": seconds,
            "rps": Double(requests) / seconds,
            "firstError": firstError ?? "",
        ])
    }
}
