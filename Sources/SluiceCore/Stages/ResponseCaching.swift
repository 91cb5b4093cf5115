import Foundation

/// A private HTTP cache (RFC 9111) in front of the network, over a ``CacheStore``.
///
/// - A `GET` whose stored response is fresh (`max-age`, else `Expires`, else 10% of the time since
///   `Last-Modified`, less its `Age`) is answered from the store: nothing is sent. The request's
///   own `Cache-Control` (`no-cache`, `max-age`, `min-fresh`, `max-stale`, `only-if-cached`,
///   `no-store`) and `Pragma: no-cache` are honoured; a fresh `immutable` response (RFC 8246) is
///   served despite the request's `max-age=0` (a reload), not despite its `no-cache`.
/// - A stored response that is stale, or marked `no-cache`, is validated: the request goes out
///   with `If-None-Match` and `If-Modified-Since` from its `ETag` and `Last-Modified`, and a
///   `304 Not Modified` whose validators agree is merged into the stored head and returned. A
///   `304` with other validators is not taken: the request is sent again without conditions.
/// - A response is stored when RFC 9111 section 3 allows: not `no-store`, not `Vary: *`, with
///   explicit freshness, `public`, `private`, or a status that allows the heuristic. `Vary` is
///   honoured; connection fields and `Set-Cookie` are never stored.
/// - A successful unsafe request (`POST`, `PUT`, `DELETE`, `PATCH` …) removes the stored response
///   for its URL, and for its `Location` and `Content-Location` when they are on its origin.
/// - With ``staleIfError`` set, a stale response is returned, as `stale`, when the exchange fails
///   or answers 500, 502, 503 or 504 (RFC 5861), unless it is marked `must-revalidate`,
///   `no-cache` or `no-store`.
/// - Tasks that need the network for the same URL at once share one exchange: the others wait
///   for it, then take its response from the store when it was stored, or go on their own.
/// - Requests with their own conditions (`If-None-Match`, `If-Modified-Since`, `If-Match`,
///   `If-Unmodified-Since`, `If-Range`) pass through untouched. A `Range` request for one byte
///   range is answered from a usable stored complete `200` response (a `206` with
///   `Content-Range`); any other `Range` request passes through.
/// - A `HEAD` is answered from a usable stored `GET` response, and a `200` to a `HEAD` whose
///   validators agree freshens it (RFC 9111 section 4.3.5).
/// - `stale-while-revalidate` (RFC 5861): a response stale by no more than its window is served
///   at once and revalidated in a task of its own (``TaskContext/sendAfterResponse(_:)``).
///
/// What to do with a request is decided from the time, the request's directives and the stored
/// response alone (a pure decision, tested at the instants either side of each rule's boundary);
/// the stage reads the time from `now`, the system clock unless given.
///
/// Every exchange the stage handles is reported as a ``CacheOutcome``: on the response
/// (``Response/cacheOutcome``), in ``TaskMetrics/cacheOutcomes``, and as a note (`cache: hit …`)
/// for event monitors and `--verbose`.
///
/// It is a hop stage (``StagePlacement/cache``), wherever it is listed: it sees every redirect
/// hop, each stored under its own URL, below ``CookieHandling`` (cookies are sent on the request it
/// keys and varies on) and below ``Serialization`` (which writes the query it keys on); the call
/// stages above it, ``ResponseDecoding`` among them, see a revalidated response as the stored one.
///
/// ```swift
/// let cache = ResponseCaching(store: try DiskCacheStore(directory: cacheDirectory))   // such as /var/cache/app
/// let pipeline = try Pipeline { cache }
/// ```
public struct ResponseCaching: Stage {
    /// Where responses are kept; several stages, and several processes for a ``DiskCacheStore``,
    /// may share one.
    public let store: any CacheStore
    /// How stale a response may be and still be returned when the server fails (RFC 5861), or
    /// `nil` (the default) to never return a stale response. A response's own `stale-if-error=N`
    /// allows N seconds when that is longer; `.zero` honours only the responses' own.
    public let staleIfError: Duration?

    /// The exchanges under way, which tasks asking for the same response wait for.
    let flights = SingleFlight()
    /// The clock every decision reads: the time a response is judged fresh at, and the request
    /// and response times stored with it.
    private let now: @Sendable () -> Date

    /// `cache`.
    public var name: String { "cache" }

    /// ``StagePlacement/cache``: a hop stage below cookies, so each hop is stored under its own URL
    /// and a response with `Vary: Cookie` is kept per cookie sent.
    public static var placement: StagePlacement { .cache }

    /// The cache: two would store and answer the same exchanges.
    public var claims: [String] { ["the cache"] }

    /// Creates the stage over a store, a 16 MiB ``MemoryCacheStore`` unless given.
    /// - Parameters:
    ///   - store: where responses are kept.
    ///   - staleIfError: how stale a response may be returned when the server fails.
    ///   - now: the clock freshness is judged by; the system's by default.
    public init(store: any CacheStore = MemoryCacheStore(), staleIfError: Duration? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.staleIfError = staleIfError
        self.now = now
    }

    /// Answers from the store, validates, or sends, as the type's description says.
    public func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        guard let key = CacheRules.key(for: request.url) else { return try await next(request, context) }
        if request.method == .head { return try await head(request, key: key, context: context, next: next) }
        guard request.method == .get else {
            let response = try await next(request, context)
            if !ResponseCaching.safeMethods.contains(request.method), (200..<400).contains(response.status) {
                for key in CacheRules.invalidatedKeys(response, request: request) { store.remove(key) }
            }
            return response
        }
        if let range = request.headers["Range"], ResponseCaching.conditionalFields.filter({ $0 != "Range" }).allSatisfy({ !request.headers.contains($0) }),
            let partial = try? await servePart(range, of: key, to: request, context: context)
        {
            return partial
        }
        guard !ResponseCaching.conditionalFields.contains(where: request.headers.contains) else { return try await next(request, context) }
        let directives = CacheDecision.requestDirectives(request.headers)
        let revalidating = request.stageValues[BackgroundRevalidation.self] != nil
        var followed = false
        while true {
            var stored = lookUp(key, for: request)
            switch CacheDecision.decide(directives: directives, stored: stored?.head, now: now(), revalidating: revalidating) {
            case .serve(let freshness):
                // A stored body that cannot be read back is dropped, and the request goes out.
                if let stored, let response = try? await serve(stored, as: .hit, freshness: freshness, to: request, context: context, detail: followed ? "shared another task's exchange" : nil) {
                    return response
                }
                store.remove(key)
                continue
            case .serveStaleWhileRevalidating(let freshness):
                if let stored, let response = try? await serve(stored, as: .stale, freshness: freshness, to: request, context: context, detail: "stale-while-revalidate: revalidated in the background") {
                    // The task's own request, as its caller gave it: it runs the whole chain again,
                    // and the stages above (cookies) add their fields afresh, never twice.
                    var revalidation = context.request
                    revalidation.destination = .memory
                    revalidation.stageValues[BackgroundRevalidation.self] = true
                    context.sendAfterResponse(revalidation)
                    return response
                }
            case .unsatisfiable:
                let response = Response(status: 504, headers: ["Content-Length": "0"], url: request.url)
                return report(response, as: .miss, context: context, detail: "only-if-cached and nothing usable is stored")
            case .send:
                break
            }
            var leading = false
            if !followed, !directives.contains("no-store") {
                switch await flights.join(key) {
                case .followed:
                    followed = true
                    try Task.checkCancellation()
                    continue
                case .leader:
                    leading = true
                }
            }
            defer { if leading { flights.land(key) } }
            if leading {
                // A flight that landed between the look-up above and the join may have stored it.
                stored = lookUp(key, for: request)
                if let stored, let freshness = CacheDecision.usable(stored.head, directives: directives, now: now()) {
                    return try await serve(stored, as: .hit, freshness: freshness, to: request, context: context)
                }
            }
            return try await fetch(request, key: key, stored: stored, directives: directives, context: context, next: next)
        }
    }

    /// A `HEAD` (RFC 9111 section 4.3.5): answered from a usable stored `GET` response, its head
    /// without the body; else sent on, and a `200` whose validators agree with the stored response
    /// freshens it with its fields, so a later `GET` is served from the store.
    private func head(_ request: Request, key: String, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        guard !ResponseCaching.conditionalFields.contains(where: request.headers.contains) else { return try await next(request, context) }
        let stored = lookUp(key, for: request)
        if let stored, let freshness = CacheDecision.usable(stored.head, directives: CacheDecision.requestDirectives(request.headers), now: now()) {
            return report(headResponse(stored, freshness: freshness, to: request), as: .hit, context: context, detail: "the stored GET response's head; \(ResponseCaching.age(freshness))")
        }
        let requestTime = now()
        let response = try await next(request, context)
        if let stored, response.status == 200, CacheRules.notModified(response.headers, matches: stored.head.headers) {
            freshen(stored, with: response.headers, requestTime: requestTime)
        }
        return response
    }

    /// A `Range` request answered from a usable stored complete `200` response: a `206` with the
    /// bytes it asks for and their `Content-Range` (RFC 9111 section 3.4, RFC 9110 section 14);
    /// `nil` (the request goes out as it is) for several ranges, an unsatisfiable one, a stored
    /// response with a content coding, or nothing usable stored.
    /// - Throws: when the stored body cannot be read back.
    private func servePart(_ field: String, of key: String, to request: Request, context: TaskContext) async throws -> Response? {
        // The stored body is decoded: ranges of a content-coded representation are the server's to cut.
        guard let range = ByteRange(field: field), let stored = lookUp(key, for: request), stored.head.status == 200,
            stored.head.headers["Content-Encoding"].map({ $0.lowercased() == "identity" }) ?? true,
            let freshness = CacheDecision.usable(stored.head, directives: CacheDecision.requestDirectives(request.headers), now: now())
        else { return nil }
        let body = try stored.body.data()
        guard let bounds = range.bounds(in: body.count) else { return nil }
        var response = headResponse(stored, freshness: freshness, to: request)
        response.status = 206
        response.headers["Content-Range"] = "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(body.count)"
        response.headers["Content-Length"] = String(bounds.count)
        let part = body.subdata(in: (body.startIndex + bounds.lowerBound)..<(body.startIndex + bounds.upperBound + 1))
        switch request.destination {
        case .memory:
            response.body = part
        case .file:
            response = try await FileDownload.deliver(response, body: .memory(part), for: request)
        case .stream:
            response.bodyStream = ResponseBodyStream(part, url: response.url)
        }
        return report(response, as: .hit, context: context, detail: "bytes \(bounds.lowerBound)-\(bounds.upperBound) of the stored response; \(ResponseCaching.age(freshness))")
    }

    // MARK: Network

    /// Sends the request, conditional on `stored` when it has validators, and makes the
    /// response's outcome: stored, merged, or replaced by the stale response on an error.
    private func fetch(
        _ request: Request, key: String, stored: CachedResponse?, directives: CacheControl, context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        var sent = request
        let conditions = stored.map { CacheDecision.conditions($0.head) } ?? [:]
        for field in conditions { sent.headers[field.name] = field.value }
        let conditional = !conditions.isEmpty
        var requestTime = now()
        var response: Response
        do {
            response = try await next(sent, context)
        } catch let error as SluiceError where error.kind != .cancelled {
            if let stored, let freshness = CacheDecision.staleOnError(stored.head, allowance: staleIfError, now: now()) {
                return try await serve(stored, as: .stale, freshness: freshness, to: request, context: context, detail: "the exchange failed: \(error.kind)")
            }
            // RFC 9111 section 5.2.2.2: a response that must be revalidated, when the server
            // cannot be reached, gets an error response generated in its place, a 504.
            if let stored, ResponseCaching.transportKinds.contains(error.kind), CacheDecision.forbidsStale(CacheControl(stored.head.headers)) {
                let response = Response(status: 504, headers: ["Content-Length": "0"], url: request.url)
                return report(response, as: .miss, context: context, detail: "the stored response must be revalidated, and the validation failed (\(error.kind): \(error.message)); 504 generated as RFC 9111 section 5.2.2.2 says")
            }
            throw error
        }
        if conditional, let stored, response.status == 304 {
            if CacheRules.notModified(response.headers, matches: stored.head.headers) {
                let head = freshen(stored, with: response.headers, requestTime: requestTime)
                let merged = CachedResponse(head: head, body: stored.body)
                return try await serve(merged, as: .revalidated, freshness: Freshness(head, now: head.responseTime), to: request, context: context, transfer: response.metrics)
            }
            context.note("mismatch", "the 304 carries validators other than the stored response's; sending again without conditions", stage: name)
            requestTime = now()
            response = try await next(request, context)
        }
        if let stored, ResponseCaching.errorStatuses.contains(response.status), let freshness = CacheDecision.staleOnError(stored.head, allowance: staleIfError, now: now()) {
            return try await serve(stored, as: .stale, freshness: freshness, to: request, context: context, detail: "the server answered \(response.status)")
        }
        if CacheRules.isStorable(response, request: request, requestControl: directives) {
            keep(response, key: key, request: request, requestTime: requestTime, context: context)
        } else if stored != nil, response.status < 500 {
            store.remove(key)
        }
        return report(response, as: .miss, context: context, detail: nil)
    }

    /// The stored head with the fields of a response that validated it (a `304`, or a `HEAD`'s
    /// `200`) merged in, timed by this exchange, and kept; a store that fails keeps the old head.
    @discardableResult
    private func freshen(_ stored: CachedResponse, with fields: HTTPHeaders, requestTime: Date) -> CachedResponse.Head {
        let received = now()
        var head = stored.head.merging(notModified: fields, received: received)
        head.requestTime = requestTime
        head.responseTime = received
        try? store.update(head)
        return head
    }

    /// Stores a response; a store that fails is noted and the response still returned.
    private func keep(_ response: Response, key: String, request: Request, requestTime: Date, context: TaskContext) {
        guard response.bodyStream == nil else {
            context.note("not-stored", "the response was not stored: its body is streamed to the caller, never held whole", stage: name)
            return
        }
        let received = now()
        let head = CachedResponse.Head(
            key: key, status: response.status, headers: CacheRules.storedFields(response.headers, received: received),
            url: (response.url ?? request.url).absoluteString, httpVersion: response.httpVersion,
            requestTime: requestTime, responseTime: received, vary: VaryKey.fingerprint(vary: response.headers, request: request.headers, trust: request.governingTrustPolicy?.cacheIdentity)
        )
        do {
            let body = try response.bodyFile.map { (file) throws(SluiceError) in try CachedBody(contentsOf: file) } ?? CachedBody(response.body)
            try store.store(CachedResponse(head: head, body: body))
        } catch {
            context.note("store-failed", "the response was not stored: \(error)", stage: name)
        }
    }

    // MARK: Stored responses

    /// The stored response for `key` that the request's `Vary` fields select.
    private func lookUp(_ key: String, for request: Request) -> CachedResponse? {
        guard let stored = store.response(for: key), VaryKey.matches(stored.head, request: request.headers, trust: request.governingTrustPolicy?.cacheIdentity) else { return nil }
        if let limit = request.maxResponseSize, stored.body.count > limit { return nil }
        return stored
    }

    /// Marks the request a stale-while-revalidate response sends afterwards: the cache then
    /// validates it instead of serving the stale response again.
    private enum BackgroundRevalidation: StageValueKey { typealias Value = Bool }

    /// The stored response as the response to `request`: its body in memory or written to the
    /// request's file, and an `Age` field with its current age (RFC 9111 section 5.1).
    private func serve(
        _ stored: CachedResponse, as outcome: CacheOutcome, freshness: Freshness, to request: Request, context: TaskContext,
        detail: String? = nil, transfer: TransferMetrics? = nil
    ) async throws -> Response {
        var response = headResponse(stored, freshness: freshness, to: request, transfer: transfer)
        switch request.destination {
        case .memory:
            response.body = try stored.body.data()
        case .file:
            response = try await FileDownload.deliver(response, body: .stored(stored.body), for: request)
        case .stream:
            response.bodyStream = ResponseBodyStream(try stored.body.data(), url: response.url)
        }
        return report(response, as: outcome, context: context, detail: [ResponseCaching.age(freshness), detail].compactMap(\.self).joined(separator: "; "))
    }

    /// The stored response's status and fields, with an `Age` field of its current age (RFC 9111
    /// section 5.1), and no body.
    private func headResponse(_ stored: CachedResponse, freshness: Freshness, to request: Request, transfer: TransferMetrics? = nil) -> Response {
        var response = Response(
            status: stored.head.status, headers: stored.head.headers, url: URL(string: stored.head.url) ?? request.url,
            httpVersion: stored.head.httpVersion, metrics: transfer
        )
        response.headers["Age"] = String(Int(min(freshness.age, Double(CacheControl.maximumSeconds)).rounded(.down)))
        return response
    }

    /// `age 12 s of 60 s`, for notes.
    private static func age(_ freshness: Freshness) -> String {
        "age \(Int(freshness.age)) s of \(Int(freshness.lifetime)) s\(freshness.isHeuristic ? " (heuristic)" : "")"
    }

    /// Records the outcome on the response, the task's metrics and its notes.
    private func report(_ response: Response, as outcome: CacheOutcome, context: TaskContext, detail: String?) -> Response {
        var response = response
        response.cacheOutcome = outcome
        let target = response.url?.absoluteString ?? context.request.url.absoluteString
        let note = StageNote(stage: name, name: outcome.rawValue, detail: "\(outcome.rawValue) \(target)" + (detail.map { " (\($0))" } ?? ""))
        context.note(note) { $0.cacheOutcomes.append(outcome) }
        return response
    }

    // MARK: Requests

    private static let safeMethods: Set<HTTPMethod> = [.get, .head, .options, .trace]
    private static let errorStatuses: Set<Int> = [500, 502, 503, 504]
    /// The errors of a server that cannot be reached, or that drops the connection, after which a
    /// response that must be revalidated gets a generated 504. Not a timeout: the caller set it, and
    /// hears of it as such.
    private static let transportKinds: Set<SluiceError.Kind> = [.connect, .connectTimeout, .connectionLost, .dns]

    private static let conditionalFields = ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"]
}

extension Response {
    private enum Outcome: StageValueKey { typealias Value = CacheOutcome }

    /// What a ``ResponseCaching`` stage did for this response: returned it from the store,
    /// validated it, or fetched it; `nil` when no cache handled it.
    public var cacheOutcome: CacheOutcome? {
        get { stageValues[Outcome.self] }
        set { stageValues[Outcome.self] = newValue }
    }
}

extension TaskMetrics {
    private enum Outcomes: StageValueKey { typealias Value = [CacheOutcome] }

    /// What a ``ResponseCaching`` stage did for each exchange it handled (one per redirect hop),
    /// in order.
    public var cacheOutcomes: [CacheOutcome] {
        get { stageValues[Outcomes.self] ?? [] }
        set { stageValues[Outcomes.self] = newValue }
    }
}
