import Crypto
import Foundation
import SluiceCore
import SluiceStageRegistry

/// Signs each request with HMAC-SHA256 over the parts of it a server checks, in a header.
///
/// The signed text is the chosen components, in the order given, joined by `\n`:
/// - `method`: the method, `POST`;
/// - `path`: the URL's path as sent, percent-encoded, `/` when empty;
/// - `query`: the URL's query as sent, without `?`, empty when there is none;
/// - `body-digest`: the lowercase hex SHA-256 of the body (of no bytes when there is none);
/// - `timestamp`: the Unix time in seconds that the stage also puts in `timestampHeader`;
/// - `header:NAME`: `name:value`, the name in lowercase, the values of repeated fields joined by
///   `, `, empty when the request has no such header.
///
/// The header carries `prefix` followed by the MAC in lowercase hex or base64:
/// `X-Signature: sha256=3f1a…`. The stage runs after serialization, so the body it digests is
/// the body sent.
public struct HMACSignature: RequestStage {
    /// A part of the request that is signed.
    public enum Component: Sendable, Hashable, CustomStringConvertible {
        /// The method.
        case method
        /// The URL's percent-encoded path.
        case path
        /// The URL's percent-encoded query.
        case query
        /// The hex SHA-256 of the body.
        case bodyDigest
        /// The timestamp the stage sends.
        case timestamp
        /// A header, by name.
        case header(String)

        /// Reads `method`, `path`, `query`, `body-digest`, `timestamp` or `header:NAME`.
        public init?(_ text: String) {
            switch text {
            case "method": self = .method
            case "path": self = .path
            case "query": self = .query
            case "body-digest": self = .bodyDigest
            case "timestamp": self = .timestamp
            default:
                guard text.hasPrefix("header:"), text.count > 7 else { return nil }
                self = .header(String(text.dropFirst(7)))
            }
        }

        /// The component as ``init(_:)`` reads it: `method`, `body-digest`, `header:NAME`.
        public var description: String {
            switch self {
            case .method: "method"
            case .path: "path"
            case .query: "query"
            case .bodyDigest: "body-digest"
            case .timestamp: "timestamp"
            case .header(let name): "header:" + name
            }
        }
    }

    /// How the MAC is written.
    public enum Encoding: String, Sendable, CaseIterable {
        /// Lowercase hexadecimal.
        case hex
        /// Base64 with padding.
        case base64
    }

    /// The components signed, in order.
    public var components: [Component]
    /// The header the signature goes in.
    public var header: String
    /// Text put before the MAC in the header.
    public var prefix: String
    /// How the MAC is written.
    public var encoding: Encoding
    /// The header the timestamp goes in, when one is sent.
    public var timestampHeader: String?
    private let key: SymmetricKey
    private let clock: @Sendable () -> Int

    public var name: String { "hmac-signature" }

    /// `StagePlacement/signing`: below serialization and authorization, so it signs the request as sent.
    public static var placement: StagePlacement { .signing }

    /// The header that carries the signature.
    public var claims: [String] { ["the \(header) header"] }

    /// The components signed by default: method, path, query and body digest.
    public static let defaultComponents: [Component] = [.method, .path, .query, .bodyDigest]
    /// The header the signature goes in by default, `X-Signature`.
    public static let defaultHeader = "X-Signature"
    /// The text put before the MAC by default: none.
    public static let defaultPrefix = ""
    /// How the MAC is written by default: in hex.
    public static let defaultEncoding = Encoding.hex

    /// Creates the stage.
    /// - Parameters:
    ///   - secret: the key's bytes.
    ///   - components: the components signed, in order.
    ///   - header: the header the signature goes in.
    ///   - prefix: text put before the MAC in the header (`sha256=`).
    ///   - encoding: how the MAC is written.
    ///   - timestampHeader: the header the timestamp goes in, when one is sent.
    ///   - timestamp: the Unix time to send; the current time at each request by default.
    public init(
        secret: Data,
        components: [Component] = HMACSignature.defaultComponents,
        header: String = HMACSignature.defaultHeader,
        prefix: String = HMACSignature.defaultPrefix,
        encoding: Encoding = HMACSignature.defaultEncoding,
        timestampHeader: String? = nil,
        timestamp: Int? = nil
    ) {
        key = SymmetricKey(data: secret)
        self.components = components
        self.header = header
        self.prefix = prefix
        self.encoding = encoding
        self.timestampHeader = timestampHeader
        if let timestamp {
            clock = { timestamp }
        } else {
            clock = { Int(Date().timeIntervalSince1970) }
        }
    }

    public func prepare(_ request: Request, context: TaskContext) async throws -> Request {
        var request = request
        let timestamp = String(clock())
        if let timestampHeader { request.headers[timestampHeader] = timestamp }
        let text = try signedText(of: request, timestamp: timestamp)
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key))
        let written = encoding == .hex ? HMACSignature.hex(mac) : mac.base64EncodedString()
        request.headers[header] = prefix + written
        return request
    }

    /// The text the MAC is computed over.
    public func signedText(of request: Request, timestamp: String) throws -> String {
        let parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        return try components.map { component -> String in
            switch component {
            case .method: return request.method.rawValue
            case .path: return parts.map { $0.percentEncodedPath.isEmpty ? "/" : $0.percentEncodedPath } ?? "/"
            case .query: return parts?.percentEncodedQuery ?? ""
            case .bodyDigest:
                var hash = SHA256()
                try request.body.forEachChunk(url: request.url) { hash.update(data: $0) }
                return HMACSignature.hex(hash.finalize())
            case .timestamp: return timestamp
            case .header(let name): return name.lowercased() + ":" + request.headers.values(for: name).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
            }
        }.joined(separator: "\n")
    }

    /// Lowercase hex of a digest or MAC.
    private static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
