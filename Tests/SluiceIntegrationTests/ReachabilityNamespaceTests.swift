import Foundation
import MetricsTestKit
import SluiceMetrics
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

/// The reachability monitor and the `reachability` stage in network namespaces the tests make and
/// break: links down and up, addresses removed and added, the default route removed and restored.
@Suite("Reachability in network namespaces", .enabled(if: NamespacePair.available, Comment(rawValue: NamespacePair.unavailableReason)))
struct ReachabilityNamespaceTests {
    /// Makes each change in turn and checks the status each `sluice reachability --watch --json`
    /// prints next: the expected one, in order. A watcher's line `current` holds its status before
    /// the first change; the next change is made only once every watcher has reported the last
    /// one, so none can see two changes as one. Returns how long after each change the first
    /// watcher's line came.
    static func expectChanges(_ watches: [LiveProcess], from current: Int, _ changes: [(change: () throws -> Void, status: String)]) throws -> [Duration] {
        for watch in watches {
            _ = try #require(watch.line(current), "no status line \(current): \(watch.output()) \(watch.output(1))")
        }
        var latencies: [Duration] = []
        for (offset, step) in changes.enumerated() {
            // From before the change: the time `ip` takes to make it counts against the monitor.
            let changed = ContinuousClock.now
            try step.change()
            for (index, watch) in watches.enumerated() {
                let line = try #require(watch.line(current + offset + 1), "nothing reported after change \(offset + 1); seen: \(watch.output())")
                #expect(line.text.contains("\"status\":\"\(step.status)\""), "change \(offset + 1): \(line.text)")
                if index == 0 { latencies.append(line.time - changed) }
            }
        }
        return latencies
    }

    static func status(_ line: String?) -> String? {
        guard let line, let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["status"] as? String
    }

    /// A web server in the server's namespace on 10.77.1.1:8000, serving `hello.txt`.
    static func server(in pair: NamespacePair, directory: TemporaryDirectory) throws -> LiveProcess {
        _ = try directory.write("hello-from-b\n", to: "hello.txt")
        let server = try pair.run(["/usr/bin/python3", "-u", "-m", "http.server", "--bind", "10.77.1.1", "--directory", directory.url.path, "8000"], in: pair.server)
        _ = try #require(server.line(0, within: .seconds(20)), "the server did not start: \(server.output(1))")
        return server
    }

    @Test("link down and up, IPv4 and IPv6 addresses removed and added: each change reported, in order, with its latency printed")
    func linksAndAddresses() throws {
        let pair = try NamespacePair()
        let v4 = try pair.run([SluiceProcess.executable.path, "reachability", "10.77.0.2", "--watch", "--json"])
        let v6 = try pair.run([SluiceProcess.executable.path, "reachability", "fd77::2", "--watch", "--json"])
        defer {
            v4.stop()
            v6.stop()
        }
        _ = try #require(v6.line(0))
        var latencies = try ReachabilityNamespaceTests.expectChanges([v4], from: 0, [
            ({ try pair.client("link", "set", "va", "down") }, "not-reachable"),
            ({ try pair.client("link", "set", "va", "up") }, "reachable"),
            ({ try pair.client("addr", "del", "10.77.0.1/24", "dev", "va") }, "not-reachable"),
            ({ try pair.client("addr", "add", "10.77.0.1/24", "dev", "va") }, "reachable"),
        ])
        #expect(v4.output().first?.contains("\"interface\":\"wired\",\"name\":\"va\"") == true, "\(v4.output())")
        // The IPv6 watcher saw the link go down. Its address went with the link (the kernel drops
        // static IPv6 addresses on a link that goes down, keep_addr_on_down being 0), so it stays
        // unreachable until the address is back.
        _ = try #require(v6.line(1))
        #expect(v6.output().prefix(2).map(ReachabilityNamespaceTests.status) == ["reachable", "not-reachable"], "\(v6.output())")
        latencies += try ReachabilityNamespaceTests.expectChanges([v6], from: 1, [
            ({ try pair.client("addr", "add", "fd77::1/64", "dev", "va", "nodad") }, "reachable"),
            ({ try pair.client("addr", "del", "fd77::1/64", "dev", "va") }, "not-reachable"),
            ({ try pair.client("addr", "add", "fd77::1/64", "dev", "va", "nodad") }, "reachable"),
        ])
        // How soon each change was reported is printed, not asserted: on a quiet machine it is a few
        // milliseconds, but a CI machine running the suite in parallel can delay the watching process
        // past any bound short enough to mean something. A change never reported fails above.
        print("reachability: links and addresses, each change reported after \(latencies.map { DurationText.milliseconds($0).rounded() }) ms")
    }

    @Test("the default route removed and restored: the network at large and a host behind it follow, in order; the peer's link going down is seen too")
    func defaultRoute() throws {
        let pair = try NamespacePair()
        let machine = try pair.run([SluiceProcess.executable.path, "reachability", "--watch", "--json"])
        let host = try pair.run([SluiceProcess.executable.path, "reachability", "10.77.1.1", "--watch", "--json"])
        defer {
            machine.stop()
            host.stop()
        }
        let latencies = try ReachabilityNamespaceTests.expectChanges([machine, host], from: 0, [
            ({ try pair.client("route", "del", "default") }, "not-reachable"),
            ({ try pair.client("route", "add", "default", "via", "10.77.0.2") }, "reachable"),
            // The server's end goes down: the client's link loses its carrier.
            ({ try pair.inside(pair.server, ["link", "set", "vb", "down"]) }, "not-reachable"),
            ({ try pair.inside(pair.server, ["link", "set", "vb", "up"]) }, "reachable"),
        ])
        // Only the order is checked, the latencies printed (a carrier change reaches rtnetlink through
        // the kernel's link watch, which holds such events back for up to a second by design).
        print("reachability: routes and carrier, each change reported after \(latencies.map { DurationText.milliseconds($0).rounded() }) ms")
        let once = try pair.run([SluiceProcess.executable.path, "reachability"])
        #expect(once.wait() == 0)
        #expect(once.output() == ["reachable via wired (va)"])

        // The peer: iproute2's `ip route get` asks the kernel the same question; the verdicts
        // agree with and without the default route, for IPv4 and IPv6 hosts.
        for host in ["10.77.1.1", "10.77.0.2", "fd77::2", "2001:db8::7"] {
            for routed in [true, false] {
                if !routed { try pair.client("route", "del", "default") }
                let peer = (try? NamespacePair.ip(["-n", pair.client, "route", "get", host])).map { $0.contains(" dev va ") } ?? false
                let ours = try pair.run([SluiceProcess.executable.path, "reachability", host])
                #expect((ours.wait() == 0) == peer, "\(host), default route \(routed): ip route get says \(peer), sluice says \(ours.output())")
                if !routed { try pair.client("route", "add", "default", "via", "10.77.0.2") }
            }
        }
    }

    @Test("each update carries its own interface: a reader that falls behind the changes still gets 'reachable' with the interface that went with it")
    func updatesCarryTheirInterface() async throws {
        let pair = try NamespacePair()
        let monitor = try pair.inClient {
            let monitor = ReachabilityMonitor(host: "10.77.1.1")
            try monitor.start()
            return monitor
        }
        defer { monitor.stop() }
        #expect(await monitor.knownStatus() == .reachable(.wired))
        let updates = monitor.updates()
        // Three changes, each seen by the monitor before the next; the stream is read only after.
        for (change, expected) in [(["route", "del", "default"], ReachabilityStatus.notReachable), (["route", "add", "default", "via", "10.77.0.2"], .reachable(.wired)), (["route", "del", "default"], .notReachable)] {
            try pair.inside(pair.client, change)
            #expect(await monitor.firstStatus(within: .seconds(10)) { $0 == expected } == expected)
        }
        var seen: [ReachabilityUpdate] = []
        for await update in updates {
            seen.append(update)
            if seen.count == 4 { break }
        }
        #expect(seen.map(\.status) == [.reachable(.wired), .notReachable, .reachable(.wired), .notReachable])
        #expect(seen.map(\.interfaceName) == ["va", nil, "va", nil])
        #expect(seen.allSatisfy { $0.addresses == ["10.77.1.1"] })
        #expect(monitor.interfaceName == nil, "read now, apart from its status, the interface is the current one")
    }

    @Test("with lo down, 127.0.0.1 and the machine's own addresses are not reachable: reachability says so, and sluice send fails at once instead of waiting for its connect timeout")
    func loopbackDown() throws {
        let pair = try NamespacePair()
        for host in ["127.0.0.1", "10.77.0.1"] {
            let up = try pair.run([SluiceProcess.executable.path, "reachability", host])
            #expect(up.wait() == 0 && up.output() == ["reachable via loopback (lo)"], "\(host): \(up.output())")
        }
        try pair.client("link", "set", "lo", "down")
        for host in ["127.0.0.1", "10.77.0.1"] {
            let down = try pair.run([SluiceProcess.executable.path, "reachability", host])
            #expect(down.wait() == 1 && down.output() == ["not reachable"], "\(host): \(down.output())")
        }
        let send = try pair.run([SluiceProcess.executable.path, "send", "--connect-timeout", "20", "http://127.0.0.1:9/"])
        #expect(send.wait(within: .seconds(15)) == 7, "curl's status when no route leads to the host")
        #expect(send.output(1) == ["sluice: error: not reachable in reachability for http://127.0.0.1:9/: no route to 127.0.0.1: the routing table has none, or the interface it would leave by is down"], "\(send.output(1))")
    }

    @Test("sluice send: no route fails at once with 'not reachable'; --wait-for-connectivity waits, and sends when the route returns; --timeout ends the wait")
    func sendWaits() throws {
        let pair = try NamespacePair()
        let directory = try TemporaryDirectory()
        let server = try ReachabilityNamespaceTests.server(in: pair, directory: directory)
        defer { server.stop() }
        let url = "http://10.77.1.1:8000/hello.txt"
        let direct = try pair.run([SluiceProcess.executable.path, "send", url])
        #expect(direct.wait() == 0)
        #expect(direct.output() == ["hello-from-b"])

        try pair.client("route", "del", "default")
        let refused = try pair.run([SluiceProcess.executable.path, "send", url])
        #expect(refused.wait() == 7, "curl's status when no route leads to the host")
        #expect(refused.output(1) == ["sluice: error: not reachable in reachability for \(url): no route to 10.77.1.1: the routing table has none, or the interface it would leave by is down"])

        let waiting = try pair.run([SluiceProcess.executable.path, "send", "--wait-for-connectivity", "--timeout", "60", url])
        let said = try #require(waiting.line(0, stream: 1), "no word of waiting")
        #expect(said.text == "sluice: no route to 10.77.1.1; waiting up to 60.0 seconds for one")
        try pair.client("route", "add", "default", "via", "10.77.0.2")
        #expect(waiting.wait() == 0)
        #expect(waiting.output() == ["hello-from-b"])
        #expect(waiting.output(1).last?.hasPrefix("sluice: a route to 10.77.1.1 came after ") == true, "\(waiting.output(1))")

        try pair.client("route", "del", "default")
        let late = try pair.run([SluiceProcess.executable.path, "send", "--wait-for-connectivity", "--timeout", "1", url])
        #expect(late.wait() == 28, "curl's status for a timeout")
        #expect(late.output(1).last == "sluice: error: timeout in reachability for \(url): no route to 10.77.1.1 came within 1.0 seconds")
    }

    @Test("a pipeline's reachability stage: not reachable as a typed error, or waits-for-connectivity until the route returns, noted in --verbose")
    func pipelineOption() throws {
        let pair = try NamespacePair()
        let directory = try TemporaryDirectory()
        let server = try ReachabilityNamespaceTests.server(in: pair, directory: directory)
        defer { server.stop() }
        let failing = try directory.write("""
            stages:
              - reachability
            requests:
              - name: hello
                path: http://10.77.1.1:8000/hello.txt
            """, to: "fails.yaml")
        let waiting = try directory.write("""
            stages:
              - reachability: { waits-for-connectivity: true, max-wait: 60s }
            requests:
              - name: hello
                path: http://10.77.1.1:8000/hello.txt
                expect: { status: 200 }
            """, to: "waits.yaml")
        try pair.client("route", "del", "default")
        let refused = try pair.run([SluiceProcess.executable.path, "run", "--format", "json", failing])
        #expect(refused.wait() == 1)
        let document = try JSONSerialization.jsonObject(with: Data(refused.output().joined().utf8)) as? [String: Any]
        let error = ((document?["results"] as? [[String: Any]])?.first?["error"] as? [String: Any]) ?? [:]
        #expect(error["kind"] as? String == "not reachable")
        #expect(error["stage"] as? String == "reachability")

        let run = try pair.run([SluiceProcess.executable.path, "run", "--no-color", "--verbose", waiting])
        // The route comes back only once the runner's monitor listens: a routing socket subscribed
        // to notifications (Groups not zero) appears in the namespace's /proc/net/netlink. The
        // monitor looks at the routes as soon as it listens; the pause covers that look.
        let listening = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < listening {
            let sockets = try LiveProcess(["/usr/sbin/ip", "netns", "exec", pair.client, "cat", "/proc/net/netlink"])
            _ = sockets.wait()
            if sockets.output().dropFirst().contains(where: { line in
                let fields = line.split(separator: " ")
                return fields.count > 3 && fields[1] == "0" && fields[3] != "00000000"
            }) { break }
            usleep(20_000)
        }
        Thread.sleep(forTimeInterval: 0.2)
        try pair.client("route", "add", "default", "via", "10.77.0.2")
        #expect(run.wait() == 0, "\(run.output()) \(run.output(1))")
        #expect(run.output().first?.hasPrefix("✔ hello  GET http://10.77.1.1:8000/hello.txt  200") == true)
        #expect(run.output(1).contains { $0.hasPrefix("* reachability: a route to 10.77.1.1 came after ") }, "\(run.output(1))")
    }

    /// Collects a task's events.
    final class Events: EventMonitor {
        let seen = Locked<[TaskEvent.Kind]>([])
        func receive(_ event: TaskEvent) { seen.withLock { $0.append(event.kind) } }
    }

    @Test("in the library: a waiting task is cancelled at once; one that waits until the route returns records the wait in its metrics, its events and swift-metrics")
    func waitInLibrary() async throws {
        let pair = try NamespacePair()
        try pair.client("route", "del", "default")
        // The monitor's sockets are opened in the client's namespace; the transport is in memory.
        let monitor = try pair.inClient {
            let monitor = ReachabilityMonitor(host: "10.77.1.1")
            try monitor.start()
            return monitor
        }
        defer { monitor.stop() }
        let stage = ReachabilityCheck(waitsForConnectivity: true, maximumWait: .seconds(60)) { _ in monitor }
        let events = Events()
        let metrics = TestMetrics()
        let manager = SessionManager(
            pipeline: try Pipeline(stages: [stage], transport: InMemoryTransport { _ in Response(status: 200) }),
            monitors: [events, MetricsMonitor(pipeline: "edge", factory: metrics)]
        )
        let request = Request(method: .get, url: URL(string: "http://10.77.1.1:8000/")!)

        let cancelled = manager.task(request)
        while !cancelled.context.notes.contains(where: { $0.name == "waiting" }) { try await Task.sleep(for: .milliseconds(10)) }
        let clock = ContinuousClock()
        let start = clock.now
        cancelled.cancel()
        let error = await #expect(throws: SluiceError.self) { try await cancelled.value }
        #expect(error?.kind == .cancelled)
        // Bounded, not timed: the wait would otherwise last its whole minute.
        #expect(clock.now - start < .seconds(30))

        let changes = Locked<[ReachabilityStatus]>([])
        monitor.onChange { update in changes.withLock { $0.append(update.status) } }
        let waits = manager.task(request)
        while !waits.context.notes.contains(where: { $0.name == "waiting" }) { try await Task.sleep(for: .milliseconds(10)) }
        try pair.client("route", "add", "default", "via", "10.77.0.2")
        let response = try await waits.value
        #expect(response.status == 200)
        // The callback form saw the same change, on the monitor's thread.
        #expect(changes.withLock { $0 } == [.reachable(.wired)])
        #expect(waits.context.metrics.connectivityWait > .zero)
        #expect(waits.context.notes.map(\.name) == ["waiting", "connected"])
        #expect(events.seen.withLock { kinds in kinds.contains { if case .note(let note) = $0 { note.connectivityWait?.host == "10.77.1.1" } else { false } } })
        let waited = try metrics.expectTimer("sluice_connectivity_wait_seconds", [("pipeline", "edge")])
        #expect(waited.values.count == 1)
        #expect(waited.values[0] > 0)
    }
}
