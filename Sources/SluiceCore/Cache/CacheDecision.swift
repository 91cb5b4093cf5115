import Foundation

/// What a private cache does with a `GET`, decided from the time, the request's directives and
/// the stored response alone: no store, no network and no clock of its own, so each rule of RFC
/// 9111 and RFC 5861 is a function a test calls with the instant it likes (OkHttp's
/// `CacheStrategy`, computed from `now`, the request and the candidate response).
///
/// ``ResponseCaching`` asks it, with its clock, for every request it may answer.
package enum CacheDecision: Equatable {
    /// The stored response answers: nothing is sent.
    case serve(Freshness)
    /// The stored response answers at once, stale within its `stale-while-revalidate` window, and
    /// is revalidated in a task of its own.
    case serveStaleWhileRevalidating(Freshness)
    /// The request goes out, with the stored response's validators as `conditions`
    /// (`If-None-Match`, `If-Modified-Since`; none when nothing usable is stored or it has none).
    case send(conditions: HTTPHeaders)
    /// `only-if-cached` and nothing usable stored: a generated 504, nothing sent.
    case unsatisfiable

    /// The decision for a request with `directives` (``requestDirectives(_:)``) and `stored`, the
    /// response the store holds for it (`Vary` already matched), at `now`.
    /// - Parameter revalidating: whether the request is a stale-while-revalidate response's own
    ///   background revalidation, which must not be answered stale again.
    package static func decide(directives: CacheControl, stored: CachedResponse.Head?, now: Date, revalidating: Bool = false) -> CacheDecision {
        if let stored {
            if let freshness = usable(stored, directives: directives, now: now) { return .serve(freshness) }
            if !revalidating, let freshness = staleWhileRevalidating(stored, directives: directives, now: now) {
                return .serveStaleWhileRevalidating(freshness)
            }
        }
        if directives.contains("only-if-cached") { return .unsatisfiable }
        return .send(conditions: stored.map(conditions) ?? [:])
    }

    /// The fields that make a request conditional on `stored`: `If-None-Match` from its `ETag`,
    /// `If-Modified-Since` from its `Last-Modified`.
    package static func conditions(_ stored: CachedResponse.Head) -> HTTPHeaders {
        var fields = HTTPHeaders()
        if let tag = stored.headers["ETag"] { fields["If-None-Match"] = tag }
        if let modified = stored.headers["Last-Modified"] { fields["If-Modified-Since"] = modified }
        return fields
    }

    /// The stored response's freshness when it may be returned without validation (RFC 9111
    /// section 4.2 and the request directives of section 5.2.1).
    package static func usable(_ stored: CachedResponse.Head, directives: CacheControl, now: Date) -> Freshness? {
        let control = CacheControl(stored.headers)
        guard !directives.contains("no-cache"), !control.contains("no-cache") else { return nil }
        let freshness = Freshness(stored, now: now)
        switch directives.seconds("max-age") {
        case .value(let seconds) where freshness.age <= Double(seconds): break
        case .absent: break
        // RFC 8246: a fresh immutable response is not revalidated on a reload (max-age=0); a
        // forced reload says no-cache, checked above.
        case .value where control.contains("immutable") && freshness.isFresh: break
        default: return nil
        }
        switch directives.seconds("min-fresh") {
        case .value(let seconds) where freshness.lifetime - freshness.age >= Double(seconds): break
        case .absent: break
        default: return nil
        }
        if freshness.isFresh { return freshness }
        guard !control.contains("must-revalidate") else { return nil }
        switch directives.seconds("max-stale") {
        case .unbounded: return freshness
        case .value(let seconds) where freshness.staleness <= Double(seconds): return freshness
        default: return nil
        }
    }

    /// The stored response's freshness when its `stale-while-revalidate` (RFC 5861) lets it be
    /// served while it is revalidated in the background: stale by no more than the directive
    /// says, neither it nor the request asking for validation.
    package static func staleWhileRevalidating(_ stored: CachedResponse.Head, directives: CacheControl, now: Date) -> Freshness? {
        let control = CacheControl(stored.headers)
        guard case .value(let window) = control.seconds("stale-while-revalidate"),
            !forbidsStale(control),
            !directives.contains("no-cache"), directives.seconds("max-age") == .absent, directives.seconds("min-fresh") == .absent
        else { return nil }
        let freshness = Freshness(stored, now: now)
        return !freshness.isFresh && freshness.staleness <= Double(window) ? freshness : nil
    }

    /// The stored response's freshness when it may stand in for a failed exchange or a 5xx
    /// (`stale-if-error`, RFC 5861): stale by no more than `allowance`, or the response's own
    /// `stale-if-error` when longer; never one marked `must-revalidate`, `no-cache` or `no-store`.
    /// `nil` allowance: the cache returns no stale response on errors.
    package static func staleOnError(_ stored: CachedResponse.Head, allowance: Duration?, now: Date) -> Freshness? {
        guard let allowance else { return nil }
        let control = CacheControl(stored.headers)
        guard !forbidsStale(control), !control.contains("no-store") else { return nil }
        let freshness = Freshness(stored, now: now)
        var allowed = Double(allowance.components.seconds) + Double(allowance.components.attoseconds) / 1e18
        if case .value(let seconds) = control.seconds("stale-if-error") { allowed = max(allowed, Double(seconds)) }
        return freshness.staleness <= allowed ? freshness : nil
    }

    /// Whether a stored response's directives forbid serving it stale in any case: `must-revalidate`
    /// or `no-cache` (RFC 9111 sections 5.2.2.2 and 5.2.2.4).
    package static func forbidsStale(_ control: CacheControl) -> Bool {
        control.contains("must-revalidate") || control.contains("no-cache")
    }

    /// The request's `Cache-Control`, with `Pragma: no-cache` read as `no-cache` when it has none
    /// (RFC 9111 section 5.4).
    package static func requestDirectives(_ headers: HTTPHeaders) -> CacheControl {
        var control = CacheControl(headers)
        if !headers.contains("Cache-Control"),
            headers.values(for: "Pragma").contains(where: { CacheControl($0).contains("no-cache") })
        {
            control.directives.append(CacheControl.Directive(name: "no-cache", argument: nil))
        }
        return control
    }
}
