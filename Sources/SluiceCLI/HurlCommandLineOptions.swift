import ArgumentParser
import SluiceHurlFiles
import SluiceStageRegistry

/// Hurl's command-line options that set every entry of a `.hurl` file, as `hurl` takes them:
/// the converted file writes them out (the redirect stage's rules, each entry's `delay` and
/// `retry` unless its own `[Options]` say otherwise). A pipeline file says these itself, so they
/// are refused beside one.
struct HurlCommandLineOptions: ParsableArguments {
    @Flag(name: [.customShort("L"), .long], help: "Hurl files: follow redirects in every entry (an entry's location: false still wins), as Hurl's -L.")
    var location = false

    @Flag(name: .customLong("location-trusted"), help: "Hurl files: follow redirects, and send credentials to every origin, as Hurl's --location-trusted.")
    var locationTrusted = false

    @Option(name: .customLong("max-redirs"), help: ArgumentHelp("Hurl files: the most redirects followed for one entry.", valueName: "N"))
    var maximumRedirects: Int?

    @Option(help: ArgumentHelp("Hurl files: wait this long before each entry (500ms, 1s; a bare number is milliseconds, as Hurl's).", valueName: "DURATION"))
    var delay: String?

    @Option(help: ArgumentHelp("Hurl files: send an entry again this many times until its asserts hold, as Hurl's --retry.", valueName: "N"))
    var retry: Int?

    @Option(name: .customLong("retry-interval"), help: ArgumentHelp("Hurl files: the pause between two tries (a bare number is milliseconds).", valueName: "DURATION"))
    var retryInterval: String?

    /// The options given, or `nil` for none.
    func defaults() throws -> HurlDefaults? {
        var defaults = HurlDefaults()
        defaults.followsRedirects = location
        defaults.trustsOtherOrigins = locationTrusted
        if let maximumRedirects {
            guard maximumRedirects >= 0 else { throw ValidationError("--max-redirs takes a number of redirects, 0 or more") }
            defaults.maximumRedirects = maximumRedirects
        }
        defaults.delay = try delay.map { try HurlCommandLineOptions.duration($0, "--delay") }
        if let retry {
            guard retry >= 0 else { throw ValidationError("--retry takes a number of tries, 0 or more") }
            defaults.retries = retry
        }
        defaults.retryInterval = try retryInterval.map { try HurlCommandLineOptions.duration($0, "--retry-interval") }
        return defaults == HurlDefaults() ? nil : defaults
    }

    /// A duration as a pipeline writes it: a bare number is milliseconds, as Hurl reads it.
    private static func duration(_ text: String, _ option: String) throws -> String {
        let written = text.allSatisfy(\.isNumber) ? text + "ms" : text
        guard DurationText.parse(written) != nil else { throw ValidationError("\(option) \(text): give a duration such as 500ms or 1s") }
        return written
    }
}
