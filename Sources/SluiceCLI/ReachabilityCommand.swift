import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `sluice reachability`: whether a host, or the network at large, can be reached, and with
/// `--watch` each change as it happens.
struct ReachabilityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reachability",
        abstract: "Says whether a host (or the network at large) can be reached, from the kernel's routing table; --watch follows changes.",
        discussion: """
            The status is reachable (with the kind of interface the route leaves by: wired, wireless, cellular, loopback, other), not reachable, or unknown (the name not resolved yet). It comes from the route the kernel would take and whether that interface is up with a carrier; --watch prints a line at each change the kernel announces (links, addresses, routes), never polling.

            Exit status: 0 reachable, 1 not reachable (without --watch).
            """
    )

    @Argument(help: "A host name or address; none for the network at large.")
    var host: String?

    @Flag(help: "Keep watching, printing a line for each change, until interrupted.")
    var watch = false

    @Flag(help: "One JSON object per line: {\"status\", \"interface\", \"name\", \"time\"}.")
    var json = false

    func run() async throws {
        let monitor = ReachabilityMonitor(host: host)
        try monitor.start()
        defer { monitor.stop() }
        guard watch else {
            _ = await monitor.knownStatus()
            let update = monitor.current
            Terminal.write(line(update) + "\n")
            if !update.status.isReachable { throw ExitCode(1) }
            return
        }
        // Each line prints the interface that came with its status, however far behind the reader is.
        for await update in monitor.updates() {
            Terminal.write(line(update) + "\n")
        }
    }

    private func line(_ update: ReachabilityUpdate) -> String {
        guard json else { return update.description }
        let interface = update.interfaceName
        var object: JSONObject = [:]
        switch update.status {
        case .unknown: object["status"] = "unknown"
        case .notReachable: object["status"] = "not-reachable"
        case .reachable(let kind):
            object["status"] = "reachable"
            object["interface"] = .string(kind.rawValue)
            object["name"] = interface.map(JSONValue.string) ?? .null
        }
        object["time"] = .double(Date().timeIntervalSince1970)
        return (try? JSONWriter().string(from: .object(object))) ?? ""
    }
}
