import Crypto
import Foundation

/// AWS Signature Version 4: the canonical request, the string to sign, the signing key and the
/// `Authorization` header, as AWS documents them and its published test suite checks them.
///
/// It works on a ``Message`` (what is signed) rather than on a request, so the canonical forms
/// can be checked against the suite's own inputs; ``AWSSigV4`` builds the message from a request.
public struct SigV4Signer: Sendable {
    /// What is signed of a request.
    public struct Message: Sendable {
        /// The method.
        public var method: String
        /// The path as on the request line (`/example%20space/`, or the suite's raw `/example space/`).
        public var path: String
        /// The query's names and values, percent-decoded.
        public var query: [(name: String, value: String)]
        /// The headers to sign, `Host` and `X-Amz-Date` among them, in order.
        public var headers: [(name: String, value: String)]
        /// The lowercase hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
        public var payloadHash: String

        /// Creates a message.
        public init(method: String, path: String, query: [(name: String, value: String)], headers: [(name: String, value: String)], payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// A message signed: each intermediate form, and the header that carries the signature.
    public struct Signature: Sendable {
        /// The canonical request.
        public var canonicalRequest: String
        /// The string to sign.
        public var stringToSign: String
        /// The `Authorization` header's value.
        public var authorization: String
    }

    /// The access key id.
    public var accessKeyID: String
    /// The secret access key.
    public var secretAccessKey: String
    /// The region, `us-east-1`.
    public var region: String
    /// The service, `s3`, `execute-api`.
    public var service: String
    /// Whether the service is S3, whose paths are signed as they are, each segment encoded once;
    /// every other service's path is normalized (dot segments and repeated slashes removed) and
    /// encoded again.
    public var isS3: Bool { service == "s3" }

    /// Creates a signer.
    public init(accessKeyID: String, secretAccessKey: String, region: String, service: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.region = region
        self.service = service
    }

    /// The SHA-256 of no bytes, the payload hash of a request without body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Signs a message at a time written `yyyyMMdd'T'HHmmss'Z'` (`20150830T123600Z`), which must
    /// also be its `X-Amz-Date` header.
    public func sign(_ message: Message, at timestamp: String) -> Signature {
        let date = String(timestamp.prefix(8))
        let scope = "\(date)/\(region)/\(service)/aws4_request"
        let signed = canonicalHeaders(message.headers)
        let canonical = [
            message.method,
            canonicalPath(message.path),
            canonicalQuery(message.query),
            signed.lines,
            signed.names,
            message.payloadHash,
        ].joined(separator: "\n")
        let stringToSign = ["AWS4-HMAC-SHA256", timestamp, scope, SigV4Signer.hex(SHA256.hash(data: Data(canonical.utf8)))].joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(secretAccessKey)".utf8))
        for part in [date, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = SigV4Signer.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        return Signature(
            canonicalRequest: canonical,
            stringToSign: stringToSign,
            authorization: "AWS4-HMAC-SHA256 Credential=\(accessKeyID)/\(scope), SignedHeaders=\(signed.names), Signature=\(signature)"
        )
    }

    /// The canonical URI. For S3 each segment is decoded and encoded once; for every other service
    /// the path is normalized (RFC 3986 dot segments removed, repeated slashes collapsed) and the
    /// path as sent is encoded again, so `%20` becomes `%2520`.
    public func canonicalPath(_ path: String) -> String {
        let path = path.isEmpty ? "/" : path
        if isS3 {
            return path.split(separator: "/", omittingEmptySubsequences: false)
                .map { SigV4Signer.encode(String($0).removingPercentEncoding ?? String($0)) }
                .joined(separator: "/")
        }
        var segments: [Substring] = []
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in parts.enumerated() {
            let isLast = index == parts.count - 1
            switch segment {
            case ".", "": if isLast { segments.append("") }
            case "..":
                if !segments.isEmpty { segments.removeLast() }
                if isLast { segments.append("") }
            default: segments.append(segment)
            }
        }
        return "/" + segments.map { SigV4Signer.encode(String($0)) }.joined(separator: "/")
    }

    /// The canonical query: every name and value encoded, sorted by name, then by value.
    public func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        query.map { (SigV4Signer.encode($0.name), SigV4Signer.encode($0.value)) }
            .sorted { $0.0 != $1.0 ? $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) : $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// The canonical header lines (names in lowercase, sorted; values trimmed, runs of spaces made
    /// one, repeated fields joined by commas) with a final newline, and the signed header names.
    public func canonicalHeaders(_ headers: [(name: String, value: String)]) -> (lines: String, names: String) {
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            let trimmed = value.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            values[name.lowercased(), default: []].append(trimmed)
        }
        let names = values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return (names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined(), names.joined(separator: ";"))
    }

    /// `text` with every byte but the unreserved characters (`A-Z a-z 0-9 - . _ ~`) written `%XX`.
    public static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    /// Lowercase hex of a digest or MAC.
    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
