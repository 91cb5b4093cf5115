import Foundation

/// One HTTP client under test: it fetches a URL's whole body and reports the status.
protocol HTTPBenchClient: Sendable {
    /// Fetches `url` with GET, reads the whole body, and returns the status and body size.
    func get(_ url: URL) async throws -> (status: Int, bytes: Int)
    /// Closes connections and threads.
    func shutdown() async throws
    /// Where the load's workers run, spread over these in turn; none for the global concurrent
    /// executor, where most callers run.
    var executors: [any TaskExecutor] { get }
}

extension HTTPBenchClient {
    /// None: the global concurrent executor.
    var executors: [any TaskExecutor] { [] }
}

/// The clients `throughput --client` can measure.
enum ClientKind: String, CaseIterable, Sendable {
    /// Sluice, its callers spread over the transport's I/O threads (`CurlTransport.executors`).
    case sluice
    /// Sluice, its callers on the global concurrent executor.
    case sluiceGlobal = "sluice-global"
    case asyncHTTPClient = "async-http-client"
    case urlSession = "urlsession"

    /// A client of this kind that keeps up to `connections` connections to one host.
    func make(connections: Int) throws -> any HTTPBenchClient {
        switch self {
        case .sluice: try SluiceBenchClient(connections: connections, callersOnTransportExecutor: true)
        case .sluiceGlobal: try SluiceBenchClient(connections: connections, callersOnTransportExecutor: false)
        case .asyncHTTPClient: AsyncHTTPBenchClient(connections: connections)
        case .urlSession: URLSessionBenchClient(connections: connections)
        }
    }
}
