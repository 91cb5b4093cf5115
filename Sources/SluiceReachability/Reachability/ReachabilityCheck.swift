import Foundation
import SluiceCore

/// Checks that a route leads to the request's host before anything is sent, as URLSession's
/// `waitsForConnectivity` does: with no route, the task fails at once with `.notReachable`, or,
/// when it waits for connectivity, waits until a route comes (then sends), its time runs out
/// (`.timeout`), or it is cancelled.
///
/// ```swift
/// let pipeline = try Pipeline(stages: [ReachabilityCheck(waitsForConnectivity: true), ResponseDecoding()])
/// ```
///
/// The host checked is the request's, or its proxy's when `Request/proxyRoute` goes through
/// one. The answer comes from a ``ReachabilityMonitor`` per host, kept while the stage lives (the
/// most recent 64 hosts), so a task that waits is woken by the kernel's own notification. A
/// host whose name does not resolve, or is not resolved within 10 s, is sent on: the transport
/// then reports what is wrong. So is every request where the process cannot open a routing
/// socket (a note says so). A wait is a note (`waiting`, then `connected`, whose
/// `StageNote/connectivityWait` says how long, for monitors), and `TaskMetrics/connectivityWait`.
/// It is a hop stage: every redirect hop is checked.
public struct ReachabilityCheck: RequestStage {
    /// Whether a task with no route waits for one rather than failing at once.
    public let waitsForConnectivity: Bool
    /// The longest a task waits: its own total timeout when it has one, else this.
    public let maximumWait: Duration
    private let monitors: MonitorPool

    /// 60 s: how long a task with no total timeout waits for connectivity.
    public static let defaultMaximumWait: Duration = .seconds(60)

    /// `reachability`.
    public var name: String { "reachability" }

    /// `StagePlacement/reachability`: a hop stage, below the proxy, so every hop is checked, through its proxy.
    public static var placement: StagePlacement { .reachability }

    /// The reachability check.
    public var claims: [String] { ["the reachability check"] }

    /// Creates the stage.
    /// - Parameters:
    ///   - waitsForConnectivity: wait for a route instead of failing at once.
    ///   - maximumWait: the longest wait for a task that sets no total timeout.
    public init(waitsForConnectivity: Bool = false, maximumWait: Duration = ReachabilityCheck.defaultMaximumWait) {
        self.init(waitsForConnectivity: waitsForConnectivity, maximumWait: maximumWait) { ReachabilityMonitor(host: $0) }
    }

    /// Creates the stage with the monitors `makeMonitor` makes (a test's, started in a network
    /// namespace).
    init(waitsForConnectivity: Bool, maximumWait: Duration, makeMonitor: @escaping @Sendable (String) -> ReachabilityMonitor) {
        self.waitsForConnectivity = waitsForConnectivity
        self.maximumWait = maximumWait
        monitors = MonitorPool(makeMonitor: makeMonitor)
    }

    /// Sends the request on when a route leads to its host; fails or waits when none does.
    public func prepare(_ request: Request, context: TaskContext) async throws -> Request {
        guard let host = ReachabilityCheck.host(of: request) else { return request }
        let monitor: ReachabilityMonitor
        do {
            monitor = try monitors.monitor(for: host)
        } catch {
            // The check is advice: where the kernel's routing socket is closed to the process, the
            // request goes on and the transport says what happens.
            context.note("unavailable", "cannot watch routes: \(error.message)", stage: name)
            return request
        }
        let status = await monitor.knownStatus()
        // A name that does not resolve goes on: the transport's DNS error says more than "no route".
        guard status == .notReachable, let addresses = monitor.addresses, !addresses.isEmpty else { return request }
        let target = addresses.contains(host) ? host : "\(host) (\(addresses.joined(separator: ", ")))"
        guard waitsForConnectivity else {
            throw SluiceError(
                kind: .notReachable, stage: name, url: request.url,
                message: "no route to \(target): the routing table has none, or the interface it would leave by is down"
            )
        }
        let limit = request.timeouts.total ?? maximumWait
        context.note("waiting", "no route to \(host); waiting up to \(limit) for one", stage: name)
        let clock = ContinuousClock()
        let start = clock.now
        let reached = await monitor.firstStatus(within: limit) { $0.isReachable } != nil
        if Task.isCancelled {
            throw SluiceError(kind: .cancelled, stage: name, url: request.url, message: "cancelled while waiting for a route to \(host)")
        }
        let waited = clock.now - start
        guard reached else {
            throw SluiceError(kind: .timeout, stage: name, url: request.url, message: "no route to \(host) came within \(limit)")
        }
        var values = StageValues()
        values[ConnectivityWaitKey.self] = ConnectivityWait(host: host, duration: waited)
        context.note(StageNote(stage: name, name: "connected", detail: "a route to \(host) came after \(waited)", stageValues: values)) { metrics in
            metrics.connectivityWait += waited
        }
        return request
    }

    /// The host a request connects to first: its proxy's, the one its connection overrides name,
    /// or its own; `nil` for none to check (a Unix socket).
    static func host(of request: Request) -> String? {
        if case .through(let proxy)? = request.proxyRoute { return proxy.url.host }
        guard let host = request.url.host else { return nil }
        guard let overrides = request.connectionOverrides else { return host }
        // A Unix socket has no route to check; an address or host connected to instead of the
        // URL's is the one whose route matters.
        return overrides.target(host: host, port: request.url.portOrDefault)?.host
    }
}

/// The monitors of a ``ReachabilityCheck``, one per host, the least recently used stopped past
/// ``limit``.
private final class MonitorPool: Sendable {
    private let monitors = Locked<[(host: String, monitor: ReachabilityMonitor)]>([])
    private let makeMonitor: @Sendable (String) -> ReachabilityMonitor
    let limit = 64

    init(makeMonitor: @escaping @Sendable (String) -> ReachabilityMonitor) {
        self.makeMonitor = makeMonitor
    }

    func monitor(for host: String) throws(SluiceError) -> ReachabilityMonitor {
        let (monitor, evicted) = monitors.withLock { monitors -> (ReachabilityMonitor, ReachabilityMonitor?) in
            if let index = monitors.firstIndex(where: { $0.host.hasSameCodePoints(as: host) }) {
                let entry = monitors.remove(at: index)
                monitors.append(entry)
                return (entry.monitor, nil)
            }
            let monitor = makeMonitor(host)
            monitors.append((host, monitor))
            return (monitor, monitors.count > limit ? monitors.removeFirst().monitor : nil)
        }
        evicted?.stop()
        try monitor.start()
        return monitor
    }
}

/// A wait for connectivity that ended with a route: the host and how long the task waited.
public struct ConnectivityWait: Sendable, Hashable {
    /// The host (or proxy) a route was waited for.
    public var host: String
    /// How long the task waited.
    public var duration: Duration
}

private enum ConnectivityWaitKey: StageValueKey { typealias Value = ConnectivityWait }
private enum ConnectivityWaitTotal: StageValueKey { typealias Value = Duration }

extension StageNote {
    /// The wait a `reachability` stage's `connected` note reports; `nil` for any other note.
    public var connectivityWait: ConnectivityWait? { stageValues[ConnectivityWaitKey.self] }
}

extension TaskMetrics {
    /// How long the task waited for a route to its host before sending (the `reachability`
    /// stage with `waits-for-connectivity`), every hop's wait added; zero when it did not wait.
    public var connectivityWait: Duration {
        get { stageValues[ConnectivityWaitTotal.self] ?? .zero }
        set { stageValues[ConnectivityWaitTotal.self] = newValue }
    }
}
