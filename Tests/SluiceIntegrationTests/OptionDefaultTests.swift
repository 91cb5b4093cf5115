import Foundation
import SluiceAWSSigV4
import SluiceCore
import SluiceHAR
import SluiceHMACSignature
import SluiceOAuth2
import SluicePipelineFiles
import SluiceReachability
import SluiceRetry
import SluiceStageRegistry
import Testing

/// The default an option shows, in `sluice stages` and the schema, is what its stage takes when
/// the option is left out: written into a file, it makes the same stage.
@Suite("Option defaults, built-in stages and linked stage modules")
struct OptionDefaultTests {
    /// Defaults that state a rule, not a value a file could write.
    static let descriptive: Set<String> = ["response-decoding.acceptable-content-types", "aws-sigv4.content-sha256"]

    /// The built-in stages and every linked stage module.
    static func registry() throws -> StageRegistry {
        var registry = StageRegistry.builtIn
        for module: any StageModule.Type in [RetryModule.self, HARModule.self, HMACSignatureModule.self, OAuth2Module.self, AWSSigV4Module.self] {
            try registry.register(module)
        }
        return registry
    }

    /// The options a stage cannot be made without.
    static func required(_ stage: String, directory: URL) -> [String] {
        switch stage {
        case "har-recorder": ["path: \(directory.appendingPathComponent("run.har").path)"]
        case "hmac-signature": ["secret: abcd"]   // a key in text, base64 and hex alike
        case "oauth2-client-credentials": ["token-url: http://auth.test/token", "client-id: c", "client-secret: s"]
        case "aws-sigv4": ["access-key-id: AKID", "secret-access-key: s", "region: us-east-1", "service: execute-api"]
        default: []
        }
    }

    /// What each option sets in its stage, as a value to compare.
    static func values() -> [String: (any Stage) async throws -> AnyHashable] {
        [
            "reachability.waits-for-connectivity": read(ReachabilityCheck.self) { $0.waitsForConnectivity },
            "reachability.max-wait": read(ReachabilityCheck.self) { $0.maximumWait },
            "serialization.format": read(Serialization.self) { $0.format },
            "serialization.array-encoding": read(Serialization.self) { $0.formEncoder.arrayEncoding },
            "serialization.bool-encoding": read(Serialization.self) { $0.formEncoder.boolEncoding },
            "serialization.space": read(Serialization.self) { $0.formEncoder.spaceEncoding },
            "serialization.parameters-in-uri": read(Serialization.self) { $0.parametersInURI },
            "trust-evaluation.pinning": read(TrustEvaluation.self) { $0.policy.pinning },
            "trust-evaluation.allow-invalid-certificates": read(TrustEvaluation.self) { $0.policy.allowsInvalidCertificates },
            "trust-evaluation.validates-domain-name": read(TrustEvaluation.self) { $0.policy.validatesDomainName },
            "trust-evaluation.cert-status": read(TrustEvaluation.self) { $0.policy.requiresStapledOCSP },
            "response-decoding.format": read(ResponseDecoding.self) { $0.format },
            "response-decoding.acceptable-status": read(ResponseDecoding.self) { $0.acceptableStatus },
            "response-decoding.removes-keys-with-null-values": read(ResponseDecoding.self) { $0.removesKeysWithNullValues },
            "redirects.follow": read(Redirection.self) { $0.follows },
            "redirects.max-hops": read(Redirection.self) { $0.maximumHops },
            "redirects.allow-insecure": read(Redirection.self) { $0.allowsInsecureRedirects },
            "redirects.trusted": read(Redirection.self) { $0.trustsOtherOrigins },
            "redirects.referer": read(Redirection.self) { $0.setsReferer },
            "retry.attempts": read(Retry.self) { $0.attempts },
            "retry.base-delay": read(Retry.self) { $0.baseDelay },
            "retry.max-delay": read(Retry.self) { $0.maxDelay },
            "retry.statuses": read(Retry.self) { $0.statuses },
            "retry.methods": read(Retry.self) { $0.methods },
            "har-recorder.redact-headers": read(HARRecorder.self) { $0.redactedHeaders },
            "har-recorder.max-body-bytes": read(HARRecorder.self) { $0.maxBodyBytes },
            "hmac-signature.secret-encoding": { try await signature(by: $0) },
            "hmac-signature.header": read(HMACSignature.self) { $0.header },
            "hmac-signature.prefix": read(HMACSignature.self) { $0.prefix },
            "hmac-signature.encoding": read(HMACSignature.self) { $0.encoding },
            "hmac-signature.components": read(HMACSignature.self) { $0.components },
            "oauth2-client-credentials.client-authentication": read(OAuth2ClientCredentials.self) { $0.authentication },
            "oauth2-client-credentials.refresh-before": read(OAuth2ClientCredentials.self) { $0.refreshBefore },
            "aws-sigv4.unsigned-payload": read(AWSSigV4.self) { $0.unsignedPayload },
        ]
    }

    /// Reads `value` from a stage of type `S`.
    static func read<S: Stage, V: Hashable>(_ type: S.Type, _ value: @escaping (S) -> V) -> (any Stage) async throws -> AnyHashable {
        { stage in AnyHashable(value(try #require(stage as? S))) }
    }

    /// The `X-Signature` a signing stage sends with a fixed request: it differs with the key.
    static func signature(by stage: any Stage) async throws -> AnyHashable {
        let transport = InMemoryTransport { request in
            Response(status: 200, headers: ["X-Echo": request.headers["X-Signature"] ?? ""], url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [stage], transport: transport, redirects: nil))
        return try await manager.send(Request(url: URL(string: "http://a.test/x")!)).headers["X-Echo"]
    }

    /// The stage `name` as a file listing it with `options` makes it.
    static func stage(_ name: String, options: [String], registry: StageRegistry) throws -> any Stage {
        let entry = options.isEmpty ? "  - \(name)\n" : "  - \(name):\n" + options.map { "      \($0)\n" }.joined()
        let file = try PipelineFile.load(text: "stages:\n" + entry + "requests: []\n", path: "defaults.yaml", environment: [:], registry: registry)
        return try #require(file.stages.first { $0.name == name })
    }

    @Test("every default shown, written into a file, makes the stage that leaving the option out makes")
    func shownDefaultsAreTaken() async throws {
        let registry = try Self.registry()
        let directory = try TemporaryDirectory()
        let values = Self.values()
        var checked: Set<String> = []
        for descriptor in registry.descriptors {
            let required = Self.required(descriptor.name, directory: directory.url)
            for option in descriptor.options {
                let key = descriptor.name + "." + option.name
                guard let shown = option.defaultValue, !Self.descriptive.contains(key) else { continue }
                let value = try #require(values[key], "\(key) shows the default \(shown), which no check reads")
                let omitted = try Self.stage(descriptor.name, options: required, registry: registry)
                let written = try Self.stage(descriptor.name, options: required + ["\(option.name): \(shown)"], registry: registry)
                #expect(try await value(written) == value(omitted), "\(key): \(shown)")
                checked.insert(key)
            }
        }
        #expect(checked == Set(values.keys))
    }

    @Test("a trust-evaluation with no options has the policy TrustPolicy() has")
    func trustDefaults() throws {
        let made = try #require(try Self.stage("trust-evaluation", options: [], registry: .builtIn) as? TrustEvaluation).policy
        let standard = try TrustPolicy()
        #expect(made.pinning == standard.pinning && made.pins.isEmpty && made.caBundle == nil)
        #expect(made.allowsInvalidCertificates == standard.allowsInvalidCertificates)
        #expect(made.validatesDomainName == standard.validatesDomainName)
        #expect(made.requiresStapledOCSP == standard.requiresStapledOCSP && made.crlFile == nil)
    }
}
