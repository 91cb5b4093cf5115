import Foundation
/// Puts a ``TrustPolicy`` on every request, for the transport to enforce after the TLS handshake
/// and before the first byte of the request, on every connection, new or reused, and on every
/// redirect hop (hops are copies of the request, policy included).
///
/// ```swift
/// let pins = try TrustPin.pins(from: "sha256//r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=")
/// TrustEvaluation(policy: try TrustPolicy(pinning: .publicKey, pins: pins))
/// ```
///
/// Without this stage, TLS is verified against the system's trust store with host-name checking.
/// A failure is a `.trustEvaluation` error from stage `trust-evaluation` naming the host, the
/// mode, the pins expected and the `sha256//` hash of every public key the server presented; the
/// server sees no request.
public struct TrustEvaluation: SynchronousRequestStage, ChainValidating, ConfigurationReporting {
    /// The policy put on every request.
    public let policy: TrustPolicy

    /// `trust-evaluation`.
    public var name: String { "trust-evaluation" }

    /// Its place in the chain (see ``StagePlacement``).
    public static var placement: StagePlacement { .trustEvaluation }

    /// The trust policy.
    public var claims: [String] { ["the trust policy"] }

    /// The policy's ``TrustPolicy/warnings``.
    public var configurationWarnings: [String] { policy.warnings }

    /// Creates the stage.
    public init(policy: TrustPolicy) {
        self.policy = policy
    }

    /// Puts the policy on the request.
    public func prepare(_ request: Request, context: TaskContext) -> Request {
        var request = request
        request.trustPolicy = policy
        return request
    }

    /// Refuses pinning on a pipeline whose base URL (a ``URLResolution`` stage's) is plain `http`
    /// for a host the policy covers: such a pipeline could never pass a pin.
    public func validate(in chain: [any Stage]) throws(SluiceError) {
        guard policy.pinning != .none else { return }
        for case let resolution as URLResolution in chain
        where resolution.baseURL.scheme?.lowercased() == "http" && policy.applies(to: resolution.baseURL.host ?? "") {
            throw SluiceError(
                kind: .configuration, stage: name, url: resolution.baseURL,
                message: "\(policy.pinning.rawValue) pinning needs https, but the base URL \(resolution.baseURL.absoluteString) is plain http"
            )
        }
    }
}

extension Request {
    private enum Policy: StageValueKey { typealias Value = TrustPolicy }

    /// How the TLS peer is trusted, set by a ``TrustEvaluation`` stage for the transport; `nil`
    /// for the default: full validation against the system trust store, host name checked.
    public var trustPolicy: TrustPolicy? {
        get { stageValues[Policy.self] }
        set { stageValues[Policy.self] = newValue }
    }
}
