import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

/// The arrival rate of an open-loop load run: a steady `R` requests per second, or a ramp `R1:R2`
/// that changes linearly from R1 to R2 over the run's duration (k6's ramping arrival rate, with
/// one stage).
///
/// The schedule is a pure function of the rate: request `k` (from 0) is due when the expected
/// number of arrivals since the start reaches `k`. The same inputs give the same schedule on every
/// machine, which is what lets shards split one schedule between them exactly.
public struct LoadRate: Sendable, Hashable, CustomStringConvertible {
    /// Requests per second at the start.
    public var from: Double
    /// Requests per second at the end of the duration; equal to `from` for a steady rate.
    public var to: Double

    /// The highest rate accepted, a million requests per second.
    public static let maximum = 1_000_000.0

    /// Whether `from` and `to` are rates a run can have: finite, from 0 to ``maximum``, not both 0.
    public var isValid: Bool {
        from.isFinite && to.isFinite && (0...Self.maximum).contains(from) && (0...Self.maximum).contains(to) && from + to > 0
            && (isRamp || from > 0)
    }

    /// A steady rate, or a ramp from `from` to `to`.
    public init(from: Double, to: Double? = nil) {
        self.from = from
        self.to = to ?? from
    }

    /// Reads `R` or `R1:R2`, each a positive number of requests per second (`0` is allowed at one
    /// end of a ramp); `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let rates = parts.map { part -> Double? in
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let value = Double(part), value.isFinite, value <= Self.maximum
            else { return nil }
            return value
        }
        guard let first = rates.first ?? nil, let last = rates.last ?? nil else { return nil }
        self.init(from: first, to: last)
        guard isValid else { return nil }
    }

    /// Whether the rate changes over the run.
    public var isRamp: Bool { from != to }

    /// `R/s` or `R1→R2/s`.
    public var description: String {
        // At most three decimals: a shard's share of 10/s over 3 shards reads 3.333/s.
        func number(_ value: Double) -> String {
            if let integer = Int(exactly: value) { return String(integer) }
            var text = Substring(FixedPointText.string(value, fractionDigits: 3))
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
            return String(text)
        }
        return isRamp ? "\(number(from))→\(number(to))/s" : "\(number(from))/s"
    }

    /// The rate at `elapsed` seconds into a run of `duration` seconds.
    public func rate(at elapsed: Double, duration: Double) -> Double {
        guard isRamp, duration > 0 else { return from }
        return from + (to - from) * min(max(elapsed / duration, 0), 1)
    }

    /// How many requests are due in a run of `duration` seconds: those whose ``dueTime(of:duration:)``
    /// comes before its end, request `k` being due when the area under the rate reaches `k`, so
    /// the area rounded up (request 0 is due at the start: 0.5/s for 1 s sends one, 2.5/s sends
    /// three, at 0, 0.4 and 0.8 s). An area within a billionth of a whole number is that number,
    /// so that 0.1/s for 30 s is the 3 requests it reads as, not 4 by a rounding error.
    public func arrivals(in duration: Double) -> Int {
        let area = (from + to) / 2 * duration
        let whole = area.rounded()
        return Int(abs(area - whole) <= 1e-9 * max(1, area) ? whole : area.rounded(.up))
    }

    /// When request `index` is due, in seconds from the start: the time `t` at which
    /// `from·t + (to − from)·t² / (2·duration)` reaches `index`.
    ///
    /// A steady rate needs no duration; a ramp does (it is the time the ramp takes).
    public func dueTime(of index: Int, duration: Double?) -> Double {
        let k = Double(index)
        guard k > 0 else { return 0 }
        guard isRamp, let duration, duration > 0 else { return k / from }
        let slope = (to - from) / duration
        let discriminant = from * from + 2 * slope * k
        // A ramp down never reaches arrivals past its area.
        guard discriminant > 0 else { return duration }
        // The positive root of slope/2·t² + from·t − k = 0, written so that it stays exact when
        // the slope is small (no cancellation between from and the square root).
        return 2 * k / (from + discriminant.squareRoot())
    }
}
