import Foundation

/// One HTTP client under test: it fetches a URL's whole body and reports the status.
protocol HTTPBenchClient: Sendable {
    /// Fetches `url` with GET, reads the whole body, and returns the status and body size.
    func get(_ url: URL) async throws -> (status: Int, bytes: Int)
    /// Closes connections and threads.
    func shutdown() async throws
}

/// The clients `throughput --client` can measure.
enum ClientKind: String, CaseIterable, Sendable {
    case sluice
    case asyncHTTPClient = "async-http-client"
    case urlSession = "urlsession"

    /// A client of this kind that keeps up to `connections` connections to one host.
    func make(connections: Int) throws -> any HTTPBenchClient {
        switch self {
        case .sluice: try SluiceBenchClient(connections: connections)
        case .asyncHTTPClient: AsyncHTTPBenchClient(connections: connections)
        case .urlSession: URLSessionBenchClient(connections: connections)
        }
    }
}
