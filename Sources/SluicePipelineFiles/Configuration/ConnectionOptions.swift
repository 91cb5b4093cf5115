import Foundation
import SluiceCore
import SluiceStageRegistry

/// The options of the `connection` stage and of a request's `connection:`: where connections go
/// instead of where the host name leads (curl's `--unix-socket`, `--resolve`, `--connect-to`).
package enum ConnectionOptions {
    package static let descriptors = [
        OptionDescriptor(
            "unix-socket", .string,
            summary: "A Unix domain socket every connection is made to, whatever the URL's host (relative to the pipeline file's folder)."
        ),
        OptionDescriptor(
            "resolve", .list(.string),
            summary: "HOST:PORT:ADDRESS entries, as curl's --resolve: the host name and port connect to that address; TLS, Host and pins still go by the name."
        ),
        OptionDescriptor(
            "connect-to", .list(.string),
            summary: "HOST:PORT:TO-HOST:TO-PORT entries, as curl's --connect-to (each part may be empty, for any or the same)."
        ),
        OptionDescriptor(
            "ip-version", .choice(ConnectionOverrides.IPVersion.allCases.map(\.rawValue)),
            summary: "Resolve host names to IPv4 (4) or IPv6 (6) addresses only, as curl's -4 and -6."
        ),
    ]

    /// The overrides the options describe.
    /// - Throws: ``StageOptions/Invalid`` naming the option and what is wrong with it.
    package static func overrides(from options: StageOptions) throws(StageOptions.Invalid) -> ConnectionOverrides {
        do {
            return try ConnectionOverrides(
                unixSocket: options.path("unix-socket"), resolve: options.strings("resolve") ?? [], connectTo: options.strings("connect-to") ?? [],
                ipVersion: options.string("ip-version").flatMap(ConnectionOverrides.IPVersion.init(rawValue:))
            )
        } catch {
            throw StageOptions.Invalid(option: error.option, message: error.option == "unix-socket" ? "unix-socket is empty: give the socket's path" : error.message)
        }
    }
}
