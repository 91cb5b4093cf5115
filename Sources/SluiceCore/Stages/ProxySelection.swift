/// Puts a ``ProxyRoute`` on every request that has none of its own: through a proxy, direct
/// (ignoring `http_proxy` and the like), or as the environment says.
///
/// ```swift
/// ProxySelection(route: .through(try Proxy(url: URL(string: "http://proxy.internal:3128")!, bypass: ["localhost"])))
/// ```
public struct ProxySelection: SynchronousRequestStage {
    /// The route put on requests that set none.
    public let route: ProxyRoute

    /// `proxy`.
    public var name: String { "proxy" }

    /// Its place in the chain (see ``StagePlacement``).
    public static var placement: StagePlacement { .proxy }

    /// The proxy route.
    public var claims: [String] { ["the proxy route"] }

    /// Creates the stage.
    public init(route: ProxyRoute) {
        self.route = route
    }

    /// Puts the route on the request unless it has one.
    public func prepare(_ request: Request, context: TaskContext) -> Request {
        guard request.proxyRoute == nil else { return request }
        var request = request
        request.proxyRoute = route
        return request
    }
}

extension Request {
    private enum Route: StageValueKey { typealias Value = ProxyRoute }

    /// How the request reaches its server, set by a ``ProxySelection`` stage for the transport;
    /// `nil` is ``ProxyRoute/environment``, curl's behaviour.
    public var proxyRoute: ProxyRoute? {
        get { stageValues[Route.self] }
        set { stageValues[Route.self] = newValue }
    }
}
