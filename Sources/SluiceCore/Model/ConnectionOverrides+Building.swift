import Foundation

extension ConnectionOverrides {
    /// One option of the overrides that is wrong: which (`unix-socket`, `resolve`, `connect-to`)
    /// and why, for each front end to name in its own words (`--resolve`, a file's `resolve:`).
    public struct InvalidOption: Error, Sendable {
        /// The option at fault: `unix-socket`, `resolve` or `connect-to`.
        public var option: String
        /// What is wrong with it.
        public var message: String
    }

    /// The overrides curl's `--unix-socket`, `--resolve`, `--connect-to`, `-4` and `-6` describe,
    /// as written: the one builder `sluice send` and a pipeline file's `connection:` share.
    /// - Throws: ``InvalidOption`` naming the option: an empty socket path, an entry not in curl's
    ///   syntax.
    public init(unixSocket: String?, resolve: [String], connectTo: [String], ipVersion: IPVersion?) throws(InvalidOption) {
        if unixSocket?.isEmpty == true {
            throw InvalidOption(option: "unix-socket", message: "the socket's path is empty")
        }
        self.init(unixSocketPath: unixSocket, ipVersion: ipVersion)
        for entry in resolve {
            do {
                self.resolve.append(try Resolve(curlSyntax: entry))
            } catch {
                throw InvalidOption(option: "resolve", message: error.message)
            }
        }
        for entry in connectTo {
            do {
                self.connectTo.append(try ConnectTo(curlSyntax: entry))
            } catch {
                throw InvalidOption(option: "connect-to", message: error.message)
            }
        }
    }

    /// Why these overrides cannot carry a request beside `route`, or `nil`: a Unix socket beside a
    /// proxy, since libcurl makes no proxy connection over a socket path and the proxy would be
    /// ignored in silence. The one rule the `connection` stage, the transport and `sluice send`
    /// apply.
    public func conflict(with route: ProxyRoute?) -> String? {
        guard let socket = unixSocketPath, case .through(let proxy)? = route else { return nil }
        return "the Unix socket \(socket) and the proxy \(proxy.url.absoluteString) cannot both carry the request: a connection over a socket goes through no proxy"
    }
}
