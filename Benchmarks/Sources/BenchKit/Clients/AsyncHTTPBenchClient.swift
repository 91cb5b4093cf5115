import AsyncHTTPClient
import Foundation
import NIOCore

/// AsyncHTTPClient with its async/await API on the shared event loop group (one loop per core),
/// its pool allowed as many HTTP/1.1 connections per host as the run's concurrency.
struct AsyncHTTPBenchClient: HTTPBenchClient {
    private let client: HTTPClient

    init(connections: Int) {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(connections, 1)
        )
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func get(_ url: URL) async throws -> (status: Int, bytes: Int) {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), body.readableBytes)
    }

    func shutdown() async throws {
        try await client.shutdown()
    }
}
