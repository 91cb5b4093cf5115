internal import CPSL
import Foundation

/// The Public Suffix List (publicsuffix.org): the names under which anyone may register a domain
/// (`com`, `co.uk`, `github.io`), so that a cookie's `Domain` cannot name one and reach every site
/// below it (RFC 6265 section 5.3, step 5).
///
/// ``system`` is libpsl's newest copy, as libcurl's: the compiled list Debian's `publicsuffix`
/// package installs (`/usr/share/publicsuffix/public_suffix_list.dafsa`) or the one built into
/// libpsl, whichever is newer. It is loaded in about 0.1 ms and looked up where it lies, so the
/// first cookie a process meets costs no more than the next (parsing the list's 250 KB of text
/// took 80 ms). A list can also be read from its text (``init(text:)``), for a copy of your own.
/// Where libpsl has no list at all, the fallback treats every single-label name (`com`, `local`)
/// as a public suffix, as curl does without libpsl: `Domain=co.uk` is then accepted.
public struct PublicSuffixList: Sendable {
    private var rules: Set<String> = []
    private var wildcards: Set<String> = []
    private var exceptions: Set<String> = []
    /// libpsl's list, when this is the system's; the rule sets above are empty then.
    private var compiled: CompiledList?
    /// Whether this is the single-label fallback rather than a list.
    public let isFallback: Bool

    /// The system's list (libpsl's newest), loaded once, or the single-label fallback when libpsl
    /// has none.
    public static let system: PublicSuffixList = CompiledList.latest.map(PublicSuffixList.init(compiled:)) ?? .singleLabel

    /// The fallback: every single-label name is a public suffix, nothing else is.
    public static let singleLabel = PublicSuffixList(text: "", isFallback: true)

    private init(compiled: CompiledList) {
        self.compiled = compiled
        isFallback = false
    }

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
        guard !host.utf8.contains(UInt8(ascii: ":")), !Self.isIPv4(host) else { return nil }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty, !labels.contains(where: \.isEmpty) else { return nil }
        if let compiled { return compiled.publicSuffix(of: host) }
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

/// A list libpsl loaded (`psl_latest`), never freed: the one the process keeps in ``PublicSuffixList/system``.
/// libpsl only reads a loaded list, so lookups from any thread are safe.
private final class CompiledList: @unchecked Sendable {
    private let context: OpaquePointer

    private init(context: OpaquePointer) {
        self.context = context
    }

    /// libpsl's newest list: the distribution's compiled file or libpsl's built-in one.
    static var latest: CompiledList? {
        psl_latest(nil).map(CompiledList.init(context:))
    }

    /// The public suffix of a normalized host name (the longest matching rule, exceptions first,
    /// `*` when none matches), as libpsl finds it.
    func publicSuffix(of host: String) -> String? {
        // libpsl answers with a pointer into the name it was given: read it while that lives.
        host.withCString { name in psl_unregistrable_domain(context, name).map { String(cString: $0) } }
    }
}
