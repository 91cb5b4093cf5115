import Foundation

/// Where a request's connections go instead of where its URL's host name leads: a Unix domain
/// socket (curl's `--unix-socket`, AsyncHTTPClient's `http+unix`), an address for a host name
/// (curl's `--resolve`), or another host and port (curl's `--connect-to`).
///
/// Only where the connection is made changes: the URL, the `Host` header, TLS's server name, the
/// certificate's host check and pins all still go by the URL's host. So a pipeline can test
/// `https://api.example.test` against `127.0.0.1` with a certificate for that name. libcurl keeps
/// connections made this way apart from others: a request without an override never reuses one.
///
/// ```swift
/// var overrides = ConnectionOverrides()
/// overrides.resolve = [try ConnectionOverrides.Resolve(curlSyntax: "api.example.test:443:127.0.0.1")]
/// ```
public struct ConnectionOverrides: Sendable, Hashable {
    /// A host name and port that connect to an address instead of the name's own (curl's
    /// `--resolve HOST:PORT:ADDRESS`).
    public struct Resolve: Sendable, Hashable, CustomStringConvertible {
        /// The host name, compared without ASCII case.
        public var host: String
        /// The port.
        public var port: Int
        /// The address connected to: an IPv4 or IPv6 address (without brackets).
        public var address: String

        /// Creates an override.
        /// - Throws: `.configuration` when the port is not 1...65535 or the address is not an IP
        ///   address.
        public init(host: String, port: Int, address: String) throws(SluiceError) {
            guard !host.isEmpty else { throw ConnectionOverrides.invalid("a host name is missing") }
            self.host = ConnectionOverrides.unbracketed(host)
            self.port = try ConnectionOverrides.port(port)
            self.address = try ConnectionOverrides.ipAddress(address)
        }

        /// Reads curl's `HOST:PORT:ADDRESS`, the address of IPv6 in brackets or not.
        /// - Throws: `.configuration` naming what is wrong, for a wildcard host or a list of
        ///   addresses too (one address a name: Sluice hands the override to libcurl as a connect-to,
        ///   so that it never enters the DNS cache other requests share).
        public init(curlSyntax text: String) throws(SluiceError) {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let port = Int(parts[1]) else {
                throw ConnectionOverrides.invalid("'\(text)' is not HOST:PORT:ADDRESS")
            }
            if parts[0] == "*" {
                throw ConnectionOverrides.invalid("'\(text)': a wildcard host is not supported; name the host")
            }
            if parts[2].contains(",") {
                throw ConnectionOverrides.invalid("'\(text)': give one address a name (Sluice does not try several)")
            }
            try self.init(host: String(parts[0]), port: port, address: String(parts[2]))
        }

        /// `HOST:PORT:ADDRESS`, an IPv6 address in brackets.
        public var description: String {
            "\(host):\(port):\(address.contains(":") ? "[\(address)]" : address)"
        }
    }

    /// Connections for a host and port, or any, made to another host and port (curl's
    /// `--connect-to HOST:PORT:TO-HOST:TO-PORT`, each part optional).
    public struct ConnectTo: Sendable, Hashable, CustomStringConvertible {
        /// The host it applies to, an IPv6 address without brackets; `nil` for any.
        public var host: String?
        /// The port it applies to; `nil` for any.
        public var port: Int?
        /// The host connected to, an IPv6 address without brackets; `nil` for the request's own.
        public var toHost: String?
        /// The port connected to; `nil` for the request's own.
        public var toPort: Int?

        /// Creates an override.
        /// - Throws: `.configuration` for a port outside 1...65535.
        public init(host: String? = nil, port: Int? = nil, toHost: String? = nil, toPort: Int? = nil) throws(SluiceError) {
            self.host = host.flatMap { $0.isEmpty ? nil : ConnectionOverrides.unbracketed($0) }
            self.port = try port.map { p throws(SluiceError) in try ConnectionOverrides.port(p) }
            self.toHost = toHost.flatMap { $0.isEmpty ? nil : ConnectionOverrides.unbracketed($0) }
            self.toPort = try toPort.map { p throws(SluiceError) in try ConnectionOverrides.port(p) }
        }

        /// Reads curl's `HOST:PORT:TO-HOST:TO-PORT`; an IPv6 host in brackets.
        /// - Throws: `.configuration` naming what is wrong.
        public init(curlSyntax text: String) throws(SluiceError) {
            var fields: [String] = []
            var rest = Substring(text)
            while fields.count < 3 {
                if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    fields.append(String(rest[rest.startIndex...close]))
                    rest = rest[rest.index(after: close)...]
                    guard rest.first == ":" else { throw ConnectionOverrides.invalid("'\(text)' is not HOST:PORT:TO-HOST:TO-PORT") }
                    rest = rest.dropFirst()
                } else if let colon = rest.firstIndex(of: ":") {
                    fields.append(String(rest[..<colon]))
                    rest = rest[rest.index(after: colon)...]
                } else {
                    throw ConnectionOverrides.invalid("'\(text)' is not HOST:PORT:TO-HOST:TO-PORT")
                }
            }
            fields.append(String(rest))
            func port(_ field: String) throws(SluiceError) -> Int? {
                guard !field.isEmpty else { return nil }
                guard let value = Int(field) else { throw ConnectionOverrides.invalid("'\(text)': '\(field)' is not a port") }
                return value
            }
            try self.init(host: fields[0], port: try port(fields[1]), toHost: fields[2], toPort: try port(fields[3]))
        }

        /// `HOST:PORT:TO-HOST:TO-PORT`, what is left out empty, an IPv6 address in brackets.
        public var description: String {
            let bracketed = { (text: String?) in text.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "" }
            return "\(bracketed(host)):\(port.map(String.init) ?? ""):\(bracketed(toHost)):\(toPort.map(String.init) ?? "")"
        }
    }

    /// The IP versions a host name may be resolved to (curl's `-4` and `-6`).
    public enum IPVersion: String, Sendable, Hashable, CaseIterable {
        /// IPv4 addresses only (`-4`).
        case v4 = "4"
        /// IPv6 addresses only (`-6`).
        case v6 = "6"
    }

    /// A Unix domain socket every connection is made to, whatever the URL's host; `nil` for TCP.
    public var unixSocketPath: String?
    /// The only IP version a host name is resolved to; `nil` for either.
    public var ipVersion: IPVersion?
    /// Host names connected to at given addresses.
    public var resolve: [Resolve]
    /// Connections made to other hosts and ports.
    public var connectTo: [ConnectTo]

    /// Creates overrides; none by default.
    public init(unixSocketPath: String? = nil, resolve: [Resolve] = [], connectTo: [ConnectTo] = [], ipVersion: IPVersion? = nil) {
        self.unixSocketPath = unixSocketPath
        self.resolve = resolve
        self.connectTo = connectTo
        self.ipVersion = ipVersion
    }

    /// Whether there is nothing to override.
    public var isEmpty: Bool {
        unixSocketPath == nil && resolve.isEmpty && connectTo.isEmpty && ipVersion == nil
    }

    /// The host and port a connection for `host:port` is made to, after the overrides (the first
    /// that applies, `resolve` before `connectTo`, as libcurl applies them); `nil` for a Unix
    /// socket, which has neither.
    public func target(host: String, port: Int) -> (host: String, port: Int)? {
        guard unixSocketPath == nil else { return nil }
        let bare = ConnectionOverrides.unbracketed(host)
        if let entry = resolve.first(where: { ConnectionOverrides.sameHost($0.host, bare) && $0.port == port }) {
            return (entry.address, port)
        }
        if let entry = connectTo.first(where: { ($0.host.map { ConnectionOverrides.sameHost($0, bare) } ?? true) && ($0.port.map { $0 == port } ?? true) }) {
            return (entry.toHost ?? bare, entry.toPort ?? port)
        }
        return (bare, port)
    }

    private static func sameHost(_ a: String, _ b: String) -> Bool {
        unbracketed(a).asciiLowercased.hasSameCodePoints(as: unbracketed(b).asciiLowercased)
    }

    /// An IPv6 address without its URL brackets; any other host as it is.
    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    private static func port(_ value: Int) throws(SluiceError) -> Int {
        guard (1...65535).contains(value) else { throw invalid("port \(value) is not 1 to 65535") }
        return value
    }

    private static func ipAddress(_ text: String) throws(SluiceError) -> String {
        let bare = unbracketed(text)
        var v4 = in_addr()
        var v6 = in6_addr()
        guard inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1 else {
            throw invalid("'\(text)' is not an IPv4 or IPv6 address")
        }
        return bare
    }

    static func invalid(_ message: String) -> SluiceError {
        SluiceError(kind: .configuration, stage: "connection", message: message)
    }
}

extension Request {
    private enum Overrides: StageValueKey { typealias Value = ConnectionOverrides }

    /// Where the request's connections go instead of where its host name leads, set by a
    /// ``ConnectionRouting`` stage or by the request itself; `nil` for none.
    public var connectionOverrides: ConnectionOverrides? {
        get { stageValues[Overrides.self] }
        set { stageValues[Overrides.self] = newValue }
    }
}
