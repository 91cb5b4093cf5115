/// Numbers written with a fixed count of decimals and no grouping (`12.3`, `1500.25`), as the
/// reports print times and sizes. Foundation's `formatted(_:)` writes the same text but took
/// about 9 µs a call through its locale machinery, a tenth of the cost of a request on loopback.
public enum FixedPointText {
    /// `value` with `fractionDigits` decimals: its shortest decimal form (the one `description`
    /// writes) rounded half to even, as `formatted(.number.precision(.fractionLength(n)))` rounds;
    /// a negative value (`-0.0` too) keeps its sign when it rounds to zero, as there. From 10^16 on
    /// (no report comes near it) the value is written as `description` writes it (`1e+16`).
    public static func string(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return value.description }
        let digitsAfterPoint = max(0, fractionDigits)
        let shortest = value.magnitude.description
        var integer: [UInt8]
        var fraction: [UInt8]
        let negative = value.sign == .minus
        if shortest.utf8.contains(UInt8(ascii: "e")) {
            // Below 1e-4 or from 1e16 on: the first rounds to zero; the second has no fraction.
            guard value.magnitude < 1 else { return negative ? "-" + shortest : shortest }
            integer = [UInt8(ascii: "0")]
            fraction = []
        } else {
            let parts = shortest.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            integer = Array(parts[0])
            fraction = parts.count > 1 ? Array(parts[1]) : []
        }
        if fraction.count > digitsAfterPoint {
            let next = fraction[digitsAfterPoint]
            let beyond = fraction[(digitsAfterPoint + 1)...].contains { $0 != UInt8(ascii: "0") }
            fraction.removeSubrange(digitsAfterPoint...)
            let last = fraction.last ?? integer[integer.count - 1]
            let odd = (last - UInt8(ascii: "0")) % 2 == 1
            if next > UInt8(ascii: "5") || (next == UInt8(ascii: "5") && (beyond || odd)) {
                var digits = integer + fraction
                var index = digits.count - 1
                while index >= 0, digits[index] == UInt8(ascii: "9") {
                    digits[index] = UInt8(ascii: "0")
                    index -= 1
                }
                if index >= 0 { digits[index] += 1 } else { digits.insert(UInt8(ascii: "1"), at: 0) }
                integer = Array(digits[..<(digits.count - fraction.count)])
                fraction = Array(digits[(digits.count - fraction.count)...])
            }
        }
        fraction += Array(repeating: UInt8(ascii: "0"), count: digitsAfterPoint - fraction.count)
        var text = negative ? "-" : ""
        text += String(decoding: integer, as: UTF8.self)
        if digitsAfterPoint > 0 {
            text += "."
            text += String(decoding: fraction, as: UTF8.self)
        }
        return text
    }
}
