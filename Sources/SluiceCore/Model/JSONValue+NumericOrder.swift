extension JSONValue {
    /// How two numbers compare, exactly: -1, 0 or 1; `nil` when either is not a number, or is NaN.
    ///
    /// No number is rounded to a `Double` first: `9007199254740993` is greater than
    /// `9007199254740992.0`, and `18446744073709551617` greater than `18446744073709551616`. An
    /// integer and a double compare by value (`2` equals `2.0`).
    public static func numericOrder(_ left: JSONValue, _ right: JSONValue) -> Int? {
        switch (left, right) {
        case (.int(let left), .int(let right)): return left < right ? -1 : left == right ? 0 : 1
        case (.double(let left), .double(let right)): return order(left, right)
        case (.int(let left), .double(let right)): return order(left, right)
        case (.double(let left), .int(let right)): return order(right, left).map { -$0 }
        case (.bigInteger(let left), .bigInteger(let right)): return DecimalInteger(left).order(DecimalInteger(right))
        case (.bigInteger(let left), .int(let right)): return DecimalInteger(left).order(DecimalInteger(String(right)))
        case (.int(let left), .bigInteger(let right)): return DecimalInteger(String(left)).order(DecimalInteger(right))
        case (.bigInteger(let left), .double(let right)): return order(DecimalInteger(left), right)
        case (.double(let left), .bigInteger(let right)): return order(DecimalInteger(right), left).map { -$0 }
        default: return nil
        }
    }

    private static func order(_ left: Double, _ right: Double) -> Int? {
        if left < right { return -1 }
        if left > right { return 1 }
        return left == right ? 0 : nil
    }

    private static func order(_ integer: Int, _ double: Double) -> Int? {
        guard !double.isNaN else { return nil }
        // Doubles at or past 2^63 in size are past every Int.
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = Int(double.rounded(.towardZero))
        if integer != whole { return integer < whole ? -1 : 1 }
        let fraction = double - double.rounded(.towardZero)
        return fraction > 0 ? -1 : fraction < 0 ? 1 : 0
    }

    /// An integer of any size against a double: against the double's whole part, written out
    /// exactly, then its fraction.
    private static func order(_ integer: DecimalInteger, _ double: Double) -> Int? {
        guard !double.isNaN else { return nil }
        guard double.isFinite else { return double > 0 ? -1 : 1 }
        let floor = double.rounded(.down)
        let order = integer.order(DecimalInteger(exactly: floor))
        // integer <= floor < double when there is a fraction; integer > floor means integer > double.
        return floor == double ? order : (order <= 0 ? -1 : 1)
    }
}

/// An integer of any size as its sign and decimal digits, without leading zeros: what
/// ``JSONValue/numericOrder(_:_:)`` compares big integers as.
private struct DecimalInteger {
    var negative: Bool
    /// The digits' ASCII codes, most significant first; `[0x30]` for zero.
    var digits: [UInt8]

    /// From `-?[0-9]+` text.
    init(_ text: String) {
        var bytes = Array(text.utf8)
        negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes.removeFirst() }
        let significant = bytes.drop { $0 == UInt8(ascii: "0") }
        digits = significant.isEmpty ? [UInt8(ascii: "0")] : Array(significant)
        if digits == [UInt8(ascii: "0")] { negative = false }
    }

    /// An integral, finite double written out exactly: its significand doubled once for each
    /// power of two of its exponent, in decimal.
    init(exactly double: Double) {
        guard abs(double) >= 0x1p63 else {
            self.init(String(Int(double)))
            return
        }
        self.init(negative: double < 0, magnitude: double)
    }

    private init(negative: Bool, magnitude double: Double) {
        let exponent = Int(double.exponent) - Double.significandBitCount
        var value = Array(String(UInt64(abs(double).significand * 0x1p52)).utf8).map { $0 - UInt8(ascii: "0") }
        for _ in 0..<exponent {
            var carry: UInt8 = 0
            for index in value.indices.reversed() {
                let doubled = value[index] * 2 + carry
                value[index] = doubled % 10
                carry = doubled / 10
            }
            if carry > 0 { value.insert(carry, at: 0) }
        }
        self.negative = negative
        digits = value.map { $0 + UInt8(ascii: "0") }
    }

    /// -1, 0 or 1.
    func order(_ other: DecimalInteger) -> Int {
        if negative != other.negative { return negative ? -1 : 1 }
        let magnitude: Int
        if digits.count != other.digits.count {
            magnitude = digits.count < other.digits.count ? -1 : 1
        } else if digits == other.digits {
            magnitude = 0
        } else {
            magnitude = digits.lexicographicallyPrecedes(other.digits) ? -1 : 1
        }
        return negative ? -magnitude : magnitude
    }
}
