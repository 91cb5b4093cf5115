import Foundation
import Logging

/// Follows redirects itself, so every hop runs through the stages below it and through the
/// transport's trust evaluation (libcurl's own following is off).
///
/// - Statuses 301, 302, 303, 307 and 308 with a `Location` are followed; `Location` is resolved
///   against the request's URL (RFC 3986), and the fragment carries over when it has none.
/// - 303 turns any method but `HEAD` into `GET` without body, and so do 301 and 302 for `POST`, as
///   browsers and curl do; 307 and 308 keep the method and the body.
/// - `Authorization`, `Cookie`, `Proxy-Authorization` and `Host` go only to the origin (scheme,
///   host and port) of the first request: dropped on a hop to another origin, and sent again on a
///   hop back to the first one, as curl does (its `first_host`; curl before 7.83 compared only the
///   host). The headers were written for that origin, so it gets them whichever way it is reached.
///   With `trustsOtherOrigins` (curl's `--location-trusted`), `Authorization` and `Cookie` go to
///   every hop. The request's ``Request/ownCredentials`` go where `Authorization` goes.
/// - `https` to `http` is refused as `.insecureRedirect` unless `allowsInsecureRedirects`; a
///   scheme other than `http` and `https` is always refused.
/// - More than `maximumHops` redirects is `.tooManyRedirects`; a hop back to a method and URL
///   already requested in the chain is `.redirectLoop`, found at once rather than after the limit,
///   unless a response since then set a cookie no response of the chain set before (a
///   `Set-Cookie` value new to it): the request it leads to is not the one made before, as with
///   a cookie check that redirects to itself.
///
/// A ``Pipeline`` adds this stage unless told otherwise or given one. Wherever it is listed, it
/// is the last call stage (``StagePlacement/redirects``): the call stages above it (serialization,
/// response decoding) see the request once and the final response; the hop stages below it
/// (cookies, the cache, trust) see every hop.
///
/// `follows: false` keeps the stage in the chain but hands every redirect response back as it
/// is, so the pipeline adds no other. A request may carry rules of its own
/// (``Request/redirection``), which the stage follows instead of its own for that request.
public struct Redirection: Stage {
    /// The most redirects followed for one request; 10 by default.
    public let maximumHops: Int
    /// Whether a redirect from `https` to `http` is followed; `false` by default.
    public let allowsInsecureRedirects: Bool
    /// Whether redirects are followed at all; `true` by default.
    public let follows: Bool
    /// Whether `Authorization` and `Cookie` go to every hop, whatever its origin, as curl's
    /// `--location-trusted` sends them; `false` by default.
    public let trustsOtherOrigins: Bool
    /// Whether each hop carries the URL it was redirected from as its `Referer`, without user
    /// information or fragment, as curl's `-e ';auto'` (`CURLOPT_AUTOREFERER`) sends it; `false`
    /// by default.
    public let setsReferer: Bool

    /// `redirects`.
    public var name: String { "redirects" }

    /// ``StagePlacement/redirects``: the last call stage; every hop it follows passes the hop stages.
    public static var placement: StagePlacement { .redirects }

    /// Following redirects, even when it hands them back (`follows: false`).
    public var claims: [String] { ["following redirects"] }

    /// Creates the stage.
    public init(maximumHops: Int = 10, allowsInsecureRedirects: Bool = false, follows: Bool = true, trustsOtherOrigins: Bool = false, setsReferer: Bool = false) {
        self.maximumHops = max(0, maximumHops)
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.follows = follows
        self.trustsOtherOrigins = trustsOtherOrigins
        self.setsReferer = setsReferer
    }

    /// Sends the request, then each redirect it leads to, and returns the first response that
    /// is not a redirect; by the request's own rules (``Request/redirection``) when it has them.
    public func handle(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        // Every task in flight holds this frame while its exchange runs: one frame for both sets
        // of rules, and of the first request only what a hop back needs, once there is a hop.
        let rules = Redirection.rules(self, for: request)
        var current = Redirection.withoutOwnRules(request)
        var chain = Chain()
        // One call of `next`: each call site would keep a response of its own in the frame.
        while true {
            let response = try await next(current, context)
            guard rules.follows, try Redirection.follow(rules, from: &current, to: response, along: &chain, context: context) else { return response }
        }
    }

    // Out of line, so that what they copy and build lives on the thread's stack, not in the
    // task's frame.

    /// The request's own rules, else `stage`.
    @inline(never)
    private static func rules(_ stage: Redirection, for request: Request) -> Redirection {
        request.redirection ?? stage
    }

    /// The request without rules of its own, which the stage consumes.
    @inline(never)
    private static func withoutOwnRules(_ request: Request) -> Request {
        guard request.redirection != nil else { return request }
        var request = request
        request.redirection = nil
        return request
    }

    /// Replaces `current` with the request that follows `response` to it, with the first
    /// request's origin-bound fields again on a hop back to its origin; `false` when the response
    /// is not a redirect to follow. In place, and throwing an untyped error: the task's frame
    /// holds no second request and no error of its own for it.
    @inline(never)
    private static func follow(
        _ rules: Redirection, from current: inout Request, to response: Response, along chain: inout Chain, context: TaskContext
    ) throws -> Bool {
        guard let following = try rules.hop(from: current, to: response, along: &chain, context: context) else { return false }
        Redirection.record(Hop(status: response.status, from: current.url, to: following.url), first: chain.hops == 1, in: context)
        let origin = chain.first ?? FirstOrigin(current)
        chain.first = origin
        current = origin.restoring(following)
        return true
    }

    /// The headers only the first request's origin gets.
    private static let originBoundHeaders = ["Authorization", "Cookie", "Proxy-Authorization", "Host"]

    /// The first request's origin and the origin-bound fields and credential it was written
    /// with, which a hop back to that origin gets again (a hop to another origin dropped them).
    private struct FirstOrigin {
        let origin: String
        let fields: [HTTPHeaders.Field]
        let credentials: (any HTTPCredentialProvider)?

        init(_ request: Request) {
            fields = request.headers.filter { field in Redirection.originBoundHeaders.contains { field.name.equalsIgnoringASCIICase($0) } }
            credentials = request.ownCredentials
            // Without such fields there is nothing to restore, and no origin to compare.
            origin = fields.isEmpty && credentials == nil ? "" : request.url.originText
        }

        /// `following`, with the first request's origin-bound fields again when it goes back to
        /// that origin. Fields it still has as they were, byte for byte, stay where they are.
        func restoring(_ following: Request) -> Request {
            guard !fields.isEmpty || credentials != nil, following.url.originText == origin else { return following }
            var following = following
            if let credentials, following.ownCredentials == nil { following.ownCredentials = credentials }
            for name in Redirection.originBoundHeaders {
                let values = fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
                let kept = following.headers.values(for: name)
                guard kept.count != values.count || !zip(kept, values).allSatisfy({ $0.utf8.elementsEqual($1.utf8) }) else { continue }
                following.headers.remove(name: name)
                for value in values { following.headers.add(name: name, value: value) }
            }
            return following
        }
    }

    /// The redirects a task has followed so far. Empty, and allocating nothing, until the first.
    private struct Chain {
        /// Each request of the chain, by method and URL.
        var visited: Set<String> = []
        var hops = 0
        /// What a hop back to the first request's origin needs, from the first redirect on.
        var first: FirstOrigin?
        /// Every `Set-Cookie` value the chain's responses gave.
        var cookiesSet: [String] = []

        /// Whether `response` sets a cookie, in a `Set-Cookie` value (compared byte for byte)
        /// that no response before it in the chain gave; it counts it as given.
        mutating func setsNewCookie(_ response: Response) -> Bool {
            var new = false
            for value in response.headers.values(for: "Set-Cookie") where !cookiesSet.contains(where: { $0.utf8.elementsEqual(value.utf8) }) {
                cookiesSet.append(value)
                new = true
            }
            return new
        }
    }

    /// The request that follows `response` to `request`, checked against the chain so far and
    /// added to it; `nil` when the response is not a redirect to follow.
    private func hop(from request: Request, to response: Response, along chain: inout Chain, context: TaskContext) throws(SluiceError) -> Request? {
        guard let following = try followUp(to: response, of: request) else { return nil }
        if chain.setsNewCookie(response) {
            // The hops after a response that sets a cookie not set before in the chain carry what
            // it set: a hop back to a URL already requested is a new request then (a cookie check
            // that redirects to itself).
            chain.visited.removeAll()
        } else if chain.visited.isEmpty {
            chain.visited.insert(Redirection.visitKey(request))
        }
        guard chain.hops < maximumHops else {
            throw failure(.tooManyRedirects, "more than \(maximumHops) redirects; the last led to \(SluiceError.shown(following.url))", request, response)
        }
        guard chain.visited.insert(Redirection.visitKey(following)).inserted else {
            throw failure(.redirectLoop, "\(following.method) \(SluiceError.shown(following.url)) was already requested in this redirect chain", request, response)
        }
        chain.hops += 1
        context.logger.debug("following redirect", metadata: ["status": "\(response.status)", "location": "\(SluiceError.shown(following.url))"])
        return following
    }

    /// The request a redirect response leads to, or `nil` when the response is not a redirect.
    /// - Throws: `.insecureRedirect` for a refused scheme, `.protocolError` for a `Location` that
    ///   is not a URL.
    public func followUp(to response: Response, of request: Request) throws(SluiceError) -> Request? {
        guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["Location"] else { return nil }
        let base = URIReference(parsing: request.url.absoluteString)
        var reference = URIReference(parsing: location)
        // A server never chooses the credentials sent: user information in a Location is dropped,
        // as curl drops it (libcurl would send it as Basic credentials to the host it names). The
        // user's own, in a URL resolved against a relative Location, stay with their origin.
        if let authority = reference.authority, let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            reference.authority = String(authority[authority.utf8.index(after: at)...])
        }
        var target = reference.resolved(against: base)
        if target.fragment == nil { target.fragment = base.fragment }
        guard let url = URLText.url(target.description) else {
            throw failure(.protocolError, "the Location \(SluiceError.shown(location)) is not a valid URL", request, response)
        }
        let fromScheme = request.url.scheme?.lowercased()
        let toScheme = url.scheme?.lowercased()
        guard toScheme == "http" || toScheme == "https" else {
            throw failure(.insecureRedirect, "a redirect to \(SluiceError.shown(url)) is not followed: only http and https are", request, response)
        }
        if fromScheme == "https" && toScheme == "http" && !allowsInsecureRedirects {
            throw failure(.insecureRedirect, "a redirect from https to \(SluiceError.shown(url)) is refused (allow insecure redirects to follow it)", request, response)
        }
        var following = request
        following.url = url
        let becomesGet = (response.status == 303 && request.method != .head)
            || ((response.status == 301 || response.status == 302) && request.method == .post)
        if becomesGet {
            following.method = .get
            following.body = .none
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                following.headers.remove(name: name)
            }
        }
        if request.url.originText != url.originText {
            for name in Redirection.originBoundHeaders where !trustsOtherOrigins || name == "Proxy-Authorization" || name == "Host" {
                following.headers.remove(name: name)
            }
            if !trustsOtherOrigins, following.ownCredentials != nil { following.ownCredentials = nil }
        }
        if setsReferer {
            var referer = base
            referer.fragment = nil
            if let authority = referer.authority, let at = authority.lastIndex(of: "@") {
                referer.authority = String(authority[authority.index(after: at)...])
            }
            following.headers["Referer"] = referer.description
        }
        return following
    }

    private func failure(_ kind: SluiceError.Kind, _ message: String, _ request: Request, _ response: Response) -> SluiceError {
        SluiceError(kind: kind, stage: name, url: request.url, message: message, response: response)
    }

    private static func visitKey(_ request: Request) -> String {
        "\(request.method) \(request.url.absoluteString)"
    }
}
