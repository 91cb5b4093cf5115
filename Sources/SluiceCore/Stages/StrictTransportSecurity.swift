import Foundation

/// HTTP Strict Transport Security (RFC 6797), as curl's `--hsts` does it: a request for `http://`
/// to a host its ``HSTSStore`` knows goes over `https://` instead, and a
/// `Strict-Transport-Security` answer over HTTPS makes its host known (subdomains too with
/// `includeSubDomains`). Never learned over plain HTTP, never for an IP address.
///
/// A hop stage above cookies and the cache: every redirect hop is upgraded before its cookies
/// are chosen and its cache entry looked up. The upgrade keeps the URL but for its scheme, and
/// an explicit port 80 becomes 443 (RFC 6797 section 8.3; any other port is kept). Each upgrade is
/// a note (`hsts`, `upgraded`). As curl, it learns over a connection whose certificate was not
/// checked (`allowsInvalidCertificates`) too: a policy only ever asks for more TLS.
///
/// ```swift
/// let hsts = StrictTransportSecurity(store: try HSTSStore(file: hstsFile))
/// ```
public struct StrictTransportSecurity: Stage {
    /// The known hosts.
    public let store: HSTSStore

    /// `hsts`.
    public var name: String { "hsts" }

    /// ``StagePlacement/hsts``: the top of the hop stages.
    public static var placement: StagePlacement { .hsts }

    /// The HSTS store: a pipeline keeps one.
    public var claims: [String] { ["the HSTS store"] }

    /// Creates the stage over a store, a new one held in memory unless given.
    public init(store: HSTSStore = HSTSStore()) {
        self.store = store
    }

    /// Sends the request over HTTPS when its host is known, and learns from the response.
    public func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        let request = upgraded(request, context: context)
        let response = try await next(request, context)
        learn(from: response, for: request)
        return response
    }

    /// `request` over HTTPS when its scheme is `http` and its host is known; as it is otherwise.
    func upgraded(_ request: Request, context: TaskContext) -> Request {
        guard !store.isEmpty, request.url.scheme?.lowercased() == "http", let host = request.url.host, store.requiresHTTPS(for: host),
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        else { return request }
        components.scheme = "https"
        if components.port == 80 { components.port = nil }
        guard let url = components.url else { return request }
        var upgraded = request
        upgraded.url = url
        context.note(StageNote(stage: name, name: "upgraded", detail: "\(host) is a known HSTS host: \(url.absoluteString)"))
        return upgraded
    }

    /// Takes the first `Strict-Transport-Security` field of a response received over HTTPS.
    func learn(from response: Response, for request: Request) {
        // The field first: most responses have none, and the URL parses its string again for
        // each part asked.
        guard let field = response.headers.values(for: "Strict-Transport-Security").first,
            request.url.scheme?.lowercased() == "https", let host = request.url.host
        else { return }
        store.learn(field, for: host)
    }
}
