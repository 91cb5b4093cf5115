/// Where a stage runs in a pipeline's chain: its level, then its rank within the level.
///
/// A ``Pipeline`` has two levels, as OkHttp has application and network interceptors:
/// - A **call** stage sees the logical request once, and its final response: URL resolution,
///   header injection, serialization, response decoding, then the stages that send more than once
///   (`retry`, `redirects`), which are the boundary with the level below.
/// - A **hop** stage runs for every exchange on the wire: each redirect hop and each retry's
///   attempt passes it (cookies, the cache, the connection's settings: proxy, trust, reachability).
///
/// The pipeline sorts its stages by level, then by rank (a lower rank runs first: nearer the
/// caller, further from the network), whatever order they were listed in; stages of the same
/// level and rank keep the order they were listed in. So the built-in stages run in one order,
/// the same for every way a user may write them, and a custom stage, at ``call`` unless it says
/// otherwise, keeps its place among the custom stages of its level.
///
/// The rank of each built-in stage, and why it is there, is in the table of <doc:Chain>; each
/// also has a constant here (``urlResolution`` … ``exchangeObserver``).
///
/// ```swift
/// struct WireLog: Stage {
///     static var placement: StagePlacement { .hop }
///     func handle(_ request: Request, context: TaskContext,
///                 next: (Request, TaskContext) async throws -> Response) async throws -> Response {
///         try await next(request, context)
///     }
/// }
/// ```
public struct StagePlacement: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The two levels of a chain.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// Once per task: the logical request and its final response.
        case call
        /// Once per exchange: every redirect hop and every retry's attempt.
        case hop

        /// `call` or `hop`.
        public var description: String { self == .call ? "call" : "hop" }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The level.
    public var level: Level
    /// The rank within the level: lower runs first on the way out (nearer the caller).
    public var rank: Int

    /// Creates a placement.
    public init(_ level: Level, rank: Int) {
        self.level = level
        self.rank = rank
    }

    /// `call 500`, `hop 100`.
    public var description: String { "\(level) \(rank)" }

    /// Orders by level, then by rank.
    public static func < (lhs: StagePlacement, rhs: StagePlacement) -> Bool {
        (lhs.level, lhs.rank) < (rhs.level, rhs.rank)
    }

    /// A custom call stage, the default: below the stages that build the request (so it sees the
    /// absolute URL, the headers and the serialized body) and the decoding of the response (so a
    /// response it returns is decoded), above authorization, signing and the stages that resend.
    public static let call = StagePlacement(.call, rank: 500)
    /// A custom hop stage: below cookies, the cache and the connection's settings, so it sees each
    /// exchange that goes to the network, as sent; above the observers that record it.
    public static let hop = StagePlacement(.hop, rank: 500)

    /// Observers of the whole call, above every other stage (tracing's span of the task).
    public static let callObserver = StagePlacement(.call, rank: 0)
    /// ``URLResolution``.
    public static let urlResolution = StagePlacement(.call, rank: 100)
    /// ``HeaderInjection``.
    public static let headerInjection = StagePlacement(.call, rank: 200)
    /// ``Serialization``.
    public static let serialization = StagePlacement(.call, rank: 300)
    /// ``ResponseDecoding``.
    public static let responseDecoding = StagePlacement(.call, rank: 400)
    /// Stages that authorize the call (an OAuth 2.0 token), below the stages that build it.
    public static let authorization = StagePlacement(.call, rank: 600)
    /// Stages that sign the request as it is built (HMAC, AWS Signature V4): the last to touch it
    /// before it is sent, so the signature covers what goes out.
    public static let signing = StagePlacement(.call, rank: 700)
    /// A stage that sends the call again after a transient failure.
    public static let retry = StagePlacement(.call, rank: 800)
    /// ``Redirection``: the boundary, the last call stage; every hop it follows passes the hop
    /// stages.
    public static let redirects = StagePlacement(.call, rank: 900)
    /// ``StrictTransportSecurity``: the top of the hop stages, so each hop is upgraded before its
    /// cookies and its cache entry are chosen.
    public static let hsts = StagePlacement(.hop, rank: 50)
    /// ``CookieHandling``.
    public static let cookies = StagePlacement(.hop, rank: 100)
    /// ``HTTPAuthentication``: below cookies, above the cache, so the cache sees the
    /// `Authorization` field it adds (RFC 9111 section 3.5).
    public static let authentication = StagePlacement(.hop, rank: 150)
    /// ``ResponseCaching``: below cookies, so it sees the `Cookie` field each hop sends: a
    /// response with `Vary: Cookie` is kept per cookie sent.
    public static let cache = StagePlacement(.hop, rank: 200)
    /// ``ProxySelection``.
    public static let proxy = StagePlacement(.hop, rank: 300)
    /// ``ConnectionRouting``: beside the proxy, below redirects, cookies and the cache.
    public static let connectionRouting = StagePlacement(.hop, rank: 305)
    /// ``TrustEvaluation``: above the cache, which reuses a response only under the trust policy
    /// it was fetched under, so it must see the policy each hop goes out under.
    public static let trustEvaluation = StagePlacement(.hop, rank: 190)
    /// `ReachabilityCheck`: below the proxy, whose host it checks when there is one.
    public static let reachability = StagePlacement(.hop, rank: 320)
    /// Observers of each exchange as it goes to the network (a HAR recorder, a span per exchange),
    /// at the bottom of the chain.
    public static let exchangeObserver = StagePlacement(.hop, rank: 900)
}
