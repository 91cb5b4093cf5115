import Foundation

/// The Public Suffix List (publicsuffix.org): the names under which anyone may register a domain
/// (`com`, `co.uk`, `github.io`), so that a cookie's `Domain` cannot name one and reach every site
/// below it (RFC 6265 section 5.3, step 5).
///
/// ``system`` reads Debian's copy, `/usr/share/publicsuffix/public_suffix_list.dat` (the
/// `publicsuffix` package, which `scripts/setup` installs and libcurl's libpsl reads too). Where
/// that file is missing, the fallback treats every single-label name (`com`, `local`) as a public
/// suffix, as curl does without libpsl: `Domain=co.uk` is then accepted, so install the list.
public struct PublicSuffixList: Sendable {
    private var rules: Set<String> = []
    private var wildcards: Set<String> = []
    private var exceptions: Set<String> = []
    /// Whether this is the single-label fallback rather than a list.
    public let isFallback: Bool

    /// Where Debian's `publicsuffix` package puts the list.
    public static let systemPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The system's list, read once, or the single-label fallback when it cannot be read.
    public static let system: PublicSuffixList = (try? PublicSuffixList(contentsOf: URL(fileURLWithPath: systemPath))) ?? .singleLabel

    /// The fallback: every single-label name is a public suffix, nothing else is.
    public static let singleLabel = PublicSuffixList(text: "", isFallback: true)

    /// Reads a list file.
    /// - Throws: what reading the file throws.
    public init(contentsOf url: URL) throws {
        self.init(text: try String(contentsOf: url, encoding: .utf8), isFallback: false)
    }

    /// Reads a list's text: one rule a line (`com`, `*.ck`, `!www.ck`), `//` comments; each rule
    /// is normalized to IDNA A-labels, as host names are.
    public init(text: String) {
        self.init(text: text, isFallback: false)
    }

    private init(text: String, isFallback: Bool) {
        self.isFallback = isFallback
        for line in text.split(whereSeparator: \.isNewline) {
            let rule = line.prefix { !$0.isWhitespace }
            guard !rule.isEmpty, !rule.hasPrefix("//") else { continue }
            if rule.hasPrefix("!") {
                if let name = HostName.normalized(String(rule.dropFirst())) { exceptions.insert(name) }
            } else if rule.hasPrefix("*.") {
                if let name = HostName.normalized(String(rule.dropFirst(2))) { wildcards.insert(name) }
            } else if let name = HostName.normalized(String(rule)) {
                rules.insert(name)
            }
        }
    }

    /// The public suffix of a normalized host name by the list's algorithm (the longest matching
    /// rule, exceptions first, `*` when no rule matches); `nil` for an IP address.
    public func publicSuffix(of host: String) -> String? {
        guard !host.contains(":"), !Self.isIPv4(host) else { return nil }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty, !labels.contains(where: \.isEmpty) else { return nil }
        // Walk from the longest candidate to the shortest; the first match is the longest rule.
        for start in labels.indices {
            let candidate = labels[start...].joined(separator: ".")
            if exceptions.contains(candidate) { return labels[(start + 1)...].joined(separator: ".") }
            if rules.contains(candidate) { return candidate }
            if start + 1 < labels.count, wildcards.contains(labels[(start + 1)...].joined(separator: ".")) { return candidate }
        }
        return String(labels[labels.count - 1])
    }

    /// Whether a normalized host name is itself a public suffix.
    public func isPublicSuffix(_ host: String) -> Bool {
        publicSuffix(of: host).map { $0.utf8.elementsEqual(host.utf8) } ?? false
    }

    /// The registrable domain (the public suffix and one label more), or `nil` when `host` is a
    /// public suffix itself or an IP address.
    public func registrableDomain(of host: String) -> String? {
        guard let suffix = publicSuffix(of: host), !suffix.utf8.elementsEqual(host.utf8) else { return nil }
        let labels = host.split(separator: ".")
        let count = suffix.split(separator: ".").count + 1
        return labels.suffix(count).joined(separator: ".")
    }

    static func isIPv4(_ host: String) -> Bool {
        // Four parts of one to three ASCII digits, each at most 255; read byte by byte, since it
        // runs for every request a cookie jar is asked about.
        var parts = 0
        var digits = 0
        var value = 0
        for byte in host.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, parts < 3 else { return false }
                parts += 1
                digits = 0
                value = 0
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard digits <= 3, value <= 255 else { return false }
            } else {
                return false
            }
        }
        return parts == 3 && digits > 0
    }
}
