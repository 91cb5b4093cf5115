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
                    OptionDescriptor(
                        "secret-encoding", .choice(SecretEncoding.allCases.map(\.rawValue)), default: SecretEncoding.standard.rawValue,
                        summary: "How the key is written: its UTF-8 text, or bytes in base64 or hex."
                    ),
                    OptionDescriptor("header", .string, default: HMACSignature.defaultHeader, summary: "The header the signature goes in."),
                    OptionDescriptor("prefix", .string, default: "\"\(HMACSignature.defaultPrefix)\"", summary: "Text put before the signature, such as sha256=."),
                    OptionDescriptor(
                        "encoding", .choice(HMACSignature.Encoding.allCases.map(\.rawValue)), default: HMACSignature.defaultEncoding.rawValue,
                        summary: "How the signature is written."
                    ),
                    OptionDescriptor(
                        "components", .list(.string), default: "[" + HMACSignature.defaultComponents.map(\.description).joined(separator: ", ") + "]",
                        summary: "What is signed, in order, joined by newlines: method, path, query, body-digest, timestamp, header:NAME."
                    ),
                    OptionDescriptor("timestamp-header", .string, summary: "A header that carries the Unix time in seconds, signed by the timestamp component."),
                    OptionDescriptor("timestamp", .integer, summary: "A fixed Unix time instead of the clock's, for reproducible signatures."),
                ]
            ) { options in
                let encoding = options.string("secret-encoding").flatMap(SecretEncoding.init(rawValue:)) ?? .standard
                guard let secret = encoding.key(options.string("secret") ?? ""), !secret.isEmpty else {
                    throw StageOptions.Invalid(option: "secret", message: "secret must be a non-empty key in its secret-encoding")
                }
                var components = HMACSignature.defaultComponents
                if let texts = options.strings("components") {
                    components = []
                    for text in texts {
                        guard let component = HMACSignature.Component(text) else {
                            throw StageOptions.Invalid(option: "components", message: "unknown component '\(text)' (method, path, query, body-digest, timestamp, header:NAME)")
                        }
                        components.append(component)
                    }
                }
                let timestampHeader = options.string("timestamp-header")
                if components.contains(.timestamp) && timestampHeader == nil {
                    throw StageOptions.Invalid(option: "components", message: "the timestamp component needs timestamp-header, the header that sends it")
                }
                return HMACSignature(
                    secret: secret,
                    components: components,
                    header: options.string("header") ?? HMACSignature.defaultHeader,
                    prefix: options.string("prefix") ?? HMACSignature.defaultPrefix,
                    encoding: options.string("encoding").flatMap(HMACSignature.Encoding.init(rawValue:)) ?? HMACSignature.defaultEncoding,
                    timestampHeader: timestampHeader,
                    timestamp: options.integer("timestamp")
                )
            }
        ]
    }

    /// How a pipeline file writes the key.
    private enum SecretEncoding: String, CaseIterable {
        /// Its UTF-8 text.
        case text
        /// Its bytes in base64.
        case base64
        /// Its bytes in hex.
        case hex

        /// What a key left without `secret-encoding` is: text.
        static let standard = SecretEncoding.text

        /// The key's bytes, or `nil` when `written` is not in this encoding.
        func key(_ written: String) -> Data? {
            switch self {
            case .text: Data(written.utf8)
            case .base64: Data(base64Encoded: written)
            case .hex: HMACSignatureModule.hexBytes(written)
            }
        }
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
