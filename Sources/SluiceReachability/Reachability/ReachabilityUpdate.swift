import SluiceCore

/// A reachability status with what went with it when the monitor saw it: the interface the route
/// left by and the addresses looked at. A monitor's ``ReachabilityMonitor/updates()`` and
/// ``ReachabilityMonitor/onChange(_:)`` deliver these, so a reader that falls behind still gets
/// each status with its own interface, never the one current when it reads.
public struct ReachabilityUpdate: Sendable, Hashable, CustomStringConvertible {
    /// The status.
    public var status: ReachabilityStatus
    /// The name of the interface the route leaves by (`eth0`, `lo`); `nil` unless reachable.
    public var interfaceName: String?
    /// The addresses the host resolved to (the probes for the network at large), as text; `nil`
    /// until it has been resolved.
    public var addresses: [String]?

    /// Creates an update.
    public init(status: ReachabilityStatus, interfaceName: String? = nil, addresses: [String]? = nil) {
        self.status = status
        self.interfaceName = interfaceName
        self.addresses = addresses
    }

    /// `reachable via wired (eth0)`, `not reachable`.
    public var description: String {
        status.description + (interfaceName.map { " (\($0))" } ?? "")
    }
}
