import SluiceCore

/// Whether a host, or the network at large, can be reached, as the routing table says:
/// AFNetworking's `AFNetworkReachabilityStatus` on Linux.
public enum ReachabilityStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not known yet: the monitor has not looked, or the host's name has not been resolved.
    case unknown
    /// No route leads there: no usable interface, no address, or no route that covers it.
    case notReachable
    /// A route leads there, out of an interface of this kind that is up and has a carrier.
    case reachable(InterfaceKind)

    /// Whether it is ``reachable(_:)``.
    public var isReachable: Bool {
        if case .reachable = self { return true }
        return false
    }

    /// `unknown`, `not reachable`, or `reachable via wired` (the kind).
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .notReachable: "not reachable"
        case .reachable(let kind): "reachable via \(kind.rawValue)"
        }
    }
}

/// The kind of network interface a route leaves by.
public enum InterfaceKind: String, Sendable, Hashable, CaseIterable {
    /// Ethernet (a physical card, or a virtual one such as a veth pair or a bridge).
    case wired
    /// Wi-Fi: the interface has a wireless extension (`/sys/class/net/NAME/wireless`) or its
    /// device type is `wlan`.
    case wireless
    /// A mobile broadband modem: device type `wwan`, or a raw-IP link.
    case cellular
    /// The loopback interface: the host is this machine.
    case loopback
    /// Anything else: a tunnel, PPP, WireGuard.
    case other
}
