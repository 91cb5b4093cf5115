internal import CCurl
import Foundation
import SluiceCore

extension CurlTransport {
    /// How a libcurl transport connects, what it trusts, and how many connections it keeps.
    public struct Configuration: Sendable, Hashable {
        /// Which HTTP version to ask for.
        public enum HTTPVersionPreference: Sendable, Hashable {
            /// HTTP/1.1 everywhere.
            case http1_1
            /// HTTP/2 over TLS where the server offers it (ALPN), HTTP/1.1 otherwise. The default.
            case http2OverTLS
            /// HTTP/2 over TLS as ``http2OverTLS``, and over plain http asked for with an
            /// `Upgrade: h2c` (RFC 7540 section 3.2), HTTP/1.1 where the server does not take it:
            /// curl's `--http2`.
            case http2

            var curlValue: Int {
                switch self {
                case .http1_1: Int(CURL_HTTP_VERSION_1_1)
                case .http2OverTLS: Int(CURL_HTTP_VERSION_2TLS)
                case .http2: Int(CURL_HTTP_VERSION_2_0)
                }
            }
        }

        /// The most connections open to one host at once; more requests wait for a free one.
        /// 0 means no limit. Default 64.
        public var maxConnectionsPerHost: Int
        /// The most connections open at once in all; 0 means no limit (the default).
        public var maxConnections: Int
        /// The most idle connections kept alive for reuse. Default 256.
        public var maxIdleConnections: Int
        /// The most idle easy handles kept for reuse. Default 256.
        public var idleHandleCapacity: Int
        /// A PEM file of trust anchors used instead of the system's trust store; `nil` (the
        /// default) uses the system's.
        public var caBundle: String?
        /// The HTTP version to ask for; HTTP/2 over TLS by default.
        public var httpVersion: HTTPVersionPreference
        /// Whether to ask for compressed responses (`Accept-Encoding: deflate, gzip, br, zstd`, as
        /// curl's `--compressed`) and decode them; a request's own `Accept-Encoding` is sent
        /// instead of that list. A coding the transport does not know leaves the body as it came.
        /// On by default; off, nothing is asked for or decoded, whatever the request's header
        /// (curl without `--compressed`).
        public var decodesContent: Bool
        /// How many I/O threads the transport may run, each with its own multi handle and
        /// connections, each started on first use; one per core by default. Tasks that run on
        /// none of them use the first, so more threads change nothing until tasks are spread over
        /// ``CurlTransport/executors``. The connection limits above hold per thread.
        public var ioThreads: Int

        /// Creates a configuration; every parameter has the default named on its property.
        public init(
            maxConnectionsPerHost: Int = 64,
            maxConnections: Int = 0,
            maxIdleConnections: Int = 256,
            idleHandleCapacity: Int = 256,
            caBundle: String? = nil,
            httpVersion: HTTPVersionPreference = .http2OverTLS,
            decodesContent: Bool = true,
            ioThreads: Int = ProcessInfo.processInfo.activeProcessorCount
        ) {
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxConnections = maxConnections
            self.maxIdleConnections = maxIdleConnections
            self.idleHandleCapacity = idleHandleCapacity
            self.caBundle = caBundle
            self.httpVersion = httpVersion
            self.decodesContent = decodesContent
            self.ioThreads = max(1, ioThreads)
        }
    }
}

extension CurlTransport.Configuration {
    /// This configuration with room for `connections` requests in flight to one host: as many
    /// connections to a host, on any I/O thread, and as many kept for reuse, so that the caller's
    /// own cap (a load run's concurrency) is the only one.
    public func allowing(connections: Int) -> Self {
        var configuration = self
        configuration.maxConnectionsPerHost = max(configuration.maxConnectionsPerHost, connections)
        if configuration.maxConnections != 0 {
            configuration.maxConnections = max(configuration.maxConnections, connections)
        }
        configuration.maxIdleConnections = max(configuration.maxIdleConnections, connections)
        configuration.idleHandleCapacity = max(configuration.idleHandleCapacity, connections)
        return configuration
    }
}
