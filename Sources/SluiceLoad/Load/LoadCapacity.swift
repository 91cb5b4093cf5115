import Foundation
import SluiceCore

/// What a load run needs of its transport and of the machine, checked before its first request:
/// the cap the user sets (`--concurrency`) must be the only cap, so that a request is either sent
/// when due or dropped and counted, never queued out of sight.
enum LoadCapacity {
    /// File descriptors kept free beside the connections: standard streams, files being written,
    /// each I/O thread's epoll and wake-up descriptors, the resolver's sockets.
    static let spareDescriptors = 64

    /// Checks that `transport` lets `connections` be open to one host at once, and that this
    /// process can open them: raises its soft limit on file descriptors up to the hard one when
    /// it must, and refuses a run that needs more descriptors than that, or more connections to
    /// one server than the machine has ephemeral ports.
    static func check(connections: Int, transport: any Transport) throws(SluiceError) {
        if let allowed = transport.connectionsPerHost, allowed < connections {
            throw SluiceError(
                kind: .configuration,
                message: "--concurrency \(connections) (in this shard) needs \(connections) connections to a host at once, and the transport "
                    + "allows \(allowed): requests over that would wait inside the transport, timed as the server's. Give the runner a "
                    + "transport with room for them (CurlTransport(configuration: .init().allowing(connections: \(connections))))"
            )
        }
        try checkDescriptors(connections + spareDescriptors, connections: connections)
        if let ports = ephemeralPortCount(), connections > ports {
            throw SluiceError(
                kind: .configuration,
                message: "--concurrency \(connections) (in this shard) needs \(connections) connections to the server at once, and this "
                    + "machine has \(ports) ephemeral ports (/proc/sys/net/ipv4/ip_local_port_range): split the run into shards on more machines"
            )
        }
    }

    /// Makes sure the process may open `needed` file descriptors.
    private static func checkDescriptors(_ needed: Int, connections: Int) throws(SluiceError) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        guard limit.rlim_cur < rlim_t(needed) else { return }
        if limit.rlim_max >= rlim_t(needed) {
            var raised = limit
            raised.rlim_cur = rlim_t(needed)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return }
        }
        throw SluiceError(
            kind: .configuration,
            message: "--concurrency \(connections) (in this shard) needs about \(needed) file descriptors, and this process may open "
                + "\(limit.rlim_cur) (at most \(limit.rlim_max): ulimit -n): raise the limit, or split the run into shards"
        )
    }

    /// How many local ports the kernel hands out for outgoing connections, if it says.
    private static func ephemeralPortCount() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8) else { return nil }
        let bounds = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        guard bounds.count == 2, bounds[1] >= bounds[0] else { return nil }
        return bounds[1] - bounds[0] + 1
    }
}
