internal import CNetlink
import Foundation
import SluiceCore

/// Tells whether a host, or the network at large, can be reached, and when that changes:
/// AFNetworking's `AFNetworkReachabilityManager`, on Linux.
///
/// The monitor asks the kernel's routing table (the route `ip route get` would show, and whether
/// the interface it leaves by is up and has a carrier) and listens to the kernel's rtnetlink
/// notifications of links, addresses and routes, IPv4 and IPv6, so it learns of a change as it
/// happens, never by polling. A host's name is resolved on the monitor's own thread, never the
/// caller's, and again after a change of network if it could not be resolved before.
///
/// ```swift
/// let monitor = ReachabilityMonitor(host: host)   // a name or an address, such as "api.example.com"
/// try monitor.start()
/// for await update in monitor.updates() {
///     print(update)             // unknown, then reachable via wireless (wlan0), not reachable, ...
/// }
/// ```
///
/// Without a host, the monitor watches the machine's way out: whether a route leads to the
/// internet at large (the routes to the documentation addresses 198.51.100.1 and 2001:db8::1,
/// which in practice only a default route covers). Reachable means a route exists: the host may still refuse or
/// drop the connection, as with AFNetworking.
public final class ReachabilityMonitor: Sendable {
    /// The host watched; `nil` for the network at large.
    public let host: String?

    private struct State {
        var current = ReachabilityUpdate(status: .unknown)
        var addresses: [[UInt8]]?
        var resolving = false
        var running: Running?
        var continuations: [UUID: AsyncStream<ReachabilityUpdate>.Continuation] = [:]
        var handlers: [@Sendable (ReachabilityUpdate) -> Void] = []
    }

    /// What a started monitor holds: its sockets, and the descriptor that wakes its thread to stop.
    private final class Running: Sendable {
        let notifications: RouteNetlink
        let questions: RouteNetlink
        let wake: Int32

        init(notifications: RouteNetlink, questions: RouteNetlink, wake: Int32) {
            self.notifications = notifications
            self.questions = questions
            self.wake = wake
        }
    }

    private let state = Locked(State())
    /// Serializes evaluations, so statuses are published in the order the kernel's changes came.
    private let evaluation = NSLock()

    /// A monitor of `host` (a name, or an IPv4 or IPv6 address), or of the network at large.
    public init(host: String? = nil) {
        self.host = host
    }

    deinit {
        stop()
    }

    /// The status now: ``ReachabilityStatus/unknown`` until the monitor has started and looked.
    public var status: ReachabilityStatus {
        state.withLock { $0.current.status }
    }

    /// The status now with its interface and addresses, as one reading.
    public var current: ReachabilityUpdate {
        state.withLock { $0.current }
    }

    /// The addresses the host resolved to, as text, in the resolver's order; `nil` until it has
    /// been resolved, empty when it does not resolve (the status is then not reachable, as
    /// AFNetworking reports a name that does not resolve). The probes for the network at large.
    public var addresses: [String]? {
        state.withLock { $0.addresses }.map { $0.map(ReachabilityMonitor.text) }
    }

    /// The name of the interface the route leaves by, when the status is reachable. Read with the
    /// status it goes with from ``current`` or an update: read apart, the two may come from
    /// different moments.
    public var interfaceName: String? {
        state.withLock { $0.current.interfaceName }
    }

    /// Starts watching: opens the routing sockets and the thread that reads them, and resolves the
    /// host's name there. Returns at once; a monitor already started is left as it is.
    /// - Throws: `.transport` when the kernel refuses a routing socket.
    public func start() throws(SluiceError) {
        guard state.withLock({ $0.running == nil }) else { return }
        let notifications = try RouteNetlink(subscribed: true)
        let questions = try RouteNetlink(subscribed: false)
        let wake = eventfd(0, Int32(EFD_CLOEXEC))
        guard wake >= 0 else { throw SluiceError(kind: .transport, stage: "reachability", message: "cannot make an eventfd: \(String(cString: strerror(errno)))") }
        let running = Running(notifications: notifications, questions: questions, wake: wake)
        let started = state.withLock { state -> Bool in
            guard state.running == nil else { return false }
            state.running = running
            return true
        }
        guard started else {
            close(wake)
            return
        }
        let thread = Thread { [weak self] in self?.listen(running) }
        thread.name = "sluice-reachability"
        thread.start()
        if host == nil {
            state.withLock { $0.addresses = ReachabilityMonitor.internetProbes }
            evaluate()
        } else {
            resolve()
        }
    }

    /// Stops watching. The status stays as it was last seen; ``updates()`` streams end.
    public func stop() {
        let (running, continuations) = state.withLock { state in
            defer {
                state.running = nil
                state.continuations = [:]
            }
            return (state.running, Array(state.continuations.values))
        }
        if let running {
            var one: UInt64 = 1
            _ = write(running.wake, &one, 8)
        }
        continuations.forEach { $0.finish() }
    }

    /// The status now, then each change, each with its own interface and addresses, until the
    /// monitor stops or the stream is dropped.
    public func updates() -> AsyncStream<ReachabilityUpdate> {
        let (stream, continuation) = AsyncStream<ReachabilityUpdate>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        let current = state.withLock { state -> ReachabilityUpdate in
            state.continuations[id] = continuation
            return state.current
        }
        continuation.yield(current)
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `handler` with each change of status, with its own interface and addresses, on the
    /// monitor's thread (AFNetworking's `setReachabilityStatusChangeBlock:`).
    public func onChange(_ handler: @escaping @Sendable (ReachabilityUpdate) -> Void) {
        state.withLock { $0.handlers.append(handler) }
    }

    /// The first known status: waits while it is ``ReachabilityStatus/unknown`` (the name being
    /// resolved), for at most `limit`.
    public func knownStatus(within limit: Duration = .seconds(10)) async -> ReachabilityStatus {
        await firstStatus(within: limit) { $0 != .unknown } ?? .unknown
    }

    /// The status now if it satisfies `condition`, else the first change that does; `nil` when
    /// none does within `limit`, the monitor stops, or the task is cancelled.
    public func firstStatus(within limit: Duration, where condition: @escaping @Sendable (ReachabilityStatus) -> Bool) async -> ReachabilityStatus? {
        await withTaskGroup(of: ReachabilityStatus?.self) { group in
            group.addTask {
                for await update in self.updates() where condition(update.status) { return update.status }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    // MARK: The monitor's thread

    /// Reads notifications until woken to stop, looking again after each batch.
    private func listen(_ running: Running) {
        defer { close(running.wake) }
        var descriptors = [
            pollfd(fd: running.notifications.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: running.wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, descriptors[1].revents == 0 else { return }
            guard let messages = try? running.notifications.receive() else { return }
            guard !messages.isEmpty else { continue }
            if state.withLock({ $0.addresses == nil && !$0.resolving }) {
                resolve()
            } else {
                evaluate()
            }
        }
    }

    /// Resolves the host's name on a thread of its own (a literal address at once), then looks.
    private func resolve() {
        guard let host else { return }
        if let literal = ReachabilityMonitor.literalAddress(host) {
            state.withLock { $0.addresses = [literal] }
            evaluate()
            return
        }
        guard state.withLock({ state -> Bool in
            defer { state.resolving = true }
            return !state.resolving
        }) else { return }
        let thread = Thread { [weak self] in
            let addresses = ReachabilityMonitor.addresses(of: host)
            guard let self else { return }
            self.state.withLock { state in
                state.addresses = addresses
                state.resolving = false
            }
            self.evaluate()
        }
        thread.name = "sluice-reachability-resolver"
        thread.start()
    }

    /// Works out the status from the routing table and publishes it when it changed.
    private func evaluate() {
        evaluation.lock()
        defer { evaluation.unlock() }
        guard let (running, addresses) = state.withLock({ state in state.running.map { ($0, state.addresses) } }) else { return }
        var status = ReachabilityStatus.unknown
        var interface: String?
        if let addresses {
            status = .notReachable
            for address in addresses {
                guard let route = try? running.questions.route(to: address),
                    route.type == UInt8(RTN_UNICAST) || route.type == UInt8(RTN_LOCAL),
                    let index = route.outputInterface,
                    let link = try? running.questions.link(index: index), link.isUsable
                else { continue }
                // A local route (an address of this machine) leaves by the loopback, which is
                // checked as any other link: with `lo` down, nothing reaches 127.0.0.1.
                (status, interface) = (route.type == UInt8(RTN_LOCAL) ? .reachable(.loopback) : .reachable(InterfaceKind(link)), link.name)
                break
            }
        }
        let update = ReachabilityUpdate(
            status: status, interfaceName: status.isReachable ? interface : nil, addresses: addresses.map { $0.map(ReachabilityMonitor.text) }
        )
        let (changed, continuations, handlers) = state.withLock { state in
            let changed = state.current.status != update.status || state.current.interfaceName != update.interfaceName
            state.current = update
            return (changed, Array(state.continuations.values), state.handlers)
        }
        guard changed else { return }
        // Callbacks first: whoever waits on a stream then finds them run.
        handlers.forEach { $0(update) }
        continuations.forEach { $0.yield(update) }
    }

    // MARK: Addresses

    /// Documentation addresses (RFC 5737's TEST-NET-2, RFC 3849), whose routes say whether the
    /// machine has a way out: in practice only a default route covers them. Not TEST-NET-1: some
    /// sandboxes number their own network from it.
    static let internetProbes: [[UInt8]] = [[198, 51, 100, 1], [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]]

    /// An address's bytes written as text: `192.0.2.1`, `2001:db8::1`.
    static func text(_ address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        address.withUnsafeBytes { bytes in
            _ = inet_ntop(address.count == 4 ? AF_INET : AF_INET6, bytes.baseAddress, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of an IPv4 or IPv6 address written as text (brackets allowed around IPv6).
    static func literalAddress(_ text: String) -> [UInt8]? {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return RouteNetlink.bytes(of: v4) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return RouteNetlink.bytes(of: v6) }
        return nil
    }

    /// The addresses a name resolves to (getaddrinfo, so /etc/hosts and the system's resolver),
    /// in the resolver's order; empty when it does not resolve.
    static func addresses(of host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let current = entry?.pointee {
            if current.ai_family == AF_INET, let address = current.ai_addr {
                let v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                addresses.append(RouteNetlink.bytes(of: v4))
            } else if current.ai_family == AF_INET6, let address = current.ai_addr {
                let v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                addresses.append(RouteNetlink.bytes(of: v6))
            }
            entry = current.ai_next
        }
        var seen = Set<[UInt8]>()
        return addresses.filter { seen.insert($0).inserted }
    }
}
