import Foundation
import SluiceCore
import SluiceStageRegistry

/// The `hmac-signature` stage, for pipeline files.
public enum HMACSignatureModule: StageModule {
    /// The `hmac-signature` stage's descriptor.
    public static var stages: [StageDescriptor] {
        [
            StageDescriptor(
                name: "hmac-signature",
                summary: "Signs each request with HMAC-SHA256 over chosen parts (method, path, query, headers, body digest) in a header.",
                options: [
                    OptionDescriptor("secret", .string, required: true, secret: true, summary: "The key."),
                    OptionDescriptor("secret-encoding", .choice(["text", "base64", "hex"]), default: "text", summary: "How the key is written: its UTF-8 text, or bytes in base64 or hex."),
                    OptionDescriptor("header", .string, default: "X-Signature", summary: "The header the signature goes in."),
                    OptionDescriptor("prefix", .string, default: "\"\"", summary: "Text put before the signature, such as sha256=."),
                    OptionDescriptor("encoding", .choice(["hex", "base64"]), default: "hex", summary: "How the signature is written."),
                    OptionDescriptor(
                        "components", .list(.string), default: "[method, path, query, body-digest]",
                        summary: "What is signed, in order, joined by newlines: method, path, query, body-digest, timestamp, header:NAME."
                    ),
                    OptionDescriptor("timestamp-header", .string, summary: "A header that carries the Unix time in seconds, signed by the timestamp component."),
                    OptionDescriptor("timestamp", .integer, summary: "A fixed Unix time instead of the clock's, for reproducible signatures."),
                ]
            ) { options in
                let secretText = options.string("secret") ?? ""
                let secret: Data?
                switch options.string("secret-encoding") ?? "text" {
                case "base64": secret = Data(base64Encoded: secretText)
                case "hex": secret = hexBytes(secretText)
                default: secret = Data(secretText.utf8)
                }
                guard let secret, !secret.isEmpty else {
                    throw StageOptions.Invalid(option: "secret", message: "secret must be a non-empty key in its secret-encoding")
                }
                var components: [HMACSignature.Component] = []
                for text in options.strings("components") ?? ["method", "path", "query", "body-digest"] {
                    guard let component = HMACSignature.Component(text) else {
                        throw StageOptions.Invalid(option: "components", message: "unknown component '\(text)' (method, path, query, body-digest, timestamp, header:NAME)")
                    }
                    components.append(component)
                }
                let timestampHeader = options.string("timestamp-header")
                if components.contains(.timestamp) && timestampHeader == nil {
                    throw StageOptions.Invalid(option: "components", message: "the timestamp component needs timestamp-header, the header that sends it")
                }
                return HMACSignature(
                    secret: secret,
                    components: components,
                    header: options.string("header") ?? "X-Signature",
                    prefix: options.string("prefix") ?? "",
                    encoding: HMACSignature.Encoding(rawValue: options.string("encoding") ?? "hex") ?? .hex,
                    timestampHeader: timestampHeader,
                    timestamp: options.integer("timestamp")
                )
            }
        ]
    }

    /// The bytes of an even-length hex string.
    private static func hexBytes(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data()
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
