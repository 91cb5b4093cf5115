import ArgumentParser
import Foundation
import Sluice

/// `sluice send`'s connection options, as curl names them: where connections go instead of where
/// the host name leads.
struct SendConnectionOptions: ParsableArguments {
    @Option(name: .customLong("unix-socket"), help: ArgumentHelp("Connect to this Unix domain socket instead of the URL's host (the URL still names the host and path), as curl's --unix-socket.", valueName: "PATH"))
    var unixSocket: String?

    @Option(name: .customLong("resolve"), help: ArgumentHelp("Connect HOST:PORT to ADDRESS; TLS, Host and pins still go by the name, as curl's --resolve (repeatable).", valueName: "HOST:PORT:ADDRESS"))
    var resolve: [String] = []

    @Option(
        name: .customLong("connect-to"),
        help: ArgumentHelp("Connect HOST:PORT (either may be empty, for any) to TO-HOST:TO-PORT (either empty for the same), as curl's --connect-to (repeatable).", valueName: "HOST:PORT:TO-HOST:TO-PORT")
    )
    var connectTo: [String] = []

    @Flag(name: [.customShort("4"), .customLong("ipv4")], help: "Resolve host names to IPv4 addresses only, as curl's -4.")
    var ipv4 = false

    @Flag(name: [.customShort("6"), .customLong("ipv6")], help: "Resolve host names to IPv6 addresses only, as curl's -6.")
    var ipv6 = false

    /// The connection overrides `--unix-socket`, `--resolve`, `--connect-to`, `-4` and `-6` ask for,
    /// built as a pipeline file's `connection:` is; `nil` for none. A socket beside a proxy `route`
    /// is refused by the rule the transport applies: a connection over a socket goes through no
    /// proxy.
    func overrides(beside route: ProxyRoute?) throws -> ConnectionOverrides? {
        let overrides: ConnectionOverrides
        do {
            overrides = try ConnectionOverrides(unixSocket: unixSocket, resolve: resolve, connectTo: connectTo, ipVersion: ipv4 ? .v4 : ipv6 ? .v6 : nil)
        } catch {
            throw ValidationError(error.option == "unix-socket" ? "--unix-socket needs a path" : "--\(error.option): \(error.message)")
        }
        if let conflict = overrides.conflict(with: route) {
            throw ValidationError("--unix-socket and --proxy: \(conflict)")
        }
        return overrides.isEmpty ? nil : overrides
    }

    /// Refuses -4 beside -6.
    func validate() throws {
        if ipv4 && ipv6 {
            throw ValidationError("give one of -4 and -6")
        }
    }
}
