import Foundation
import Sluice

/// Sluice's library API as an application uses it: a session manager over a default pipeline
/// (which follows redirects) and a libcurl transport of its own, its callers either on the
/// transport's I/O threads, spread over them (as its documentation advises for throughput), or on
/// the global concurrent executor (where a caller that does nothing about it runs).
struct SluiceBenchClient: HTTPBenchClient {
    private let transport: CurlTransport
    private let manager: SessionManager
    let executors: [any TaskExecutor]

    init(connections: Int, callersOnTransportExecutor: Bool) throws {
        transport = CurlTransport(configuration: .init(maxConnectionsPerHost: max(connections, 1)))
        manager = SessionManager(pipeline: try Pipeline(transport: transport))
        executors = callersOnTransportExecutor ? transport.executors : []
    }

    func get(_ url: URL) async throws -> (status: Int, bytes: Int) {
        let response = try await manager.send(Request(url: url))
        return (response.status, response.body.count)
    }

    func shutdown() async throws {
        await manager.invalidate(cancelingTasks: true)
        await transport.shutdown()
    }
}
