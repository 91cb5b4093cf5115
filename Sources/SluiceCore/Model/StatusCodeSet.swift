import Foundation

/// A set of HTTP status codes written as codes and ranges, such as `200-299, 304`.
///
/// ```swift
/// let acceptable: StatusCodeSet = [200...299, 304...304]
/// let other = StatusCodeSet(codes: [200, 201])
/// ```
public struct StatusCodeSet: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The ranges, as given.
    public var ranges: [ClosedRange<Int>]

    /// Every status from 200 to 299: the default of response decoding.
    public static let successful: StatusCodeSet = [200...299]

    /// Creates a set from ranges.
    public init(_ ranges: [ClosedRange<Int>]) {
        self.ranges = ranges
    }

    /// Creates a set from ranges.
    public init(arrayLiteral elements: ClosedRange<Int>...) {
        ranges = elements
    }

    /// Creates a set from single codes.
    public init(codes: [Int]) {
        ranges = codes.map { $0...$0 }
    }

    /// The codes a response can carry: three digits (RFC 9110 section 15 makes 100 to 599 HTTP's
    /// own; servers send 600 to 999 as well).
    public static let possibleCodes = 100...999

    /// Parses `200`, `200-299`, or `2xx` (a class of a hundred codes); `nil` for anything else,
    /// and for a code no response can carry (``possibleCodes``).
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.count == 3, let digit = text.first?.wholeNumberValue, (1...5).contains(digit), text.dropFirst().lowercased() == "xx" {
            ranges = [(digit * 100)...(digit * 100 + 99)]
        } else if let code = Int(text) {
            guard Self.possibleCodes.contains(code) else { return nil }
            ranges = [code...code]
        } else {
            let bounds = text.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let low = Int(bounds[0].trimmingCharacters(in: .whitespaces)),
                let high = Int(bounds[1].trimmingCharacters(in: .whitespaces)), low <= high,
                Self.possibleCodes.contains(low), Self.possibleCodes.contains(high)
            else { return nil }
            ranges = [low...high]
        }
    }

    /// Parses each text as ``init(parsing:)`` does and merges them; `nil` when any one fails.
    public init?(parsingEach texts: [String]) {
        var ranges: [ClosedRange<Int>] = []
        for text in texts {
            guard let set = StatusCodeSet(parsing: text) else { return nil }
            ranges += set.ranges
        }
        self.init(ranges)
    }

    /// Whether the code is in the set.
    public func contains(_ code: Int) -> Bool {
        ranges.contains { $0.contains(code) }
    }

    /// The set merged with another.
    public func union(_ other: StatusCodeSet) -> StatusCodeSet {
        StatusCodeSet(ranges + other.ranges)
    }

    /// `200-299, 304`.
    public var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ", ")
    }
}
