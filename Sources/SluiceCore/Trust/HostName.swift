internal import CIDN2

/// Host names as trust policies compare them: ASCII letters in lower case, no trailing dot, and
/// internationalized names as IDNA A-labels (UTS #46 non-transitional processing, with transitional
/// as the fallback, as libcurl converts a name before it connects), so that `API.Example.com.`,
/// `api.example.com` and the Unicode and Punycode spellings of one name are the same host.
enum HostName {
    /// The normalized form of `host`; `nil` when it is not a host name IDNA accepts. An IP
    /// address (IPv6 with or without brackets) comes back lowercased, brackets removed.
    static func normalized(_ host: String) -> String? {
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if name.utf8.last == UInt8(ascii: ".") { name = name.dropLast() }
        guard !name.isEmpty else { return nil }
        if name.utf8.contains(UInt8(ascii: ":")) || name.utf8.allSatisfy({ $0 < 0x80 }) {
            guard name.utf8.allSatisfy(isHostByte) else { return nil }
            let lowered = name.asciiLowercased
            return lowered.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) ? nil : lowered
        }
        return aLabels(String(name))
    }

    /// Whether `host` (normalized) is covered by `pattern` (normalized): the same name; for
    /// `*.DOMAIN`, any name below DOMAIN, at any depth; for `**.DOMAIN`, DOMAIN itself too.
    static func matches(_ host: String, pattern: String) -> Bool {
        if pattern.utf8.starts(with: "**.".utf8) {
            let domain = pattern.utf8.dropFirst(3)
            return host.utf8.elementsEqual(domain) || isBelow(host, domain)
        }
        if pattern.utf8.starts(with: "*.".utf8) {
            return isBelow(host, pattern.utf8.dropFirst(2))
        }
        return host.utf8.elementsEqual(pattern.utf8)
    }

    /// A policy's `hosts` entry, normalized: a host name, or `*.` or `**.` and one; `nil` when
    /// the name is not one.
    static func normalizedPattern(_ pattern: String) -> String? {
        for prefix in ["**.", "*."] where pattern.utf8.starts(with: prefix.utf8) {
            return normalized(String(pattern.dropFirst(prefix.count))).map { prefix + $0 }
        }
        return pattern.contains("*") ? nil : normalized(pattern)
    }

    /// Whether `host` is a name below `domain` (`a.example.com` below `example.com`), by bytes.
    static func isBelow(_ host: String, _ domain: Substring.UTF8View) -> Bool {
        let host = host.utf8
        guard host.count > domain.count + 1 else { return false }
        let dot = host.index(host.endIndex, offsetBy: -(domain.count + 1))
        return host[dot] == UInt8(ascii: ".") && host[host.index(after: dot)...].elementsEqual(domain)
    }

    /// Letters, digits, `-`, `.`, `_` (seen in real names), and `:` and hex for IPv6.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"):
            true
        default:
            false
        }
    }

    /// The A-label form by libidn2, non-transitional first, then transitional.
    private static func aLabels(_ name: String) -> String? {
        for flags in [Int32(IDN2_NFC_INPUT.rawValue | IDN2_NONTRANSITIONAL.rawValue), Int32(IDN2_NFC_INPUT.rawValue | IDN2_TRANSITIONAL.rawValue)] {
            var output: UnsafeMutablePointer<CChar>?
            if idn2_to_ascii_8z(name, &output, flags) == Int32(IDN2_OK.rawValue), let output {
                defer { idn2_free(output) }
                return normalized(String(cString: output))
            }
        }
        return nil
    }
}
