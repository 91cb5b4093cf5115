import Foundation
/// Puts ``ConnectionOverrides`` on every request that has none of its own: a Unix domain socket
/// to connect to, addresses for host names, other hosts and ports (curl's `--unix-socket`,
/// `--resolve` and `--connect-to`).
///
/// A hop stage: every redirect hop gets the overrides, and those keyed by host and port apply to
/// the hop's own, as curl applies them to every transfer.
///
/// ```swift
/// let routing = ConnectionRouting(ConnectionOverrides(unixSocketPath: "/var/run/docker.sock"))
/// ```
public struct ConnectionRouting: SynchronousRequestStage, ChainValidating {
    /// The overrides put on requests that set none.
    public let overrides: ConnectionOverrides

    /// `connection`.
    public var name: String { "connection" }

    /// Beside the proxy stage, below redirects and the cache: each hop that is sent is routed.
    public static var placement: StagePlacement { .connectionRouting }

    /// Where connections go.
    public var claims: [String] { ["the connection overrides"] }

    /// Creates the stage.
    public init(_ overrides: ConnectionOverrides) {
        self.overrides = overrides
    }

    /// Refuses a Unix socket beside a proxy: libcurl makes no proxy connection over a socket path,
    /// so the proxy would be ignored in silence.
    public func validate(in chain: [any Stage]) throws(SluiceError) {
        for case let proxy as ProxySelection in chain {
            if let conflict = overrides.conflict(with: proxy.route) {
                throw SluiceError(kind: .configuration, stage: name, message: "\(conflict) (stage proxy)")
            }
        }
    }

    /// Puts the overrides on the request unless it has its own.
    public func prepare(_ request: Request, context: TaskContext) -> Request {
        guard request.connectionOverrides == nil else { return request }
        var request = request
        request.connectionOverrides = overrides
        return request
    }
}
