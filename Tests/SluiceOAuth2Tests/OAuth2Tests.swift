import Foundation
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import Testing
@testable import SluiceOAuth2

/// A token endpoint and a protected resource in memory: tokens `t1`, `t2`, … and the one the
/// resource currently accepts.
final class AuthorizationServer: @unchecked Sendable {
    private let lock = NSLock()
    private var issued = 0
    private var accepted: String?
    private var forms: [String] = []
    var expiresIn: Int? = 3600
    var tokenDelay: Duration = .zero
    var refusesClient = false

    var tokenRequests: Int { lock.withLock { issued } }
    var lastForm: String? { lock.withLock { forms.last } }
    func revoke() { lock.withLock { accepted = nil } }

    /// The transport of the stage's own token pipeline.
    var tokenEndpoint: InMemoryTransport {
        InMemoryTransport { request in
            if case .data(let body) = request.body { self.lock.withLock { self.forms.append(String(decoding: body, as: UTF8.self)) } }
            try await Task.sleep(for: self.tokenDelay)
            if self.refusesClient || request.headers["Authorization"] != "Basic " + Data("id:secret".utf8).base64EncodedString() {
                return Response(status: 401, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"invalid_client","error_description":"who are you"}"#.utf8))
            }
            let token = self.lock.withLock { () -> String in
                self.issued += 1
                self.accepted = "t\(self.issued)"
                return self.accepted!
            }
            let lifetime = self.expiresIn.map { #","expires_in":\#($0)"# } ?? ""
            return Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"access_token":"\#(token)","token_type":"bearer"\#(lifetime)}"#.utf8))
        }
    }

    /// The transport of the pipeline under test: the resource, which wants the current token.
    var resource: InMemoryTransport {
        InMemoryTransport { request in
            let current = self.lock.withLock { self.accepted }
            guard let current, request.headers["Authorization"] == "Bearer " + current else { return Response(status: 401) }
            return Response(status: 200, body: Data(current.utf8))
        }
    }
}

/// A clock the test moves.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant = ContinuousClock.now
    var now: ContinuousClock.Instant { lock.withLock { instant } }
    func advance(_ duration: Duration) { lock.withLock { instant += duration } }
}

@Suite("oauth2-client-credentials")
struct OAuth2Tests {
    private func manager(_ server: AuthorizationServer, clock: TestClock = TestClock(), authentication: OAuth2ClientCredentials.ClientAuthentication = .basic) throws -> SessionManager {
        let stage = try OAuth2ClientCredentials(
            tokenURL: URL(string: "https://auth.test/token")!, clientID: "id", clientSecret: "secret", scope: "read write",
            parameters: [("audience", "api")], authentication: authentication, transport: server.tokenEndpoint, now: { clock.now }
        )
        return SessionManager(pipeline: try Pipeline(stages: [stage], transport: server.resource, redirects: nil))
    }

    private static let resource = Request(url: URL(string: "https://api.test/items")!)

    @Test("the token is fetched once with the client's credentials and scope, then reused")
    func caches() async throws {
        let server = AuthorizationServer()
        let manager = try manager(server)
        for _ in 0..<5 {
            let response = try await manager.send(Self.resource)
            #expect(response.status == 200 && response.body == Data("t1".utf8))
        }
        #expect(server.tokenRequests == 1)
        #expect(server.lastForm == "audience=api&grant_type=client_credentials&scope=read%20write")
    }

    @Test("credentials in the body when client-authentication is body")
    func bodyAuthentication() async throws {
        let server = AuthorizationServer()
        let manager = try manager(server, authentication: .body)
        await #expect(throws: SluiceError.self) { try await manager.send(Self.resource) }
        #expect(server.lastForm?.contains("client_id=id&client_secret=secret") == true)
    }

    @Test("a token is replaced shortly before it expires: 30 s before, or at half its lifetime")
    func expiry() async throws {
        let server = AuthorizationServer()
        let clock = TestClock()
        let manager = try manager(server, clock: clock)
        _ = try await manager.send(Self.resource)
        clock.advance(.seconds(3600 - 31))
        _ = try await manager.send(Self.resource)
        #expect(server.tokenRequests == 1)
        clock.advance(.seconds(2))
        #expect(try await manager.send(Self.resource).body == Data("t2".utf8))
        #expect(server.tokenRequests == 2)

        server.expiresIn = 20
        clock.advance(.seconds(3600))
        _ = try await manager.send(Self.resource)
        clock.advance(.seconds(9))
        _ = try await manager.send(Self.resource)
        #expect(server.tokenRequests == 3)
        clock.advance(.seconds(2))
        _ = try await manager.send(Self.resource)
        #expect(server.tokenRequests == 4)
    }

    @Test("without expires_in a token is kept until a 401")
    func noLifetime() async throws {
        let server = AuthorizationServer()
        server.expiresIn = nil
        let clock = TestClock()
        let manager = try manager(server, clock: clock)
        _ = try await manager.send(Self.resource)
        clock.advance(.seconds(86_400 * 30))
        _ = try await manager.send(Self.resource)
        #expect(server.tokenRequests == 1)
    }

    @Test("200 concurrent tasks share one token request (single flight)")
    func singleFlight() async throws {
        let server = AuthorizationServer()
        server.tokenDelay = .milliseconds(200)
        let manager = try manager(server)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 { group.addTask { try await manager.send(Self.resource).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 })
        #expect(server.tokenRequests == 1)
    }

    @Test("a 401 refreshes the token once and replays; concurrent refusals share the refresh; a second 401 is returned")
    func refreshOn401() async throws {
        let server = AuthorizationServer()
        let manager = try manager(server)
        _ = try await manager.send(Self.resource)
        server.revoke()
        let handle = manager.task(Self.resource)
        let response = try await handle.value
        #expect(response.status == 200 && response.body == Data("t2".utf8))
        #expect(handle.context.metrics.transfers.count == 2)
        #expect(handle.context.metrics.notes.map(\.name) == ["replayed"])

        server.revoke()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await manager.send(Self.resource).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(server.tokenRequests == 3)

        let refusing = try Pipeline(stages: [OAuth2ClientCredentials(tokenURL: URL(string: "https://auth.test/token")!, clientID: "id", clientSecret: "secret", transport: server.tokenEndpoint)],
                                    transport: InMemoryTransport { _ in Response(status: 401) }, redirects: nil)
        let refused = SessionManager(pipeline: refusing).task(Self.resource)
        #expect(try await refused.value.status == 401)
        #expect(refused.context.metrics.transfers.count == 2)
    }

    @Test("the token endpoint's error is a typed error naming the endpoint, its status and its error")
    func endpointError() async throws {
        let server = AuthorizationServer()
        server.refusesClient = true
        let manager = try manager(server)
        let error = await #expect(throws: SluiceError.self) { try await manager.send(Self.resource) }
        #expect(error?.kind == .stage)
        #expect(error?.stage == "oauth2-client-credentials")
        #expect(error?.url?.absoluteString == "https://auth.test/token")
        #expect(error?.message == "the token endpoint answered 401: invalid_client (who are you)")
    }

    @Test("answers that are not a usable token")
    func badAnswers() {
        let url = URL(string: "https://auth.test/token")!
        for (status, body, message) in [
            (200, #"{"token_type":"bearer"}"#, "the token endpoint's answer has no access_token"),
            (200, #"{"access_token":"x","token_type":"mac"}"#, "the token endpoint issued a 'mac' token; this stage sends Bearer tokens only"),
            (500, "", "the token endpoint answered 500"),
        ] {
            var response = Response(status: status, body: Data(body.utf8))
            response.decoded = (try? JSONReader().value(from: body)).map { .json($0) }
            #expect(throws: SluiceError.self) {
                try OAuth2ClientCredentials.token(from: response, url: url, stage: "s", now: .now, refreshBefore: .seconds(30))
            }
            do {
                _ = try OAuth2ClientCredentials.token(from: response, url: url, stage: "s", now: .now, refreshBefore: .seconds(30))
            } catch {
                #expect(error.message == message)
            }
        }
    }

    @Test("the descriptor: the secret is a secret, and a token-url that is not http(s) is refused at its line")
    func descriptor() throws {
        var registry = StageRegistry.builtIn
        try registry.register(OAuth2Module.self)
        let file = try PipelineFile.load(
            text: "stages:\n  - oauth2-client-credentials: { token-url: 'http://a.test/token', client-id: id, client-secret: sec-ret }\nrequests: []\n",
            path: "o.yaml", environment: [:], registry: registry
        )
        #expect(file.secrets.contains("sec-ret"))
        do {
            _ = try PipelineFile.load(text: "stages:\n  - oauth2-client-credentials: { token-url: 'ftp://a', client-id: id, client-secret: s }\nrequests: []\n", path: "o.yaml", environment: [:], registry: registry)
            Issue.record("an ftp token-url was accepted")
        } catch {
            #expect(error.description == "o.yaml:2:34: error: token-url must be an absolute http(s) URL, not 'ftp://a'")
        }
    }
}
