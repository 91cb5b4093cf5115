import Foundation
import SluiceCore
import SluiceStageRegistry

/// A request's own `credential:` (curl's `-u` for one command, Hurl's `user`, `digest` and
/// `netrc-file` options): a user name and password, or those a `.netrc` file holds for the
/// request's host, which the `authentication` stage answers with for that request's origin.
package enum CredentialOptions {
    package static let descriptors = [
        OptionDescriptor("username", .string, summary: "The user."),
        OptionDescriptor("password", .string, secret: true, summary: "The password."),
        OptionDescriptor(
            "netrc-file", .string,
            summary: "A .netrc file (relative to the pipeline file) holding the login and password for the request's host, as curl's --netrc-file; in place of username and password."
        ),
        OptionDescriptor(
            "schemes", .choice(["any", "basic", "digest"]), default: "any",
            summary: "basic: sent with the first request; digest: answers Digest challenges only; any: the server's challenge chooses, Digest before Basic."
        ),
    ]

    /// What is wrong with the options as written: `username` and `password` together, or
    /// `netrc-file` alone.
    package static func problem(in pairs: [YAMLNode.Pair]) -> String? {
        let keys = Set(pairs.compactMap(\.key.scalar))
        if keys.contains("netrc-file") {
            return keys.contains("username") || keys.contains("password") ? "credential takes username and password, or netrc-file, not both" : nil
        }
        return keys.contains("username") && keys.contains("password") ? nil : "credential needs username and password (or netrc-file)"
    }

    /// The credentials the options give: the one written out, or those of a `.netrc` file by host
    /// (looked up when the request's URL is complete, below the stages that complete it).
    /// - Throws: `.invalidRequest` when the `.netrc` file cannot be read or parsed.
    package static func credentials(from options: StageOptions) throws(SluiceError) -> any HTTPCredentialProvider {
        let schemes = options.string("schemes").flatMap(HTTPAuthenticationSchemes.init(name:)) ?? .any
        guard let path = options.path("netrc-file") else {
            return HTTPCredential(username: options.string("username") ?? "", password: options.string("password") ?? "", schemes: schemes)
        }
        do {
            let text = String(decoding: try InputFile.data(at: path, role: "the .netrc file"), as: UTF8.self)
            return NetrcCredentialProvider(file: try NetrcFile(text: text), schemes: schemes)
        } catch {
            throw SluiceError(kind: .invalidRequest, message: "credential: \(path): \(error)")
        }
    }
}
