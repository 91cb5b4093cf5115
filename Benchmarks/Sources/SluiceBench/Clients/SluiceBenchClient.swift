import Foundation
import Sluice

/// Sluice's library API as an application uses it: a session manager over a default pipeline
/// (which follows redirects) and a libcurl transport of its own.
struct SluiceBenchClient: HTTPBenchClient {
    private let transport: CurlTransport
    private let manager: SessionManager

    init(connections: Int) throws {
        transport = CurlTransport(configuration: .init(maxConnectionsPerHost: max(connections, 1)))
        manager = SessionManager(pipeline: try Pipeline(transport: transport))
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
