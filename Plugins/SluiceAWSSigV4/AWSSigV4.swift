import Crypto
import Foundation
import SluiceCore
import SluiceStageRegistry

/// Signs each request with AWS Signature Version 4.
///
/// It sets `X-Amz-Date` (and `X-Amz-Security-Token` with temporary credentials, and
/// `X-Amz-Content-SHA256` where asked, as S3 requires), then signs the method, the path, the
/// query, `Host` and every header already on the request but those that proxies and the
/// transport change (`User-Agent`, `Expect`, `Connection`, `Content-Length`, `Transfer-Encoding`,
/// `X-Amzn-Trace-Id`), and the SHA-256 of the body, read in pieces (files are not read into
/// memory). The query is sent encoded as SigV4 encodes it (`x/y` as `x%2Fy`), so signer and
/// server agree on it. It runs after serialization wherever it is listed (`StagePlacement/signing`), so the body it hashes is the body sent.
public struct AWSSigV4: RequestStage {
    /// Headers never signed.
    public static let unsignedHeaders: Set<String> = [
        "authorization", "user-agent", "expect", "connection", "content-length", "transfer-encoding", "x-amzn-trace-id",
    ]

    /// The signer.
    public var signer: SigV4Signer
    /// Temporary credentials' session token.
    public var sessionToken: String?
    /// Whether the body's hash is sent in `X-Amz-Content-SHA256`.
    public var sendsContentHash: Bool
    /// Whether the body goes unsigned (`UNSIGNED-PAYLOAD`), as S3 allows over TLS.
    public var unsignedPayload: Bool
    /// Whether the body goes unsigned by default: no, its hash is signed.
    public static let defaultUnsignedPayload = false
    private let clock: @Sendable () -> Date

    public var name: String { "aws-sigv4" }

    /// `StagePlacement/signing`: below serialization and authorization, so it signs the request as sent.
    public static var placement: StagePlacement { .signing }

    /// The `Authorization` header, which carries the signature.
    public var claims: [String] { ["the Authorization header"] }

    /// Creates the stage.
    /// - Parameters:
    ///   - signer: the credentials, region and service that sign.
    ///   - sessionToken: temporary credentials' session token, sent as `X-Amz-Security-Token`.
    ///   - sendsContentHash: send `X-Amz-Content-SHA256`; by default only for S3.
    ///   - unsignedPayload: leave the body unsigned (`UNSIGNED-PAYLOAD`), as S3 allows over TLS.
    ///   - timestamp: a fixed signing time (`20150830T123600Z`) instead of the clock's.
    public init(
        signer: SigV4Signer,
        sessionToken: String? = nil,
        sendsContentHash: Bool? = nil,
        unsignedPayload: Bool = AWSSigV4.defaultUnsignedPayload,
        timestamp: Date? = nil
    ) {
        self.signer = signer
        self.sessionToken = sessionToken
        self.sendsContentHash = sendsContentHash ?? (signer.service == "s3")
        self.unsignedPayload = unsignedPayload
        if let timestamp {
            clock = { timestamp }
        } else {
            clock = { Date() }
        }
    }

    public func prepare(_ request: Request, context: TaskContext) async throws -> Request {
        var request = request
        request.url = AWSSigV4.canonicallyEncodingQuery(of: request.url)
        let timestamp = AWSSigV4.format(clock())
        request.headers.remove(name: "Authorization")
        request.headers["X-Amz-Date"] = timestamp
        if let sessionToken { request.headers["X-Amz-Security-Token"] = sessionToken }
        let payloadHash: String
        if unsignedPayload {
            payloadHash = "UNSIGNED-PAYLOAD"
        } else {
            var hash = SHA256()
            try request.body.forEachChunk(url: request.url) { hash.update(data: $0) }
            payloadHash = SigV4Signer.hex(hash.finalize())
        }
        if sendsContentHash { request.headers["X-Amz-Content-SHA256"] = payloadHash }
        let message = AWSSigV4.message(for: request, payloadHash: payloadHash)
        request.headers["Authorization"] = signer.sign(message, at: timestamp).authorization
        return request
    }

    /// What is signed of a request: its method, path and query as sent, `Host`, and its headers
    /// but the unsigned ones.
    public static func message(for request: Request, payloadHash: String) -> SigV4Signer.Message {
        let parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var headers: [(name: String, value: String)] = []
        if !request.headers.contains("Host") {
            var host = parts?.percentEncodedHost ?? ""
            if let port = parts?.port, port != (request.url.scheme?.lowercased() == "https" ? 443 : 80) { host += ":\(port)" }
            headers.append(("host", host))
        }
        for field in request.headers where !unsignedHeaders.contains(field.name.lowercased()) {
            headers.append((field.name, field.value))
        }
        return SigV4Signer.Message(
            method: request.method.rawValue,
            path: parts?.percentEncodedPath ?? "/",
            query: queryPairs(parts?.percentEncodedQuery ?? ""),
            headers: headers,
            payloadHash: payloadHash
        )
    }

    /// A query's names and values, percent-decoded, in order; a name without `=` has an empty value.
    static func queryPairs(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let (name, value) = pair.firstIndex(of: "=").map { (pair[..<$0], pair[pair.index(after: $0)...]) } ?? (pair[...], "")
            return (name: String(name).removingPercentEncoding ?? String(name), value: String(value).removingPercentEncoding ?? String(value))
        }
    }

    /// The URL with its query written as SigV4 encodes it (every byte but `A-Z a-z 0-9 - . _ ~`
    /// escaped, `name=value` for every pair), order kept, so the query sent and the query signed
    /// are the same text however a server canonicalizes it.
    static func canonicallyEncodingQuery(of url: URL) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false), let query = parts.percentEncodedQuery, !query.isEmpty else { return url }
        parts.percentEncodedQuery = queryPairs(query).map { SigV4Signer.encode($0.name) + "=" + SigV4Signer.encode($0.value) }.joined(separator: "&")
        return parts.url ?? url
    }

    /// A time as SigV4 writes it: `20150830T123600Z`.
    public static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// Reads a time written as SigV4 writes it, or `nil`.
    public static func parse(_ text: String) -> Date? {
        let digits = text.filter(\.isNumber)
        guard text.count == 16, digits.count == 14, text.dropFirst(8).first == "T", text.last == "Z" else { return nil }
        let numbers = [0...3, 4...5, 6...7, 8...9, 10...11, 12...13].map { Int(String(Array(digits)[$0]))! }
        var components = DateComponents(year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4], second: numbers[5])
        components.timeZone = TimeZone(identifier: "UTC")
        guard let date = Calendar(identifier: .gregorian).date(from: components), format(date) == text else { return nil }
        return date
    }
}
