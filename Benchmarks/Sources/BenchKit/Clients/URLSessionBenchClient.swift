import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Foundation's URLSession (FoundationNetworking on Linux, itself over libcurl), ephemeral, with
/// as many connections per host as the run's concurrency.
struct URLSessionBenchClient: HTTPBenchClient {
    private let session: URLSession

    init(connections: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(connections, 1)
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    func get(_ url: URL) async throws -> (status: Int, bytes: Int) {
        let (data, response) = try await session.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data.count)
    }

    func shutdown() async throws {
        session.invalidateAndCancel()
    }
}
