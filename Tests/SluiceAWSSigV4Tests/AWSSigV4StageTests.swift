import Crypto
import Foundation
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import Testing
@testable import SluiceAWSSigV4

/// The lowercase hex SHA-256 of a text.
enum SHA256Hex {
    static func of(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

@Suite("aws-sigv4: the stage")
struct AWSSigV4StageTests {
    static let suiteTime = AWSSigV4.parse("20150830T123600Z")!

    /// The request as the stage leaves it, sent through a pipeline of the stage alone.
    private func signed(_ request: Request, stage: AWSSigV4) async throws -> Request {
        let sent = SentRequests()
        let transport = InMemoryTransport { request in
            sent.append(request)
            return Response(status: 200)
        }
        _ = try await SessionManager(pipeline: try Pipeline(stages: [stage], transport: transport, redirects: nil)).send(request)
        return try #require(sent.first)
    }

    private static func stage(token: String? = nil, service: String = "service", unsigned: Bool = false) -> AWSSigV4 {
        AWSSigV4(
            signer: SigV4Signer(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1", service: service),
            sessionToken: token, unsignedPayload: unsigned, timestamp: suiteTime
        )
    }

    private static func authorization(_ signedHeaders: String, _ signature: String) -> String {
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    @Test("requests built as a client builds them sign to the suite's Authorization headers")
    func suiteThroughRequests() async throws {
        let vanilla = try await signed(Request(url: URL(string: "https://example.amazonaws.com/")!), stage: Self.stage())
        #expect(vanilla.headers["Authorization"] == Self.authorization("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"))
        #expect(vanilla.headers["X-Amz-Date"] == "20150830T123600Z")
        #expect(vanilla.headers["X-Amz-Content-SHA256"] == nil)

        let post = try await signed(
            Request(method: .post, url: URL(string: "https://example.amazonaws.com/")!, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: .data(Data("Param1=value1".utf8))),
            stage: Self.stage()
        )
        #expect(post.headers["Authorization"] == Self.authorization("content-type;host;x-amz-date", "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"))

        let query = try await signed(Request(url: URL(string: "https://example.amazonaws.com/?Param2=value2&Param1=value1")!), stage: Self.stage())
        #expect(query.headers["Authorization"] == Self.authorization("host;x-amz-date", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"))

        var duplicate = Request(url: URL(string: "https://example.amazonaws.com/")!)
        for value in ["value2", "value2", "value1"] { duplicate.headers.add(name: "My-Header1", value: value) }
        duplicate.headers["User-Agent"] = "sluice/0.1.0"
        let signedDuplicate = try await signed(duplicate, stage: Self.stage())
        #expect(signedDuplicate.headers["Authorization"] == Self.authorization("host;my-header1;x-amz-date", "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"))

        let sts = try await signed(Request(method: .post, url: URL(string: "https://example.amazonaws.com/")!), stage: Self.stage(token: SigV4SuiteTests.token))
        #expect(sts.headers["X-Amz-Security-Token"] == SigV4SuiteTests.token)
        #expect(sts.headers["Authorization"] == Self.authorization("host;x-amz-date;x-amz-security-token", "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead"))
    }

    @Test("the body is hashed as sent, files streamed; S3 gets X-Amz-Content-SHA256; UNSIGNED-PAYLOAD when asked")
    func payload() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sigv4-\(UUID().uuidString).txt")
        try Data("value1".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let segments = Request(method: .put, url: URL(string: "https://bucket.s3.amazonaws.com/key")!, body: .segments([.data(Data("Param1=".utf8)), .file(file)]))
        let s3 = try await signed(segments, stage: Self.stage(service: "s3"))
        #expect(s3.headers["X-Amz-Content-SHA256"] == SHA256Hex.of("Param1=value1"))
        #expect(s3.headers["Authorization"]?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date,") == true)
        let unsigned = try await signed(segments, stage: Self.stage(service: "s3", unsigned: true))
        #expect(unsigned.headers["X-Amz-Content-SHA256"] == "UNSIGNED-PAYLOAD")

        let missing = Request(method: .put, url: URL(string: "https://h/x")!, body: .file(URL(fileURLWithPath: "/nonexistent/file")))
        let error = await #expect(throws: SluiceError.self) { try await self.signed(missing, stage: Self.stage()) }
        #expect(error?.kind == .fileIO)
    }

    @Test("attack: a streamed body is refused rather than signed as empty; with unsigned-payload it goes")
    func streamedBody() async throws {
        func request() -> Request {
            let body = RequestBodyStream(AsyncStream<Data> { $0.yield(Data("payload".utf8)); $0.finish() })
            return Request(method: .put, url: URL(string: "https://s3.test/object")!, body: .stream(body))
        }
        let error = await #expect(throws: SluiceError.self) { _ = try await signed(request(), stage: Self.stage()) }
        #expect(error?.kind == .invalidRequest)
        let unsigned = try await signed(request(), stage: Self.stage(unsigned: true))
        #expect(unsigned.headers["Authorization"]?.hasPrefix("AWS4-HMAC-SHA256") == true)
    }

    @Test("Host carries a port that is not the scheme's default; the path as sent is encoded again")
    func hostAndPath() {
        let message = AWSSigV4.message(for: Request(url: URL(string: "http://127.0.0.1:8080/a%20b/c?x=a%2Fb&flag")!), payloadHash: SigV4Signer.emptyPayloadHash)
        #expect(message.headers.first { $0.name == "host" }?.value == "127.0.0.1:8080")
        #expect(message.path == "/a%20b/c")
        #expect(message.query.map(\.name) == ["x", "flag"] && message.query.map(\.value) == ["a/b", ""])
        let signer = SigV4Signer(accessKeyID: "a", secretAccessKey: "s", region: "r", service: "execute-api")
        #expect(signer.sign(message, at: "20150830T123600Z").canonicalRequest.hasPrefix("GET\n/a%2520b/c\nflag=&x=a%2Fb\nhost:127.0.0.1:8080\n"))
    }

    @Test("timestamps: written and read as 20150830T123600Z, nonsense refused")
    func timestamps() {
        #expect(AWSSigV4.format(Self.suiteTime) == "20150830T123600Z")
        for text in ["2015-08-30T12:36:00Z", "20151330T123600Z", "20150830T123600", ""] {
            #expect(AWSSigV4.parse(text) == nil, "\(text)")
        }
    }

    @Test("the descriptor: secrets, a bad timestamp at its line, and the stage refused above serialization")
    func descriptor() throws {
        var registry = StageRegistry.builtIn
        try registry.register(AWSSigV4Module.self)
        let options = "{ access-key-id: AKIDEXAMPLE, secret-access-key: wJalr, session-token: tok, region: us-east-1, service: s3, timestamp: 20150830T123600Z }"
        let file = try PipelineFile.load(text: "stages:\n  - serialization\n  - aws-sigv4: \(options)\nrequests: []\n", path: "a.yaml", environment: [:], registry: registry)
        #expect(Set(file.secrets).isSuperset(of: ["wJalr", "tok"]))
        let stage = try #require(file.stages.last as? AWSSigV4)
        #expect(stage.sendsContentHash)
        do {
            _ = try PipelineFile.load(text: "stages:\n  - aws-sigv4: { access-key-id: a, secret-access-key: s, region: r, service: x, timestamp: yesterday }\nrequests: []\n", path: "a.yaml", environment: [:], registry: registry)
            Issue.record("a bad timestamp was accepted")
        } catch {
            #expect(error.description.hasPrefix("a.yaml:2:81: error: timestamp must be written like 20150830T123600Z"))
        }
        let listedFirst = try PipelineFile.load(text: "stages:\n  - aws-sigv4: \(options)\n  - serialization\nrequests: []\n", path: "a.yaml", environment: [:], registry: registry)
        #expect(try listedFirst.makePipeline(transport: CurlTransport.shared).stageNames == ["header-injection", "serialization", "aws-sigv4", "redirects", "hsts", "cookies"])
        do {
            _ = try PipelineFile.load(
                text: "stages:\n  - header-injection: {authorization: {bearer: t}}\n  - aws-sigv4: \(options)\nrequests: []\n", path: "a.yaml", environment: [:], registry: registry
            )
            Issue.record("two writers of Authorization were accepted")
        } catch {
            #expect(error.description == "a.yaml:3:5: error: 'header-injection' and 'aws-sigv4' cannot work together (at a.yaml:2:5 and at a.yaml:3:5): both claim the Authorization header, and the lower would undo or hide what the upper did; keep one")
        }
    }
}

/// Requests a transport saw, shared with the test.
final class SentRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [Request] = []

    func append(_ request: Request) { lock.withLock { requests.append(request) } }
    var first: Request? { lock.withLock { requests.first } }
}

@Suite("aws-sigv4: the query as sent")
struct AWSSigV4QueryTests {
    @Test("the query is sent encoded as it is signed, order kept")
    func encodedQuery() {
        let url = AWSSigV4.canonicallyEncodingQuery(of: URL(string: "http://h/p?prefix=x/y&b=1+2&flag&c=%7E")!)
        #expect(url.absoluteString == "http://h/p?prefix=x%2Fy&b=1%2B2&flag=&c=~")
        #expect(AWSSigV4.canonicallyEncodingQuery(of: URL(string: "http://h/p")!).absoluteString == "http://h/p")
    }
}
