/// The options an `[Options]` section accepts. Any other name is a syntax error.
public enum HurlOptionName: String, Sendable, Hashable, CaseIterable {
    /// `aws-sigv4: PROVIDER`.
    case awsSigV4 = "aws-sigv4"
    /// `cacert: FILE`.
    case caCertificate = "cacert"
    /// `cert: FILE[:PASSWORD]`.
    case clientCertificate = "cert"
    /// `compressed: BOOL`.
    case compressed
    /// `connect-to: HOST1:PORT1:HOST2:PORT2`.
    case connectTo = "connect-to"
    /// `connect-timeout: DURATION`.
    case connectTimeout = "connect-timeout"
    /// `delay: DURATION`.
    case delay
    /// `digest: BOOL`.
    case digest
    /// `header: NAME: VALUE`.
    case header
    /// `http1.0: BOOL`.
    case http1_0 = "http1.0"
    /// `http1.1: BOOL`.
    case http1_1 = "http1.1"
    /// `http2: BOOL`.
    case http2
    /// `http2-prior-knowledge: BOOL`.
    case http2PriorKnowledge = "http2-prior-knowledge"
    /// `http3: BOOL`.
    case http3
    /// `insecure: BOOL`.
    case insecure
    /// `ipv4: BOOL`.
    case ipv4
    /// `ipv6: BOOL`.
    case ipv6
    /// `key: FILE`.
    case clientKey = "key"
    /// `limit-rate: BYTES_PER_SECOND`.
    case limitRate = "limit-rate"
    /// `location: BOOL` (follow redirections).
    case location
    /// `location-trusted: BOOL`.
    case locationTrusted = "location-trusted"
    /// `max-redirs: COUNT` (`-1` for unlimited).
    case maxRedirections = "max-redirs"
    /// `max-time: DURATION`.
    case maxTime = "max-time"
    /// `netrc: BOOL`.
    case netrc
    /// `netrc-file: FILE`.
    case netrcFile = "netrc-file"
    /// `netrc-optional: BOOL`.
    case netrcOptional = "netrc-optional"
    /// `no-header: NAME` (remove a header).
    case noHeader = "no-header"
    /// `output: FILE`.
    case output
    /// `path-as-is: BOOL`.
    case pathAsIs = "path-as-is"
    /// `pinnedpubkey: HASHES`.
    case pinnedPublicKey = "pinnedpubkey"
    /// `proxy: [PROTOCOL://]HOST[:PORT]`.
    case proxy
    /// `repeat: COUNT` (`-1` for forever).
    case `repeat`
    /// `resolve: HOST:PORT:ADDRESS`.
    case resolve
    /// `retry: COUNT` (`-1` for unlimited).
    case retry
    /// `retry-interval: DURATION`.
    case retryInterval = "retry-interval"
    /// `skip: BOOL`.
    case skip
    /// `unix-socket: PATH`.
    case unixSocket = "unix-socket"
    /// `user: USER:PASSWORD`.
    case user
    /// `variable: NAME=VALUE`.
    case variable
    /// `variables-file: FILE` (a file of `name=value` lines).
    case variablesFile = "variables-file"
    /// `verbose: BOOL`.
    case verbose
    /// `very-verbose: BOOL`.
    case veryVerbose = "very-verbose"

    /// The kind of value the option takes.
    public var valueKind: HurlOptionValueKind {
        switch self {
        case .compressed, .digest, .http1_0, .http1_1, .http2, .http2PriorKnowledge, .http3, .insecure,
            .ipv4, .ipv6, .location, .locationTrusted, .netrc, .netrcOptional, .pathAsIs, .skip, .verbose,
            .veryVerbose:
            return .boolean
        case .maxRedirections, .repeat, .retry:
            return .count
        case .limitRate:
            return .natural
        case .connectTimeout, .delay, .maxTime, .retryInterval:
            return .duration
        case .caCertificate, .clientKey, .output, .variablesFile:
            return .filename
        case .clientCertificate:
            return .filenameWithPassword
        case .variable:
            return .variableDefinition
        case .awsSigV4, .connectTo, .header, .netrcFile, .noHeader, .pinnedPublicKey, .proxy, .resolve,
            .unixSocket, .user:
            return .text
        }
    }
}
