import Foundation
import SluiceCore
import SluiceStageRegistry

/// The `aws-sigv4` stage, for pipeline files.
public enum AWSSigV4Module: StageModule {
    /// The `aws-sigv4` stage's descriptor.
    public static var stages: [StageDescriptor] {
        [
            StageDescriptor(
                name: "aws-sigv4",
                summary: "Signs each request with AWS Signature Version 4, after serialization wherever it is listed.",
                options: [
                    OptionDescriptor("access-key-id", .string, required: true, summary: "The access key id, AKIA…"),
                    OptionDescriptor("secret-access-key", .string, required: true, secret: true, summary: "The secret access key."),
                    OptionDescriptor("session-token", .string, secret: true, summary: "The session token of temporary credentials, sent in X-Amz-Security-Token."),
                    OptionDescriptor("region", .string, required: true, summary: "The region, us-east-1."),
                    OptionDescriptor("service", .string, required: true, summary: "The service's signing name: s3, execute-api, sts."),
                    OptionDescriptor("content-sha256", .boolean, default: "true for s3", summary: "Send the body's hash in X-Amz-Content-SHA256."),
                    OptionDescriptor(
                        "unsigned-payload", .boolean, default: "\(AWSSigV4.defaultUnsignedPayload)", summary: "Sign UNSIGNED-PAYLOAD instead of the body's hash (S3 over https)."
                    ),
                    OptionDescriptor("timestamp", .string, summary: "A fixed signing time, 20150830T123600Z, for reproducible signatures."),
                ]
            ) { options in
                var timestamp: Date?
                if let text = options.string("timestamp") {
                    guard let date = AWSSigV4.parse(text) else {
                        throw StageOptions.Invalid(option: "timestamp", message: "timestamp must be written like 20150830T123600Z (UTC), not '\(text)'")
                    }
                    timestamp = date
                }
                let signer = SigV4Signer(
                    accessKeyID: options.string("access-key-id") ?? "",
                    secretAccessKey: options.string("secret-access-key") ?? "",
                    region: options.string("region") ?? "",
                    service: options.string("service") ?? ""
                )
                return AWSSigV4(
                    signer: signer,
                    sessionToken: options.string("session-token"),
                    sendsContentHash: options.bool("content-sha256"),
                    unsignedPayload: options.bool("unsigned-payload") ?? AWSSigV4.defaultUnsignedPayload,
                    timestamp: timestamp
                )
            }
        ]
    }
}
