import Foundation
import SluiceCore
import SluiceStageRegistry

/// Authorizes each request with an OAuth 2.0 access token from the client credentials grant
/// (RFC 6749, section 4.4), sent as `Authorization: Bearer TOKEN` (RFC 6750).
///
/// The token comes from `tokenURL` through the stage's own small pipeline (client
/// authentication, form serialization, JSON decoding) and is kept until shortly before it
/// expires: `refreshBefore` before `expires_in` runs out, or half the lifetime when that is
/// shorter. However many tasks need a token at once, one request fetches it. When a request is
/// refused with 401, the stage fetches a new token once (unless another task already has) and
/// sends the request again; a second 401 is returned as it is. Each fetch and each replay is a
/// note in the task's events and metrics. In a dry run nothing is fetched: the request shows
/// `Authorization: Bearer <token from TOKEN_URL>`.
public struct OAuth2ClientCredentials: Stage {
    /// How the client authenticates to the token endpoint.
    public enum ClientAuthentication: String, Sendable, CaseIterable {
        /// HTTP Basic with the client id and secret (RFC 6749, section 2.3.1), what servers must support.
        case basic
        /// `client_id` and `client_secret` in the form body.
        case body
    }

    /// The token endpoint.
    public let tokenURL: URL
    /// The client id.
    public let clientID: String
    /// The scope asked for, if any.
    public let scope: String?
    /// How the client authenticates to the token endpoint.
    public let authentication: ClientAuthentication
    /// How long before expiry a token is replaced (at most half its lifetime).
    public let refreshBefore: Duration
    private let cache: TokenCache
    /// What the token requests go through, when not the pipeline's own transport.
    private let transport: (any Transport)?

    /// The stage's name in pipeline files.
    public static let stageName = "oauth2-client-credentials"
    /// How the client authenticates by default: HTTP Basic, which servers must support.
    public static let defaultAuthentication = ClientAuthentication.basic
    /// How long before expiry a token is replaced by default: 30 seconds.
    public static let defaultRefreshBefore = Duration.seconds(30)

    public var name: String { OAuth2ClientCredentials.stageName }

    /// `StagePlacement/authorization`: a call stage, so the token goes on the call once and a redirect to another origin drops it.
    public static var placement: StagePlacement { .authorization }

    /// The `Authorization` header.
    public var claims: [String] { ["the Authorization header"] }

    /// Creates the stage.
    /// - Parameters:
    ///   - tokenURL: the token endpoint.
    ///   - clientID: the client id.
    ///   - clientSecret: the client secret, a secret in every output.
    ///   - scope: the scope asked for, if any.
    ///   - parameters: more form fields for the token request (`audience`, `resource`).
    ///   - authentication: how the client authenticates to the token endpoint: Basic by default.
    ///   - refreshBefore: how long before expiry a token is replaced.
    ///   - transport: what the token requests go through; by default the transport of the
    ///     pipeline the stage is in (`TaskContext/transport`), so that they take the same routes,
    ///     trust and connections as the requests they authorize.
    ///   - now: the clock tokens' lifetimes are measured against.
    public init(
        tokenURL: URL,
        clientID: String,
        clientSecret: String,
        scope: String? = nil,
        parameters: [(String, String)] = [],
        authentication: ClientAuthentication = OAuth2ClientCredentials.defaultAuthentication,
        refreshBefore: Duration = OAuth2ClientCredentials.defaultRefreshBefore,
        transport: (any Transport)? = nil,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) throws(SluiceError) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.scope = scope
        self.authentication = authentication
        self.refreshBefore = refreshBefore
        var fields: [(String, JSONValue)] = [("grant_type", .string("client_credentials"))]
        if let scope { fields.append(("scope", .string(scope))) }
        fields += parameters.map { ($0.0, .string($0.1)) }
        if authentication == .body {
            fields += [("client_id", .string(clientID)), ("client_secret", .string(clientSecret))]
        }
        let tokenRequest = Request(
            method: .post, url: tokenURL, headers: ["Accept": "application/json"],
            timeouts: Timeouts(connect: .seconds(10), total: .seconds(30)), parameters: .object(JSONObject(fields))
        )
        let stages: [any Stage] = [
            HeaderInjection(acceptLanguage: .none, authorization: authentication == .basic ? .basic(username: clientID, password: clientSecret) : nil),
            Serialization(format: .form),
            ResponseDecoding(format: .json, acceptableStatus: [100...599]),
        ]
        // Checked now, so that a stage that cannot fetch tokens is refused when it is built.
        _ = try Pipeline(stages: stages, transport: InMemoryTransport { _ in Response(status: 500) })
        self.transport = transport
        cache = TokenCache(now: now) { pipelineTransport in
            let manager = SessionManager(pipeline: try Pipeline(stages: stages, transport: transport ?? pipelineTransport))
            let response = try await manager.send(tokenRequest)
            return try OAuth2ClientCredentials.token(from: response, url: tokenURL, stage: OAuth2ClientCredentials.stageName, now: now(), refreshBefore: refreshBefore)
        }
    }

    public func handle(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        var authorized = request
        if context.storage[RunInfo.Key.self]?.isDryRun == true {
            authorized.headers["Authorization"] = "Bearer <token from \(tokenURL.absoluteString)>"
            return try await next(authorized, context)
        }
        let token = try await cache.current(through: transport ?? context.transport)
        authorized.headers["Authorization"] = "Bearer " + token.value
        let first = try await outcome { try await next(authorized, context) }
        guard first.status == 401 else { return try first.response() }
        let fresh = try await cache.replacing(token, through: transport ?? context.transport)
        context.note("replayed", "the server refused the token with 401; sending again with a new one", stage: name)
        authorized.headers["Authorization"] = "Bearer " + fresh.value
        return try await next(authorized, context)
    }

    /// A response, or an error that carries one (a 401 refused by response decoding below).
    private struct Outcome {
        let result: Result<Response, any Error>

        var status: Int? {
            switch result {
            case .success(let response): response.status
            case .failure(let error): (error as? SluiceError)?.response?.status
            }
        }

        func response() throws -> Response { try result.get() }
    }

    private func outcome(_ send: () async throws -> Response) async throws -> Outcome {
        do {
            return Outcome(result: .success(try await send()))
        } catch let error as SluiceError where error.response?.status == 401 {
            return Outcome(result: .failure(error))
        }
    }

    /// The token in a token endpoint's answer (RFC 6749, section 5.1), or the endpoint's error
    /// (section 5.2) as a `.stage` error.
    static func token(from response: Response, url: URL, stage: String, now: ContinuousClock.Instant, refreshBefore: Duration) throws(SluiceError) -> AccessToken {
        let document = response.decoded?.value
        func failure(_ message: String) -> SluiceError {
            SluiceError(kind: .stage, stage: stage, url: url, message: message, response: response)
        }
        guard (200...299).contains(response.status) else {
            var message = "the token endpoint answered \(response.status)"
            if let error = document?["error"]?.stringValue { message += ": \(error)" }
            if let description = document?["error_description"]?.stringValue { message += " (\(description))" }
            throw failure(message)
        }
        guard let value = document?["access_token"]?.stringValue, !value.isEmpty else {
            throw failure("the token endpoint's answer has no access_token")
        }
        if let type = document?["token_type"]?.stringValue, type.lowercased() != "bearer" {
            throw failure("the token endpoint issued a '\(type)' token; this stage sends Bearer tokens only")
        }
        guard let lifetime = document?["expires_in"]?.doubleValue, lifetime > 0 else {
            return AccessToken(value: value, refreshAt: nil)
        }
        let expiresIn = Duration.milliseconds(Int(lifetime * 1000))
        return AccessToken(value: value, refreshAt: now + expiresIn - min(refreshBefore, expiresIn / 2))
    }
}
