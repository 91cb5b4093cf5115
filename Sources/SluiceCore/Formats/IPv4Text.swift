/// A host read by the WHATWG URL Standard's IPv4 parser (section 3.5): a host whose last label is
/// a number (`10.0.0.1`, `0x7f.1`, `999999999`, `1.2.3.08`) is an IPv4 address in decimal,
/// octal (a leading `0`) or hexadecimal (`0x`) parts, or invalid; any other host is a name.
enum IPv4Text: Equatable {
    /// The host is a name: its last label is not a number.
    case notAddress
    /// The host ends in a number but is no IPv4 address.
    case invalid
    /// The address in dotted decimal.
    case address(String)

    init(host: String) {
        // Most hosts are names: a last label that does not start with a digit is no number (every
        // form of one does), so the host is a name, found without splitting it.
        guard IPv4Text.lastLabelStartsWithDigit(host) else {
            self = .notAddress
            return
        }
        var parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        guard let last = parts.last, !last.isEmpty,
            last.utf8.allSatisfy({ (0x30...0x39).contains($0) }) || IPv4Text.number(last) != nil
        else {
            self = .notAddress
            return
        }
        guard parts.count <= 4 else {
            self = .invalid
            return
        }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = IPv4Text.number(part) else {
                self = .invalid
                return
            }
            numbers.append(number)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }), let lastNumber = numbers.last,
            lastNumber < UInt64(1) << (8 * UInt64(5 - numbers.count))
        else {
            self = .invalid
            return
        }
        var address = lastNumber
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * UInt64(3 - index))
        }
        self = .address((0..<4).map { String((address >> (8 * UInt64(3 - $0))) & 0xFF) }.joined(separator: "."))
    }

    /// Whether the last label (after one trailing dot, if any) starts with an ASCII digit.
    private static func lastLabelStartsWithDigit(_ host: String) -> Bool {
        var bytes = host.utf8[...]
        if bytes.count > 1, bytes.last == UInt8(ascii: ".") { bytes = bytes.dropLast() }
        let label = bytes.lastIndex(of: UInt8(ascii: ".")).map { bytes[bytes.index(after: $0)...] } ?? bytes
        return label.first.map { (0x30...0x39).contains($0) } ?? false
    }

    /// One part: `0x` or `0X` then hex digits (none is 0), a `0` then octal digits, or decimal
    /// digits, at most 2^32 (larger values stop there); `nil` for anything else.
    private static func number(_ part: Substring) -> UInt64? {
        var digits = part
        var radix: UInt64 = 10
        if digits.count >= 2, digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
            radix = 16
            if digits.isEmpty { return 0 }
        } else if digits.count >= 2, digits.hasPrefix("0") {
            digits = digits.dropFirst()
            radix = 8
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for character in digits {
            guard let digit = character.hexDigitValue, UInt64(digit) < radix, character.isASCII else { return nil }
            // Past 2^32 no part is valid: the value stops there, still a number (as the
            // standard's mathematical integers are), so that the host ends in one.
            value = min(value * radix + UInt64(digit), UInt64(UInt32.max) + 1)
        }
        return value
    }
}
