import Foundation
import SluiceCore
import SluiceStageRegistry

/// The `oauth2-client-credentials` stage, for pipeline files.
public enum OAuth2Module: StageModule {
    /// The `oauth2-client-credentials` stage's descriptor.
    public static var stages: [StageDescriptor] {
        [
            StageDescriptor(
                name: OAuth2ClientCredentials.stageName,
                summary: "Sends a Bearer token from an OAuth 2.0 client-credentials token endpoint, cached until shortly before expiry, refreshed once on 401.",
                options: [
                    OptionDescriptor("token-url", .string, required: true, summary: "The token endpoint, an absolute http(s) URL."),
                    OptionDescriptor("client-id", .string, required: true, summary: "The client id."),
                    OptionDescriptor("client-secret", .string, required: true, secret: true, summary: "The client secret."),
                    OptionDescriptor("scope", .string, summary: "The scope to ask for, space-separated."),
                    OptionDescriptor("parameters", .map(.string), summary: "More form fields for the token request, such as audience."),
                    OptionDescriptor(
                        "client-authentication", .choice(OAuth2ClientCredentials.ClientAuthentication.allCases.map(\.rawValue)),
                        default: OAuth2ClientCredentials.defaultAuthentication.rawValue, summary: "Send the client's credentials by HTTP Basic or in the form body."
                    ),
                    OptionDescriptor(
                        "refresh-before", .duration, default: DurationText.string(OAuth2ClientCredentials.defaultRefreshBefore),
                        summary: "How long before expiry a token is replaced (at most half its lifetime)."
                    ),
                ]
            ) { options in
                let text = options.string("token-url") ?? ""
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil else {
                    throw StageOptions.Invalid(option: "token-url", message: "token-url must be an absolute http(s) URL, not '\(text)'")
                }
                return try OAuth2ClientCredentials(
                    tokenURL: url,
                    clientID: options.string("client-id") ?? "",
                    clientSecret: options.string("client-secret") ?? "",
                    scope: options.string("scope"),
                    parameters: options.pairs("parameters") ?? [],
                    authentication: options.string("client-authentication").flatMap(OAuth2ClientCredentials.ClientAuthentication.init(rawValue:))
                        ?? OAuth2ClientCredentials.defaultAuthentication,
                    refreshBefore: options.duration("refresh-before") ?? OAuth2ClientCredentials.defaultRefreshBefore
                )
            }
        ]
    }
}
