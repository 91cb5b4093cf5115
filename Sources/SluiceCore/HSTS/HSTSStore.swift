import Foundation

/// The hosts known to want HTTPS only (RFC 6797's Known HSTS Hosts), learned from
/// `Strict-Transport-Security` answers over HTTPS and kept, when given a file, in curl's
/// `--hsts` file format, so that curl and Sluice can share one.
///
/// Host names compare without ASCII case and without a trailing dot; an IP address is never a
/// known host (RFC 6797 section 8.1). Safe to share between tasks.
public final class HSTSStore: Sendable {
    /// What is known of one host.
    public struct Entry: Sendable, Hashable {
        /// When the policy ends; `nil` for never (curl's `"unlimited"`).
        public var expires: Date?
        /// Whether it covers the host's subdomains.
        public var includesSubdomains: Bool

        /// Creates an entry.
        public init(expires: Date?, includesSubdomains: Bool) {
            self.expires = expires
            self.includesSubdomains = includesSubdomains
        }
    }

    /// The file the store was read from and is saved to; `nil` for one held in memory only.
    public let file: URL?
    private let entries = Locked<[String: Entry]>([:])

    /// Creates an empty store, held in memory.
    public init() {
        file = nil
    }

    /// Creates a store over a file in curl's `--hsts` format, read now; a missing file is an
    /// empty store, and `save()` creates it.
    /// - Throws: ``InputFile/Unreadable`` when the file cannot be read, and
    ///   ``HSTSFile/LineError`` for a line that is no entry.
    public init(file: URL, now: Date = Date()) throws {
        self.file = file
        let read = try HSTSFile.load(file, now: now)
        entries.withLock { $0 = read }
    }

    /// Writes the store to ``file``, when there is one (a new file readable by its owner only).
    /// - Throws: `.fileIO` naming the file and the reason.
    public func save(now: Date = Date()) throws {
        guard let file else { return }
        try HSTSFile.save(snapshot(now: now), to: file)
    }

    /// The unexpired entries, by host.
    public func snapshot(now: Date = Date()) -> [String: Entry] {
        entries.withLock { entries in entries.filter { $0.value.expires.map { $0 > now } ?? true } }
    }

    /// Sets or replaces what is known of `host` (normalized as hosts are compared).
    public func insert(_ entry: Entry, for host: String) {
        guard let host = HSTSStore.knownHostName(host) else { return }
        entries.withLock { $0[host] = entry }
    }

    /// Whether no host is known: the stage asks first, so that with nothing known (the usual
    /// case) a request costs one lock and nothing else.
    var isEmpty: Bool {
        entries.withLock(\.isEmpty)
    }

    /// Whether a request to `host` is to go over HTTPS: the host itself is known, or a domain
    /// above it is, with `includeSubDomains` (RFC 6797 section 8.2).
    public func requiresHTTPS(for host: String, now: Date = Date()) -> Bool {
        guard let host = HSTSStore.knownHostName(host) else { return false }
        return entries.withLock { entries in
            var candidate = Substring(host)
            var exact = true
            while true {
                if let entry = entries[String(candidate)], (exact || entry.includesSubdomains), entry.expires.map({ $0 > now }) ?? true {
                    return true
                }
                guard let dot = candidate.firstIndex(of: ".") else { return false }
                candidate = candidate[candidate.index(after: dot)...]
                exact = false
            }
        }
    }

    /// Takes the first `Strict-Transport-Security` field of a response from `host` received over
    /// HTTPS: a valid policy makes the host known (or, with `max-age=0`, unknown); anything
    /// else is ignored, as is a host that is an IP address.
    public func learn(_ fieldValue: String, for host: String, now: Date = Date()) {
        guard let policy = StrictTransportSecurityHeader(fieldValue), let host = HSTSStore.knownHostName(host) else { return }
        entries.withLock { entries in
            if policy.maxAge == 0 {
                entries[host] = nil
            } else {
                let seconds = min(Double(policy.maxAge), Date.distantFuture.timeIntervalSince(now))
                entries[host] = Entry(expires: now.addingTimeInterval(seconds), includesSubdomains: policy.includesSubdomains)
            }
        }
    }

    /// `host` as entries are keyed: ASCII letters small, no trailing dot; `nil` for an IP
    /// address or an empty name, which are never known hosts.
    static func knownHostName(_ host: String) -> String? {
        var name = host.asciiLowercased
        while name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, !name.contains(":"), !name.hasPrefix("[") else { return nil }
        var address = in_addr()
        if inet_pton(AF_INET, name, &address) == 1 { return nil }
        return name
    }
}
