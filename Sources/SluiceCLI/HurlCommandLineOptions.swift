import Foundation
import ArgumentParser
import SluiceHurlFiles
import SluicePipelineFiles
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

    @Option(name: .customLong("no-header"), help: ArgumentHelp("Hurl files: no entry sends this header, whoever sets it (the entry, -H, the transport's Accept and User-Agent), as Hurl's --no-header (repeatable).", valueName: "NAME"))
    var noHeader: [String] = []

    @Flag(name: .customLong("no-cookie-store"), help: "Hurl files: no entry stores or sends the jar's cookies (an entry's [Cookies] are still sent).")
    var noCookieStore = false

    @Flag(name: .customLong("ignore-asserts"), help: "Hurl files: check nothing (implicit status and headers included); captures are still taken.")
    var ignoreAsserts = false

    @Option(name: .customLong("output"), help: ArgumentHelp("Hurl files: write the last entry's body to FILE (- for standard output), unless the entry names its own.", valueName: "FILE"))
    var output: String?

    @Option(name: .customLong("from-entry"), help: ArgumentHelp("Hurl files: run from entry N (from 1) on.", valueName: "N"))
    var fromEntry: Int?

    @Option(name: .customLong("to-entry"), help: ArgumentHelp("Hurl files: run up to entry N (from 1), included.", valueName: "N"))
    var toEntry: Int?

    @Flag(name: [.customShort("0"), .customLong("http1.0")], help: "Hurl files: send every entry with HTTP/1.0, as Hurl's and curl's --http1.0.")
    var http10 = false

    @Flag(name: .customLong("http1.1"), help: "Hurl files: send every entry with HTTP/1.1.")
    var http11 = false

    @Flag(name: .customLong("http2"), help: "Hurl files: ask for HTTP/2 in every entry (HTTP/1.1 where the server does not offer it).")
    var http2 = false

    @Option(name: .customLong("limit-rate"), help: ArgumentHelp("Hurl files: the most bytes a second each entry moves each way, as curl's --limit-rate: 100000, 200K, 1M (1024-based).", valueName: "RATE"))
    var limitRate: String?

    @Option(name: [.customShort("b"), .customLong("cookie")], help: ArgumentHelp("Hurl files: read cookies from FILE (curl's format) before the first entry, as Hurl's --cookie.", valueName: "FILE"))
    var cookie: String?

    @Option(name: [.customShort("c"), .customLong("cookie-jar")], help: ArgumentHelp("Hurl files: write the cookies to FILE (curl's format) after the run, as Hurl's --cookie-jar.", valueName: "FILE"))
    var cookieJar: String?

    @Flag(name: .customLong("digest"), help: "Hurl files: -u's credential answers Digest challenges only, as Hurl's --digest.")
    var digest = false

    @Option(name: .customLong("netrc-file"), help: ArgumentHelp("Hurl files: each entry's credential for its host from this .netrc file, as Hurl's --netrc-file.", valueName: "FILE"))
    var netrcFile: String?

    @Flag(name: .customLong("path-as-is"), help: "Hurl files: send every entry's path with its /../ and /./ segments, as Hurl's --path-as-is.")
    var pathAsIs = false

    @Flag(name: .customLong("continue-on-error"), help: "Hurl files: run the entries after one that fails, as Hurl's --continue-on-error (by default a file stops at its first failing entry).")
    var continueOnError = false

    @Option(name: .customLong("file-root"), help: ArgumentHelp("Hurl files: read and write the files a .hurl names (output, file bodies) from DIR instead of its own folder, as Hurl's --file-root.", valueName: "DIR"))
    var fileRoot: String?

    @Option(name: [.customShort("x"), .customLong("proxy")], help: ArgumentHelp("Hurl files: send every entry through this proxy ([PROTOCOL://]HOST[:PORT]), unless it names its own, as Hurl's --proxy.", valueName: "URL"))
    var proxy: String?

    @Option(name: .customLong("no-proxy"), help: ArgumentHelp("Hurl files: hosts (comma-separated) an entry's proxy is not used for, as Hurl's --no-proxy; without it, the no_proxy environment variable, as libcurl reads it.", valueName: "HOSTS"))
    var noProxy: String?

    @Flag(name: .customLong("compressed"), help: "Hurl files: every entry asks for a compressed body (Accept-Encoding: deflate, gzip, br, zstd), as Hurl's --compressed; without it only an entry with compressed: true does, as in Hurl. A coded body is decoded either way.")
    var compressed = false

    @Flag(name: .customLong("no-jsonpath-coercion"), help: "Hurl files: a jsonpath query or filter gives the list of nodes it selects, even for a singular path, as Hurl's --no-jsonpath-coercion (a pipeline's jsonpath-nodes:).")
    var noJSONPathCoercion = false

    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Hurl files: accept a certificate that does not verify (expired, self-signed, another name), as Hurl's -k; an entry's insecure: false still checks.")
    var insecure = false

    @Option(name: .customLong("cacert"), help: ArgumentHelp("Hurl files: trust the CAs of this PEM file in place of the system's, as Hurl's --cacert.", valueName: "FILE"))
    var caBundle: String?

    @Option(name: [.customShort("E"), .customLong("cert")], help: ArgumentHelp("Hurl files: the client certificate (PEM, or PKCS#12) every entry shows, as Hurl's --cert.", valueName: "FILE[:PASSWORD]"))
    var clientCertificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("Hurl files: the PEM key of --cert, when it is not in the certificate's file.", valueName: "FILE"))
    var clientKey: String?

    @Option(name: .customLong("pinnedpubkey"), help: ArgumentHelp("Hurl files: the public keys (sha256//BASE64, or a PEM/DER public-key file, separated by ';') of which the server's verified chain must show one.", valueName: "PINS"))
    var pinnedPublicKeys: String?

    @Option(name: [.customShort("m"), .customLong("max-time")], help: ArgumentHelp("Hurl files: the most time an entry may take (a bare number is seconds, as Hurl's and curl's -m; 500ms, 2m), unless its own max-time says otherwise.", valueName: "DURATION"))
    var maxTime: String?

    /// The options given, as written on the command line (`--no-header`), in the order above.
    var given: [String] {
        let options: [(String, Bool)] = [
            ("--location", location), ("--location-trusted", locationTrusted), ("--max-redirs", maximumRedirects != nil),
            ("--delay", delay != nil), ("--retry", retry != nil), ("--retry-interval", retryInterval != nil),
            ("--no-header", !noHeader.isEmpty), ("--no-cookie-store", noCookieStore), ("--ignore-asserts", ignoreAsserts),
            ("--output", output != nil), ("--from-entry", fromEntry != nil), ("--to-entry", toEntry != nil),
            ("--http1.0", http10), ("--http1.1", http11), ("--http2", http2), ("--limit-rate", limitRate != nil),
            ("--cookie", cookie != nil), ("--cookie-jar", cookieJar != nil), ("--digest", digest), ("--netrc-file", netrcFile != nil),
            ("--path-as-is", pathAsIs), ("--continue-on-error", continueOnError), ("--file-root", fileRoot != nil),
            ("--proxy", proxy != nil), ("--no-proxy", noProxy != nil), ("--compressed", compressed),
            ("--no-jsonpath-coercion", noJSONPathCoercion), ("--insecure", insecure), ("--cacert", caBundle != nil), ("--cert", clientCertificate != nil),
            ("--key", clientKey != nil), ("--pinnedpubkey", pinnedPublicKeys != nil), ("--max-time", maxTime != nil),
        ]
        return options.filter(\.1).map(\.0)
    }

    /// The options given with `-u NAME:PASSWORD`, which `--digest` makes each entry's credential
    /// (and needs), or `nil` for none.
    func defaults(user: String?) throws -> HurlDefaults? {
        guard var defaults = try defaults() else { return nil }
        if digest {
            guard let user else { throw ValidationError("--digest needs -u NAME:PASSWORD, the credential it answers with") }
            guard user.contains(":") else { throw ValidationError("-u \(user.prefix(while: { $0 != ":" })): write NAME:PASSWORD") }
            defaults.user = user
        }
        return defaults
    }

    /// The options given, `-u` aside, or `nil` for none.
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
        for name in noHeader {
            guard !name.isEmpty, !name.contains(where: { $0 == ":" || $0.isWhitespace }) else { throw ValidationError("--no-header '\(name)' is not a header name") }
        }
        defaults.removedHeaders = noHeader
        defaults.usesCookieStore = !noCookieStore
        defaults.ignoresAsserts = ignoreAsserts
        if let output {
            guard !output.isEmpty else { throw ValidationError("--output takes a file, or - for standard output") }
            // Hurl's path is the working folder's; the converted file's own would be its folder's.
            defaults.output = output == "-" ? output : URL(fileURLWithPath: output).path
        }
        if fromEntry != nil || toEntry != nil {
            let first = fromEntry ?? 1, last = toEntry ?? Int.max
            guard first >= 1, last >= 1 else { throw ValidationError("--from-entry and --to-entry take an entry's number, from 1") }
            guard first <= last else { throw ValidationError("--from-entry \(first) is after --to-entry \(last)") }
            defaults.entries = first...last
        }
        // Hurl's paths are the working folder's; the converted file's own would be its folder's.
        defaults.cookieInput = cookie.map { URL(fileURLWithPath: $0).path }
        defaults.cookieOutput = cookieJar.map { URL(fileURLWithPath: $0).path }
        defaults.digest = digest
        defaults.sendsPathAsIs = pathAsIs
        defaults.continuesOnError = continueOnError
        defaults.compressed = compressed
        defaults.jsonPathNodeLists = noJSONPathCoercion
        defaults.proxy = proxy
        let environment = ProcessInfo.processInfo.environment
        // libcurl reads no_proxy (and NO_PROXY) whatever set the proxy; --no-proxy wins over it.
        let hosts = noProxy ?? environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        defaults.noProxy = hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        defaults.fileRoot = fileRoot.map { URL(fileURLWithPath: $0).path }
        defaults.netrcFile = netrcFile.map { URL(fileURLWithPath: $0).path }
        let versions = [(http10, "1.0"), (http11, "1.1"), (http2, "2")].filter(\.0)
        guard versions.count <= 1 else { throw ValidationError("give one of --http1.0, --http1.1 and --http2") }
        defaults.httpVersion = versions.first?.1
        if let limitRate {
            guard let rate = SendCommand.rate(limitRate) else { throw ValidationError("--limit-rate '\(limitRate)' is not a rate such as 100000, 200K or 1M") }
            defaults.limitRate = rate
        }
        defaults.insecure = insecure
        defaults.caBundle = caBundle
        defaults.clientCertificate = clientCertificate
        defaults.clientKey = clientKey
        defaults.pinnedPublicKeys = pinnedPublicKeys
        if let maxTime {
            // Seconds when bare, as Hurl's and curl's -m read it.
            let written = maxTime.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) ? maxTime + "s" : maxTime
            guard let parsed = DurationText.parse(written), parsed > .zero else { throw ValidationError("--max-time \(maxTime): give seconds, or a duration such as 500ms or 2m") }
            defaults.maxTime = written
        }
        return defaults == HurlDefaults() ? nil : defaults
    }

    /// `--header` lines checked, for `HurlDefaults.headerLines`.
    /// - Throws: `ValidationError` for a line that is not `NAME: VALUE`, naming it by its name.
    static func headerLines(_ lines: [String]) throws -> [String] {
        for line in lines where HeaderLine(line) == nil {
            throw ValidationError("--header \(line.prefix { $0 != ":" }): write NAME: VALUE")
        }
        return lines
    }

    /// A duration as a pipeline writes it: a bare number is milliseconds, as Hurl reads it.
    private static func duration(_ text: String, _ option: String) throws -> String {
        let written = text.allSatisfy(\.isNumber) ? text + "ms" : text
        guard DurationText.parse(written) != nil else { throw ValidationError("\(option) \(text): give a duration such as 500ms or 1s") }
        return written
    }
}
