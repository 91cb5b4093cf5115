import SluiceCore
import SluiceStageRegistry

/// The options of the `redirects` stage and of a request's `redirects:`: whether and how far
/// redirects are followed, and where credentials go (curl's `-L`, `--max-redirs`,
/// `--location-trusted`, `--referer ';auto'`; Hurl's `location`, `max-redirs`, `location-trusted`).
package enum RedirectOptions {
    /// The rules with no options.
    private static let standard = Redirection()

    package static let descriptors = [
        OptionDescriptor("follow", .boolean, default: "\(standard.follows)", summary: "false hands redirect responses back as they are."),
        OptionDescriptor("max-hops", .integerIn(0...Int.max), default: "\(standard.maximumHops)", summary: "The most redirects followed for one request."),
        OptionDescriptor("allow-insecure", .boolean, default: "\(standard.allowsInsecureRedirects)", summary: "Follow a redirect from https to http."),
        OptionDescriptor(
            "trusted", .boolean, default: "\(standard.trustsOtherOrigins)",
            summary: "Send Authorization and Cookie to every hop, whatever its origin, as curl's --location-trusted; otherwise only to the first request's origin."
        ),
        OptionDescriptor(
            "referer", .boolean, default: "\(standard.setsReferer)",
            summary: "Send each hop a Referer naming the URL that redirected to it, its fragment and user name and password left out, as curl's --referer ';auto'."
        ),
    ]

    /// The options that only act on a redirect followed.
    private static let followingOptions = ["max-hops", "allow-insecure", "trusted", "referer"]

    /// The rules the options describe, each option not given as `Redirection`'s default.
    /// - Throws: `StageOptions.Invalid` for `follow: false` beside an option that acts only on a
    ///   redirect followed, which would be ignored in silence.
    package static func redirection(from options: StageOptions) throws(StageOptions.Invalid) -> Redirection {
        if options.bool("follow") == false, let ignored = followingOptions.first(where: { options.node($0) != nil }) {
            throw StageOptions.Invalid(
                option: ignored,
                message: "\(ignored) acts on the redirects followed, and follow: false follows none; leave one of them out"
            )
        }
        return Redirection(
            maximumHops: options.integer("max-hops") ?? standard.maximumHops,
            allowsInsecureRedirects: options.bool("allow-insecure") ?? standard.allowsInsecureRedirects,
            follows: options.bool("follow") ?? standard.follows,
            trustsOtherOrigins: options.bool("trusted") ?? standard.trustsOtherOrigins,
            setsReferer: options.bool("referer") ?? standard.setsReferer
        )
    }
}
