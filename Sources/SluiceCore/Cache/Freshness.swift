import Foundation

/// How long a stored response stays fresh and how old it is (RFC 9111 sections 4.2.1 to 4.2.3),
/// for a private cache: `s-maxage` is a shared cache's and is not read.
public struct Freshness: Sendable, Hashable {
    /// The freshness lifetime in seconds: `max-age`, else `Expires` minus `Date`, else the
    /// heuristic; zero when none applies or a directive is invalid.
    public var lifetime: Double
    /// The current age in seconds.
    public var age: Double
    /// Whether ``lifetime`` is the heuristic: 10% of the time between `Last-Modified` and `Date`.
    public var isHeuristic: Bool

    /// Statuses a cache may store without explicit freshness, and give a heuristic lifetime
    /// (RFC 9110 section 15.1).
    public static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The freshness of a stored response at `now`.
    public init(_ head: CachedResponse.Head, now: Date = Date()) {
        let headers = head.headers
        let control = CacheControl(headers)
        let date = headers["Date"].flatMap { HTTPDate.parse($0) } ?? head.responseTime
        isHeuristic = false
        switch control.seconds("max-age") {
        case .value(let seconds):
            lifetime = Double(seconds)
        case .invalid, .unbounded:
            lifetime = 0
        case .absent:
            let expires = headers.values(for: "Expires")
            if let first = expires.first {
                // Two different Expires, or one that is not a date (`0`, `-1`), mean already expired.
                let agreed = expires.allSatisfy { Array($0.utf8) == Array(first.utf8) }
                lifetime = agreed ? HTTPDate.parse(first).map { max(0, $0.timeIntervalSince(date)) } ?? 0 : 0
            } else if Freshness.heuristicallyCacheableStatuses.contains(head.status) || control.contains("public"),
                let modified = headers["Last-Modified"].flatMap({ HTTPDate.parse($0) })
            {
                lifetime = max(0, date.timeIntervalSince(modified) / 10)
                isHeuristic = true
            } else {
                lifetime = 0
            }
        }
        let ageValue = headers["Age"].flatMap { value in
            value.split(separator: ",", omittingEmptySubsequences: false).first.flatMap { CacheControl.deltaSeconds($0.trimmingHTTPWhitespace()) }
        } ?? 0
        let apparentAge = max(0, head.responseTime.timeIntervalSince(date))
        let responseDelay = max(0, head.responseTime.timeIntervalSince(head.requestTime))
        let correctedInitialAge = max(apparentAge, Double(ageValue) + responseDelay)
        age = correctedInitialAge + max(0, now.timeIntervalSince(head.responseTime))
    }

    /// Whether the response is fresh: its lifetime is longer than its age.
    public var isFresh: Bool { lifetime > age }
    /// How long past its lifetime the response is, in seconds; zero while fresh.
    public var staleness: Double { max(0, age - lifetime) }
}
