import Foundation

/// Answers HTTP authentication challenges (RFC 9110 section 11) with the credential its provider
/// gives for each origin: Basic (RFC 7617) and Digest (RFC 7616: MD5, SHA-256, SHA-512-256,
/// their `-sess` variants, `qop=auth` and `auth-int`, `userhash`), as curl's `-u` with
/// `--basic`, `--digest` and `--anyauth`, Alamofire's `authenticate(username:password:)` and
/// AFNetworking's challenge block do.
///
/// A hop stage: each redirect hop asks for the credential of its own origin (scheme, host and
/// port), so a credential is never sent to another host, nor to another port or scheme of the
/// same host, after a redirect. A request that already has an `Authorization` field is sent as
/// it is.
///
/// - A credential that allows only Basic is sent with the first request; otherwise the first
///   request goes without, and the server's `401` chooses: Digest before Basic, the first
///   Digest challenge Sluice can answer among several. The request is sent once more with the
///   answer; a second `401` is the response (the credential was rejected, noted as `rejected`).
/// - What an origin accepted is remembered: later requests answer its Digest challenge at once,
///   the nonce count going up, and a `stale` nonce is answered again once.
/// - A `401` none of whose challenges the credential can answer (NTLM, Negotiate, an unknown
///   Digest algorithm, Basic offered to a Digest-only credential) throws `.authentication`,
///   naming what the server offered. Without a credential for the origin, the `401` is the
///   response.
/// - A request's ``Request/ownCredentials`` are asked in place of the provider.
/// - Answering sends the body again: a streamed body, read once, cannot be, and throws
///   `.authentication` unless the answer went with the first request.
///
/// ```swift
/// let pipeline = try Pipeline {
///     HTTPAuthentication(credentials: [
///         .init(host: "api.example.test", credential: HTTPCredential(username: "alice", password: "wonder land 7", schemes: .digest)),
///     ])
/// }
/// ```
public struct HTTPAuthentication: Stage {
    /// Where credentials come from.
    public let provider: any HTTPCredentialProvider
    private let memory = AuthenticationMemory()
    /// Makes each answer's client nonce; random, but for tests.
    private let makeClientNonce: @Sendable () -> String

    /// `authentication`.
    public var name: String { "authentication" }

    /// ``StagePlacement/authentication``: a hop stage, between cookies and the cache.
    public static var placement: StagePlacement { .authentication }

    /// The `Authorization` header, which it writes.
    public var claims: [String] { ["the Authorization header"] }

    /// Creates the stage over a credential provider.
    public init(provider: any HTTPCredentialProvider) {
        self.init(provider: provider, makeClientNonce: DigestChallenge.makeClientNonce)
    }

    /// Creates the stage over credentials by host (an ``HTTPCredentialStore``).
    public init(credentials: [HTTPCredentialStore.Entry]) {
        self.init(provider: HTTPCredentialStore(credentials))
    }

    init(provider: any HTTPCredentialProvider, makeClientNonce: @escaping @Sendable () -> String) {
        self.provider = provider
        self.makeClientNonce = makeClientNonce
    }

    /// Sends the request, with the answer it already knows, and answers a `401` once.
    public func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        guard !request.headers.contains("Authorization"), let origin = ProtectionSpace(url: request.url) else {
            return try await next(request, context)
        }
        let known = memory.known(for: origin)
        let askedSpace = origin.with(realm: known?.realm)
        let credential = try await self.credential(for: askedSpace, request: request)
        var firstAnswer: Answer?
        if let credential {
            firstAnswer = answerAtOnce(credential: credential, origin: origin, known: known, request: request)
        }
        let first = try await next(firstAnswer.map { request.authorized($0.field) } ?? request, context)
        guard first.status == 401 else { return first }

        let challenges = AuthenticationChallenge.parse(first.headers.values(for: "WWW-Authenticate"))
        let choice = try await choose(
            among: challenges, origin: origin, asked: (askedSpace, credential), request: request, firstAnswer: firstAnswer
        )
        guard let choice else {
            if firstAnswer != nil { memory.forget(origin) }
            return first
        }
        if case .stream = request.body {
            throw SluiceError(
                kind: .authentication, stage: name, url: request.url,
                message: "\(origin) asks for \(choice.challengeName); answering it sends the request again, and its body is a stream, read once. Give the body as data or a file, or a credential that allows only Basic (sent with the first request)"
            )
        }
        context.note(StageNote(stage: name, name: "answered", detail: "answered \(choice.challengeName) at \(origin) as \(choice.credential.username)"))
        let second = try await next(request.authorized(choice.answer.field), context)
        if second.status == 401 {
            memory.forget(origin)
            context.note(StageNote(stage: name, name: "rejected", detail: "\(origin) rejected \(choice.credential.username)'s \(choice.challengeName) answer"))
        } else {
            memory.remember(.init(realm: choice.realm, answer: choice.answer.memory), for: origin)
        }
        return second
    }

    /// The request's own credential for `space`, else the provider's.
    private func credential(for space: ProtectionSpace, request: Request) async throws -> HTTPCredential? {
        try await (request.ownCredentials ?? provider).credential(for: space)
    }

    /// An answer: the field value sent, and what to remember of it.
    private struct Answer {
        var field: String
        var memory: AuthenticationMemory.Answer
        var isBasic: Bool {
            if case .basic = memory { true } else { false }
        }
    }

    /// The answer sent with the first request: Basic for a Basic-only credential, or the answer
    /// the origin accepted last.
    private func answerAtOnce(credential: HTTPCredential, origin: ProtectionSpace, known: AuthenticationMemory.Known?, request: Request) -> Answer? {
        switch known?.answer {
        case .digest? where credential.schemes.contains(.digest):
            guard let use = memory.nextDigestUse(for: origin), let field = digestField(use.challenge, credential: credential, request: request, nonceCount: use.nonceCount) else { return nil }
            return Answer(field: field, memory: .digest(use.challenge, nonceCount: use.nonceCount))
        case .basic? where credential.schemes.contains(.basic):
            return Answer(field: basicField(credential), memory: .basic)
        default:
            return credential.schemes == .basic ? Answer(field: basicField(credential), memory: .basic) : nil
        }
    }

    /// The challenge answered, with the credential and the answer.
    private struct Choice {
        var challengeName: String
        var realm: String?
        var credential: HTTPCredential
        var answer: Answer
    }

    /// The first challenge the credential for its realm can answer, Digest before Basic; `nil`
    /// when there is no credential for any realm offered, or the first answer was this very
    /// one (Basic, rejected). Throws `.authentication` when credentials exist but none of their
    /// schemes meets a challenge Sluice can answer.
    private func choose(
        among challenges: [AuthenticationChallenge],
        origin: ProtectionSpace,
        asked: (space: ProtectionSpace, credential: HTTPCredential?),
        request: Request,
        firstAnswer: Answer?
    ) async throws -> Choice? {
        var credentials: [String?: HTTPCredential?] = [asked.space.realm: asked.credential]
        func credential(for realm: String?) async throws -> HTTPCredential? {
            if let known = credentials[realm] { return known }
            let found = try await self.credential(for: origin.with(realm: realm), request: request)
            credentials[realm] = .some(found)
            return found
        }
        var reasons: [String] = []
        var sawCredential = false
        let ordered = challenges.filter { $0.isScheme("Digest") } + challenges.filter { $0.isScheme("Basic") }
        for challenge in ordered {
            let realm = challenge["realm"]
            guard let credential = try await credential(for: realm) else { continue }
            sawCredential = true
            if challenge.isScheme("Basic") {
                guard credential.schemes.contains(.basic) else {
                    reasons.append("Basic is not among the credential's schemes (\(credential.schemes))")
                    continue
                }
                // A Basic answer the server just refused is not sent again.
                if firstAnswer?.isBasic == true { return nil }
                return Choice(challengeName: challenge.description, realm: realm, credential: credential, answer: Answer(field: basicField(credential), memory: .basic))
            }
            guard credential.schemes.contains(.digest) else {
                reasons.append("Digest is not among the credential's schemes (\(credential.schemes))")
                continue
            }
            let digest: DigestChallenge
            do {
                digest = try DigestChallenge(challenge)
            } catch {
                reasons.append("Digest with \(error.reason) is not answered")
                continue
            }
            guard let field = digestField(digest, credential: credential, request: request, nonceCount: 1) else {
                reasons.append("Digest with qop=auth-int hashes the body, which is not in memory")
                continue
            }
            return Choice(challengeName: challenge.description, realm: realm, credential: credential, answer: Answer(field: field, memory: .digest(digest, nonceCount: 1)))
        }
        // Schemes Sluice does not answer at all: their realms are unknown, so any credential for
        // the origin counts.
        if !sawCredential, challenges.contains(where: { !$0.isScheme("Digest") && !$0.isScheme("Basic") }) {
            sawCredential = try await credential(for: asked.space.realm) != nil
        }
        guard sawCredential else { return nil }
        let offered = challenges.isEmpty ? "no challenge (a 401 without WWW-Authenticate)" : challenges.map(\.description).joined(separator: ", ")
        reasons.append("Sluice answers Basic and Digest only (not NTLM or Negotiate)")
        throw SluiceError(
            kind: .authentication, stage: name, url: request.url,
            message: "\(origin) offered \(offered), and the client can answer none of them: \(reasons.joined(separator: "; "))"
        )
    }

    private func basicField(_ credential: HTTPCredential) -> String {
        "Basic " + Data("\(credential.username):\(credential.password)".utf8).base64EncodedString()
    }

    /// The Digest answer for `request`; `nil` when it needs the body and the body is not in memory.
    private func digestField(_ challenge: DigestChallenge, credential: HTTPCredential, request: Request, nonceCount: Int) -> String? {
        let body: Data?
        switch request.body {
        case .none: body = Data()
        case .data(let data): body = data
        default: body = nil
        }
        if challenge.needsBody, body == nil { return nil }
        return challenge.authorization(
            credential: credential, method: request.method.rawValue, uri: request.url.requestTarget,
            body: body, nonceCount: nonceCount, clientNonce: makeClientNonce()
        )
    }
}

extension Request {
    /// The request with `Authorization: value`.
    fileprivate func authorized(_ value: String) -> Request {
        var request = self
        request.headers["Authorization"] = value
        return request
    }
}
