/// What Hurl's command line sets for every entry of a file (`--location`, `--delay`, `--retry`,
/// `--no-header`, ...), which a converted file writes out: the redirect stage's rules, and each
/// entry's keys (`delay`, `retry`, `remove-headers`, ...) unless its own `[Options]` give them.
public struct HurlDefaults: Sendable, Equatable {
    /// `--location`: redirects are followed.
    public var followsRedirects = false
    /// `--location-trusted`: followed, and credentials go to every origin.
    public var trustsOtherOrigins = false
    /// `--max-redirs N`.
    public var maximumRedirects: Int?
    /// `--continue-on-error`: the entries after one that fails still run. By default Hurl stops
    /// a file at its first failing entry (the converted file says `fail-fast: true`).
    public var continuesOnError = false
    /// `--delay`: a duration as a pipeline writes it (`500ms`, `1s`).
    public var delay: String?
    /// `--retry N`: how many times an entry is sent again.
    public var retries: Int?
    /// `--retry-interval`: a duration as a pipeline writes it.
    public var retryInterval: String?

    /// `--header NAME: VALUE` lines: each entry sends them after its own headers and before its
    /// `header` options (`header-lines:`), as Hurl does.
    public var headerLines: [String] = []
    /// `--no-header NAME`: headers no entry sends, whoever writes them.
    public var removedHeaders: [String] = []
    /// `--no-cookie-store`: no entry uses the cookie jar (its own `[Cookies]` are still sent).
    public var usesCookieStore = true
    /// `--ignore-asserts`: no entry checks its response; captures are still taken.
    public var ignoresAsserts = false
    /// `--output FILE`: where the last entry's body goes, unless it names its own output
    /// (`-` is standard output).
    public var output: String?
    /// `--from-entry N` and `--to-entry N`: the entries run, from 1; the others are left out.
    public var entries: ClosedRange<Int>?

    /// `--http1.0`, `--http1.1`, `--http2`: each entry's `http-version` (`1.0`, `1.1`, `2`).
    public var httpVersion: String?
    /// `--limit-rate`: each entry's most bytes a second.
    public var limitRate: Int64?

    /// `--cookie FILE`: a cookie file (curl's format) read before the first entry.
    public var cookieInput: String?
    /// `--cookie-jar FILE`: where the cookies are written after the last entry.
    public var cookieOutput: String?

    /// `--digest`: credentials answer Digest challenges only.
    public var digest = false
    /// `-u NAME:PASSWORD` with `--digest`: each entry's credential (without `--digest`, `sluice
    /// run -u` sends Basic to every request of any file).
    public var user: String?
    /// `--netrc-file FILE`: each entry's credential from that `.netrc` file.
    public var netrcFile: String?

    /// `--path-as-is`: each entry's path goes out with its dot segments.
    public var sendsPathAsIs = false

    /// `--file-root DIR` (absolute): the folder the file's relative paths (`output`, `file,`
    /// bodies, parts and values to compare with) are read and written from, in place of its own.
    public var fileRoot: String?

    /// `--proxy URL`: each entry's proxy, unless it names its own.
    public var proxy: String?
    /// `--no-proxy HOSTS` (else the `no_proxy` environment variable, as libcurl reads it): the
    /// hosts an entry's proxy is not used for.
    public var noProxy: [String] = []

    /// `--compressed`: every entry asks for a compressed body (`Accept-Encoding`), as Sluice's
    /// requests do; without it an entry asks only with `compressed: true`, as Hurl's.
    public var compressed = false
    /// `--no-jsonpath-coercion`: a `jsonpath` query or filter gives the list of nodes it selects,
    /// always (`jsonpath-nodes:`), not a singular path's one value.
    public var jsonPathNodeLists = false

    /// `-k`/`--insecure`: every entry accepts a certificate that does not verify, as Hurl's.
    public var insecure = false
    /// `--cacert FILE`: the trust anchors of every entry, in place of the system's.
    public var caBundle: String?
    /// `-E`/`--cert FILE[:PASSWORD]`: every entry's client certificate.
    public var clientCertificate: String?
    /// `--key FILE`: the key of `clientCertificate`, when it is not in the certificate's file.
    public var clientKey: String?
    /// `--pinnedpubkey sha256//...;...`: the public keys every entry's server must show.
    public var pinnedPublicKeys: String?
    /// `-m`/`--max-time DURATION`: every entry's total timeout, unless its own says otherwise.
    public var maxTime: String?

    /// Hurl's own defaults: no redirect followed, no delay, no retry.
    public init() {}
}
