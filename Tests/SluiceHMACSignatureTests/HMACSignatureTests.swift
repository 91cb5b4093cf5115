import Foundation
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import Testing
@testable import SluiceHMACSignature

@Suite("hmac-signature")
struct HMACSignatureTests {
    /// The request as the stage leaves it.
    private func signed(_ request: Request, _ stage: HMACSignature) async throws -> Request {
        let sent = Sent()
        let transport = InMemoryTransport { request in
            sent.request = request
            return Response(status: 200)
        }
        _ = try await SessionManager(pipeline: try Pipeline(stages: [stage], transport: transport, redirects: nil)).send(request)
        return try #require(sent.request)
    }

    @Test("attack: a streamed body is refused, never signed as if it were empty")
    func streamedBody() async throws {
        let body = RequestBodyStream(AsyncStream<Data> { $0.yield(Data("payload".utf8)); $0.finish() })
        let request = Request(method: .post, url: URL(string: "http://h.test/items")!, body: .stream(body))
        let error = await #expect(throws: SluiceError.self) { _ = try await signed(request, HMACSignature(secret: Data("key".utf8))) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("cannot be hashed or signed") == true)
    }

    @Test("the default components (method, path, query, body digest) give the HMAC Python's hmac module computes")
    func defaults() async throws {
        let request = Request(method: .post, url: URL(string: "http://h.test/items/a%20b?q=1&r=x%2Fy")!, body: .data(Data(#"{"a":1}"#.utf8)))
        let stage = HMACSignature(secret: Data("key".utf8))
        #expect(
            try stage.signedText(of: request, timestamp: "0")
                == "POST\n/items/a%20b\nq=1&r=x%2Fy\n015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"
        )
        let sent = try await signed(request, stage)
        #expect(sent.headers["X-Signature"] == "c3e3591a624c93982869bc3db84229adcb8b06f6f444ae2747bb4f8670630d70")
    }

    @Test("a timestamp header, chosen headers (repeated ones joined, missing ones empty), base64, a prefix, a hex key")
    func options() async throws {
        var request = Request(url: URL(string: "http://h.test")!)
        request.headers.add(name: "X-Tenant", value: "acme")
        request.headers.add(name: "X-Tenant", value: " beta ")
        let stage = HMACSignature(
            secret: Data([0x00, 0xFF, 0x10]),
            components: [.method, .path, .query, .header("X-Date"), .timestamp, .header("X-Tenant"), .header("X-Missing"), .bodyDigest],
            header: "Signature", prefix: "sha256=", encoding: .base64, timestampHeader: "X-Date", timestamp: 1_700_000_000
        )
        let sent = try await signed(request, stage)
        #expect(sent.headers["X-Date"] == "1700000000")
        #expect(sent.headers["Signature"] == "sha256=qB0J1OWqSmie22En7vXvEnCPQkhJduh6YeUXO7/qyB0=")
    }

    @Test("the descriptor: key encodings, components, and what it refuses at the option's line")
    func descriptor() throws {
        var registry = StageRegistry.builtIn
        try registry.register(HMACSignatureModule.self)
        func load(_ options: String) throws(PipelineFileError) -> PipelineFile {
            try PipelineFile.load(text: "stages:\n  - hmac-signature: { \(options) }\nrequests: []\n", path: "h.yaml", environment: [:], registry: registry)
        }
        let file = try load("secret: AP8Q, secret-encoding: base64, components: [method, 'header:X-Date', timestamp], timestamp-header: X-Date")
        let stage = try #require(file.stages.first as? HMACSignature)
        #expect(stage.components == [.method, .header("X-Date"), .timestamp])
        #expect(file.secrets.contains("AP8Q"))
        for (options, message) in [
            ("secret: zz, secret-encoding: hex", "h.yaml:2:23: error: secret must be a non-empty key in its secret-encoding"),
            ("secret: k, components: [method, bogus]", "h.yaml:2:34: error: unknown component 'bogus' (method, path, query, body-digest, timestamp, header:NAME)"),
            ("secret: k, components: [timestamp]", "h.yaml:2:34: error: the timestamp component needs timestamp-header, the header that sends it"),
            ("secret: k, encoding: base32", "h.yaml:2:44: error: encoding must be one of hex | base64, not 'base32'"),
        ] {
            do {
                _ = try load(options)
                Issue.record("accepted: \(options)")
            } catch {
                #expect(error.description == message)
            }
        }
        let listedFirst = try PipelineFile.load(text: "stages:\n  - hmac-signature: { secret: k }\n  - serialization\nrequests: []\n", path: "h.yaml", environment: [:], registry: registry)
        #expect(try listedFirst.makePipeline(transport: CurlTransport.shared).stageNames == ["header-injection", "serialization", "hmac-signature", "redirects", "hsts", "cookies"])
        do {
            _ = try PipelineFile.load(text: "stages:\n  - hmac-signature: { secret: k }\n  - serialization\n  - hmac-signature: { secret: j, header: X-Other }\n  - hmac-signature: { secret: l }\nrequests: []\n", path: "h.yaml", environment: [:], registry: registry)
            Issue.record("two signatures in one header were accepted")
        } catch {
            #expect(error.description == "h.yaml:5:5: error: two 'hmac-signature' stages cannot work together (at h.yaml:2:5 and at h.yaml:5:5): both claim the X-Signature header, and the lower would undo or hide what the upper did; keep one")
        }
    }
}

/// The request a transport saw, shared with the test.
final class Sent: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Request?

    var request: Request? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
