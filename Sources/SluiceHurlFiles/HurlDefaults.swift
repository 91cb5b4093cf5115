/// What Hurl's command line sets for every entry of a file (`--location`, `--delay`, `--retry`),
/// which a converted file writes out: the redirect stage's rules, and each entry's `delay` and
/// `retry` unless its own `[Options]` give them.
public struct HurlDefaults: Sendable, Equatable {
    /// `--location`: redirects are followed.
    public var followsRedirects = false
    /// `--location-trusted`: followed, and credentials go to every origin.
    public var trustsOtherOrigins = false
    /// `--max-redirs N`.
    public var maximumRedirects: Int?
    /// `--delay`: a duration as a pipeline writes it (`500ms`, `1s`).
    public var delay: String?
    /// `--retry N`: how many times an entry is sent again.
    public var retries: Int?
    /// `--retry-interval`: a duration as a pipeline writes it.
    public var retryInterval: String?

    /// Hurl's own defaults: no redirect followed, no delay, no retry.
    public init() {}
}
