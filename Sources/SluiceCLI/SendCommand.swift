import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import SluiceRetry

/// `sluice send`: one request, as curl would send it, with Sluice's metrics.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Sends requests with curl's command line and prints the response bodies.",
        discussion: """
            The body streams to standard output as it arrives, paced by the reader (or to --output, streamed to disk): memory stays flat whatever its size, as with curl. --include prints the status line and headers first; --metrics prints the timeline of the exchange, the time spent in each stage and the process's peak memory to standard error. As with curl, redirects are followed only with --location, a body (--data, --data-urlencode, --data-file, --form, --json) makes the default method POST, and --upload-file makes it PUT.

            The command line is read as curl reads its own: -XPOST, -dname=x, -fsSLo FILE, --data=VALUE; body pieces (-d, --data-binary, --data-raw, --data-urlencode, --json) are joined in the order typed; '-' is standard input wherever curl takes a file. Several URLs are sent in turn. The exit status is curl's: 0 done, 3 a URL that cannot be sent, 6 no such host, 7 connection failed or no route, 22 -f and a status of 400 or more, 23 output not written, 26 a file not read, 28 timeout, 47 too many redirects, 60 a certificate that does not verify, and libcurl's own code for the rest; 2 an invalid command line.

            Example: sluice send -fsSL -H 'Accept: application/json' http://127.0.0.1:8080/get
            """
    )

    @Argument(help: ArgumentHelp("The http or https URLs, sent as written (their escapes kept), one after another as curl does; without a scheme, http:// is meant, as curl guesses it.", valueName: "url"))
    var positionalURLs: [String] = []

    @Option(name: .customLong("url"), help: ArgumentHelp("A URL, as curl's --url (repeatable): sent after the arguments' URLs.", valueName: "URL"))
    var optionURLs: [String] = []

    @Option(name: [.customShort("r"), .customLong("range")], help: ArgumentHelp("Ask for these bytes only (Range: bytes=RANGE), as curl's -r: 0-499, 500-, -500, 0-0,-1.", valueName: "RANGE"))
    var range: String?

    @Option(name: [.customShort("X"), .customLong("request"), .customLong("method")], help: "The request method; GET, or POST when there is a body.")
    var method: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp("A header 'Name: value' (repeatable), as curl's -H: 'Name:' sends no such field at all (libcurl's own Accept included), 'Name;' sends it empty, @FILE (@- standard input) reads one a line.", valueName: "HEADER/@FILE"))
    var headers: [String] = []

    @Flag(name: [.customShort("I"), .customLong("head")], help: "Send HEAD and print the status line and headers, as curl's -I.")
    var head = false

    @Option(name: [.customShort("A"), .customLong("user-agent")], help: ArgumentHelp("The User-Agent header, unless -H gives one (an empty NAME sends none).", valueName: "NAME"))
    var userAgent: String?

    @Option(name: [.customShort("e"), .customLong("referer")], help: ArgumentHelp("The Referer header, unless -H gives one; with ';auto' after it (or alone), each redirect followed sends the URL it came from, as curl's -e.", valueName: "URL[;auto]"))
    var referer: String?

    @Option(name: [.customShort("u"), .customLong("user")], help: ArgumentHelp("The credential, as curl's -u: USER:PASSWORD (the password a secret), for the URL's host and port only, never a redirect's other host; Basic unless --digest or --anyauth.", valueName: "USER:PASSWORD"))
    var user: String?

    @Flag(name: .customLong("basic"), help: "Basic authentication for -u, sent with the first request: curl's default.")
    var basic = false

    @Flag(name: .customLong("digest"), help: "Digest authentication for -u (RFC 7616: MD5, SHA-256, SHA-512-256), answering the server's challenge, as curl's --digest.")
    var digest = false

    @Flag(name: .customLong("anyauth"), help: "For -u, the scheme the server's challenge asks for: Digest before Basic, as curl's --anyauth.")
    var anyAuth = false

    @Flag(name: .customLong("ntlm"), help: "Refused: NTLM is not offered (no NTLM peer to test it against).")
    var ntlm = false

    @Flag(name: .customLong("negotiate"), help: "Refused: Negotiate (SPNEGO, Kerberos) is not offered (no Kerberos peer to test it against).")
    var negotiate = false

    @Option(name: .customLong("oauth2-bearer"), help: ArgumentHelp("Authorization: Bearer TOKEN, as curl's --oauth2-bearer (the token a secret).", valueName: "TOKEN"))
    var oauth2Bearer: String?

    @Option(name: [.customShort("b"), .customLong("cookie")], help: ArgumentHelp("Cookies to send: 'NAME=VALUE; ...' as they are, or a cookie file (curl's format; without '=' or as @FILE; - standard input) read first, as curl's -b (repeatable: the texts joined with ';', every file read).", valueName: "DATA|FILE"))
    var cookie: [String] = []

    @Option(name: [.customShort("c"), .customLong("cookie-jar")], help: ArgumentHelp("Write every cookie after the request to this file, in curl's format (- standard output, after the body), as curl's -c.", valueName: "FILE"))
    var cookieJar: String?

    @Flag(name: [.customShort("L"), .customLong("location")], help: "Follow redirects.")
    var location = false

    @Flag(name: .customLong("location-trusted"), help: "Follow redirects, and send -u's credentials, Authorization and Cookie to every host on the way, as curl's --location-trusted.")
    var locationTrusted = false

    @Option(name: .customLong("max-redirs"), parsing: .unconditional, help: "With --location or --location-trusted, the most redirects to follow (curl's default is 50; -1 for no limit: a loop is still found).")
    var maxRedirects = 10

    @Flag(help: "Print the exchange's timeline, bytes and stage timings to standard error.")
    var metrics = false

    @Flag(name: .customLong("path-as-is"), help: "Send the URL's /../ and /./ segments as written, as curl's --path-as-is (by default they are removed, as curl removes them).")
    var pathAsIs = false

    @Flag(name: [.customShort("g"), .customLong("globoff")], help: "Accepted for curl's command lines: sluice send never expands {a,b} or [1-3] in a URL (curl does without -g); braces and brackets are sent escaped.")
    var globOff = false

    @Option(
        name: .customLong("hsts"),
        help: ArgumentHelp("An HSTS file in curl's format, read first and written after: http:// to a host it holds goes over https://, and Strict-Transport-Security answers are kept, as curl's --hsts.", valueName: "FILE")
    )
    var hstsFile: String?

    @Option(name: .customLong("connect-timeout"), parsing: .unconditional, help: "The connect timeout in seconds (fractions allowed; 0: the default, 10).")
    var connectTimeout: Double = 10

    @Option(name: [.customShort("m"), .customLong("max-time"), .customLong("timeout")], parsing: .unconditional, help: ArgumentHelp("The total timeout in seconds (fractions allowed); none by default or with 0, as curl's -m.", valueName: "SECONDS"))
    var timeout: Double?

    @Option(
        name: .customLong("max-filesize"),
        help: "The most bytes of response body to take (after content decoding), as curl's --max-filesize: 1048576, 512KiB, 10MB."
    )
    var maxFileSize: String?

    @Flag(name: .customLong("http1.1"), help: "Use HTTP/1.1 even where the server offers HTTP/2.")
    var http11 = false

    @Flag(name: .customLong("http2"), help: "HTTP/2: over TLS where the server offers it (the default), and over plain http asked for with Upgrade: h2c, as curl's --http2.")
    var http2 = false

    @Option(name: .customLong("limit-rate"), help: ArgumentHelp("The most bytes a second each way, as curl's --limit-rate: 100000, 200K, 1M, 1G (1024-based).", valueName: "RATE"))
    var limitRate: String?

    @Option(name: .customLong("retry"), parsing: .unconditional, help: ArgumentHelp("Send again up to N times after a transient failure (a timeout, a connection refused or lost, 408, 429, 500, 502, 503, 504), as curl's --retry: waits double from 1 s, or follow Retry-After.", valueName: "N"))
    var retry: Int?

    @Option(name: .customLong("retry-delay"), parsing: .unconditional, help: ArgumentHelp("With --retry: wait this many seconds before each retry instead of doubling from 1 s (a Retry-After still wins), as curl's --retry-delay; 0 keeps the doubling.", valueName: "SECONDS"))
    var retryDelay: Int?

    @Flag(name: .customLong("retry-connrefused"), help: "With --retry: retry a refused connection too, as curl's --retry-connrefused (--retry here always does).")
    var retryConnectionRefused = false

    @Flag(name: [.customShort("n"), .customLong("netrc")], help: "Take the credential for the URL's host from ~/.netrc, as curl's -n (-u wins).")
    var netrc = false

    @Option(name: .customLong("netrc-file"), help: ArgumentHelp("Take the credential for the URL's host from FILE, a .netrc file, as curl's --netrc-file.", valueName: "FILE"))
    var netrcFile: String?

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Show each exchange on standard error as curl's -v: > lines sent, < lines received, * notes; credentials and cookies as ***.")
    var verbose = false

    @Flag(
        help: "Read a text/event-stream resource as server-sent events: one JSON line per event ({\"type\", \"data\", \"id\"}) as each arrives, reconnecting with Last-Event-ID when the connection drops. --timeout then bounds the whole reading."
    )
    var events = false

    @Option(name: .customLong("max-events"), help: "With --events, stop after this many events.")
    var maxEvents: Int?

    @Flag(
        name: .customLong("wait-for-connectivity"),
        help: "While no route leads to the host, wait for one (up to --timeout, else 60 s) instead of failing; without it, no route fails at once with 'not reachable'."
    )
    var waitsForConnectivity = false

    @OptionGroup(title: "Request body")
    var bodyOptions: SendBodyOptions

    @OptionGroup(title: "Output")
    var outputOptions: SendOutputOptions

    @OptionGroup(title: "TLS and trust")
    var trust: SendTrustOptions

    @OptionGroup(title: "Proxies")
    var proxy: SendProxyOptions

    @OptionGroup(title: "Connections")
    var connection: SendConnectionOptions

    func validate() throws {
        guard !urls.isEmpty else {
            throw ValidationError("give a URL")
        }
        if outputOptions.outputs.count > urls.count {
            throw ValidationError("\(outputOptions.outputs.count) -o for \(urls.count) URL\(urls.count == 1 ? "" : "s"): each -o goes with one URL")
        }
        if urls.count > 1, outputOptions.continueAt != nil || events {
            throw ValidationError("\(outputOptions.continueAt != nil ? "-C" : "--events") goes with one URL; \(urls.count) are given")
        }
        if let range, range.isEmpty || !range.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == ",") }) {
            throw ValidationError("-r '\(range)' is not a byte range such as 0-499, 500- or -500")
        }
        if events, outputOptions.writeOut != nil {
            throw ValidationError("--events prints the events; -w goes with a response")
        }
        if head, try bodyOptions.isGiven, !bodyOptions.get {
            throw ValidationError("-I sends HEAD, which carries no body: drop the data, or add -G to put it in the query")
        }
        if let user, !user.contains(":") {
            throw ValidationError("-u '\(user)': give USER:PASSWORD (sluice send does not prompt for a password)")
        }
        if user != nil, oauth2Bearer != nil {
            throw ValidationError("-u and --oauth2-bearer both set Authorization: give one")
        }
        if ntlm || negotiate {
            throw ValidationError("\(ntlm ? "--ntlm" : "--negotiate"): Sluice does not offer \(ntlm ? "NTLM" : "Negotiate") authentication (nothing here tests it against a real peer); it answers Basic and Digest (--basic, --digest, --anyauth)")
        }
        let schemes = [("--basic", basic), ("--digest", digest), ("--anyauth", anyAuth)].filter(\.1).map(\.0)
        if schemes.count > 1 {
            throw ValidationError("give one of \(schemes.joined(separator: ", "))")
        }
        if let scheme = schemes.first, user == nil {
            throw ValidationError("\(scheme) goes with -u USER:PASSWORD")
        }
        if maxRedirects < -1 {
            throw ValidationError("--max-redirs must be 0 or more, or -1 for no limit")
        }
        for header in headers where !header.hasPrefix("@") && !header.contains(":") && !header.hasSuffix(";") {
            throw ValidationError("header '\(header)' is not of the form 'Name: value', 'Name:' or 'Name;'")
        }
        if connectTimeout < 0 || (timeout ?? 0) < 0 || !connectTimeout.isFinite || !(timeout ?? 0).isFinite {
            throw ValidationError("timeouts are seconds, 0 or more (0: none, as curl's -m 0)")
        }
        if maxEvents != nil, !events {
            throw ValidationError("--max-events goes with --events")
        }
        if let maxEvents, maxEvents < 1 {
            throw ValidationError("--max-events must be 1 or more")
        }
        if http11 && http2 {
            throw ValidationError("give one of --http1.1 and --http2")
        }
        if let limitRate, SendCommand.rate(limitRate) == nil {
            throw ValidationError("--limit-rate '\(limitRate)' is not a rate such as 100000, 200K or 1M")
        }
        if let retry, retry < 0 {
            throw ValidationError("--retry must be 0 or more")
        }
        if let retryDelay, retryDelay < 0 {
            throw ValidationError("--retry-delay must be 0 or more seconds")
        }
        // curl takes these without --retry and does nothing with them: said here instead.
        for (flag, given) in [("--retry-delay", retryDelay != nil), ("--retry-connrefused", retryConnectionRefused)] where given && (retry ?? 0) == 0 {
            throw ValidationError("\(flag) changes how --retry retries: give --retry N too")
        }
        if netrc, netrcFile != nil {
            throw ValidationError("give one of -n and --netrc-file")
        }
        if outputOptions.continueAt != nil {
            if try outputOptions.include || head || events || bodyOptions.get || bodyOptions.isGiven {
                throw ValidationError("-C resumes a GET download; it goes with no -i, -I, -G, --events or request body")
            }
        }
        if events, output != nil {
            throw ValidationError("--events prints the events; it does not write --output")
        }
        if let maxFileSize, ByteCountText.parse(maxFileSize) == nil {
            throw ValidationError("--max-filesize '\(maxFileSize)' is not a size such as 1048576, 512KiB or 10MB")
        }
    }

    /// Sends to each URL in turn, as curl does: every one is tried, an earlier one's failure is
    /// said and the next goes on, and the exit status is the last one's.
    func run() async throws {
        Interruption.install(stopsLoadFirst: false)
        for (index, url) in urls.enumerated() {
            try await SendCommand.$urlNumber.withValue(index) { try await runURL(index, url) }
        }
    }

    /// The place of the URL being sent among those given, from 0: `-w`'s `%{urlnum}`.
    @TaskLocal private static var urlNumber = 0

    /// Sends to the URL at `index`, with its own `-o`; a failure before the last URL is said, and
    /// the next goes on.
    private func runURL(_ index: Int, _ url: String) async throws {
        do {
            var one = self
            one.positionalURLs = [url]
            one.optionURLs = []
            one.outputOptions.outputs = index < outputOptions.outputs.count ? [outputOptions.outputs[index]] : []
            try await one.runOne()
        } catch let failure as RequestFailure where index < urls.count - 1 {
            if !failure.quiet { Terminal.writeError("sluice: error: \(Terminal.printable(failure.error.description))\n") }
        } catch is ExitCode where index < urls.count - 1 {
            // Its message, if any, is written already.
        }
    }

    /// The URLs in the order curl takes them: the arguments', then `--url`'s.
    private var urls: [String] { positionalURLs + optionURLs }

    /// Where the body goes: `-o`, or with `-O` the URL's last path segment; `nil` for standard
    /// output.
    private var output: String? {
        if let given = outputOptions.outputs.first { return given }
        guard outputOptions.remoteName else { return nil }
        return URIReference(parsing: url).path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    }

    /// One URL's request, with its own output.
    private func runOne() async throws {
        if outputOptions.remoteName, outputOptions.outputs.isEmpty, output?.isEmpty != false {
            // As curl: a URL ending in '/' names no file.
            throw RequestFailure(error: SluiceError(kind: .fileIO, stage: "output", message: "-O: \(url) has no file name in its path"), quiet: outputOptions.quiet, status: 23)
        }
        // Checked here, not in validate(), whose errors the parser reports with its own status.
        _ = try sendableURL(url)
        let transport = CurlTransport(configuration: CurlTransport.Configuration(
            caBundle: trust.caBundle, httpVersion: http11 ? .http1_1 : http2 ? .http2 : .http2OverTLS, decodesContent: !outputOptions.raw
        ))
        let reachability = ReachabilityCheck(waitsForConnectivity: waitsForConnectivity)
        let cookies = try cookieStage()
        // -i, -I and -D show every hop's head under -L, as curl's do; -w reads the hops' figures.
        let keepsHeads = followsRedirects && (outputOptions.include || head || outputOptions.dumpHeader != nil || outputOptions.writeOut != nil)
        let hopLog = HopLog(keepsHeads: keepsHeads)
        let hsts = try hstsFile.map { path in
            do {
                return StrictTransportSecurity(store: try HSTSStore(file: URL(fileURLWithPath: path)))
            } catch {
                throw ValidationError("--hsts: \(error)")
            }
        }
        // Written whatever became of the request, as curl writes its HSTS and cookie files at exit.
        defer {
            if let cookieJar, let cookies {
                do {
                    if cookieJar == "-" {
                        // As curl's -c -: the jar on standard output, after the body.
                        try SendCommand.writeToStandardOutput(Data(NetscapeCookieFile.text(for: cookies.jar.cookies).utf8))
                    } else {
                        try NetscapeCookieFile.save(cookies.jar, to: URL(fileURLWithPath: cookieJar))
                    }
                } catch {
                    // A warning: the exchange's status stands, as curl's does (which says nothing).
                    if !outputOptions.quiet { Terminal.writeError("sluice: warning: \((error as? SluiceError)?.message ?? "cannot write the cookie jar: \(error)")\n") }
                }
            }
            if let hsts {
                do {
                    try hsts.store.save()
                } catch {
                    if !outputOptions.quiet { Terminal.writeError("sluice: warning: \((error as? SluiceError)?.message ?? "cannot write the HSTS file: \(error)")\n") }
                }
            }
        }
        var request = try makeRequest()
        let manager = SessionManager(
            pipeline: try Pipeline(
                stages: [reachability] + (bodyOptions.form.isEmpty ? [] : [Serialization(format: .multipart)]) + (hsts.map { [$0] } ?? [])
                    + (cookies.map { [$0] } ?? []) + (outputOptions.writeOut == nil && !keepsHeads ? [] : [hopLog]) + (try authentication().map { [$0] } ?? [])
                    + (retry.flatMap { $0 > 0 ? [SendCommand.retryStage($0, delay: retryDelay, method: request.method)] : nil } ?? [])
                    + (verbose ? [VerboseLog(redactor: Redactor(secrets: secrets))] : []),
                transport: transport,
                redirects: followsRedirects ? Redirection(maximumHops: maxRedirects == -1 ? .max : maxRedirects, trustsOtherOrigins: locationTrusted, setsReferer: refersOnRedirect) : nil
            ),
            monitors: [WaitNotes(silent: outputOptions.silent)]
        )
        request.trustPolicy = try trustPolicy(for: request, hops: hopLog)
        request.proxyRoute = try proxy.proxyRoute()
        request.connectionOverrides = try connection.overrides(beside: request.proxyRoute)
        request.maxTransferRate = limitRate.flatMap(SendCommand.rate)
        if events {
            try await readEvents(request, manager: manager)
            await transport.shutdown()
            return
        }
        if let resume = try resumeData(for: request) {
            try await resumeDownload(resume, request: request, manager: manager, transport: transport, hops: hopLog)
            return
        }
        // -C without a file, as curl's: the body from the offset (none for -C -) to standard output.
        let resumedOffset = outputOptions.continueAt.flatMap { output == nil || output == "-" ? Int64($0) : nil } ?? 0
        if resumedOffset > 0, !request.headers.contains("Range") {
            request.headers["Range"] = "bytes=\(resumedOffset)-"
        }
        var response: Response
        let handle: TaskHandle
        var bodyBytes: Int64 = 0
        // The response whose body is being taken: a failure while it streams (a timeout, a
        // reset) is written by -w for it and the bytes that came, as curl writes `200 1 28`.
        var streaming: Response?
        do {
            // Opened before anything is sent, so a path that cannot be used is said at once.
            let file = try output.flatMap { (path) throws(SluiceError) in try outputOptions.file(at: path) }
            handle = manager.task(request)
            response = try await handle.value
            let write: (Data) throws(SluiceError) -> Void = { bytes throws(SluiceError) in
                if let file { try file.write(bytes) } else { try SendCommand.writeToStandardOutput(bytes) }
            }
            if outputOptions.fail, response.status >= 400 {
                // As curl's --fail: the head still goes where -D and -i (or -I) send it, as curl
                // writes it on arrival, and -w's line is written; the body is not, and an -o file
                // is left as it was.
                await transport.shutdown()
                try writeHeads(of: response, hops: hopLog, write: file == nil ? write : nil)
                try writeOutLine(response, request: request, bodyWritten: nil, hops: hopLog, failure: .status(response.status))
                throw failedStatus(response.status)
            }
            if resumedOffset > 0, response.status == 200 || response.status == 416 {
                // As curl: a 200 is the whole body, which cannot resume (33); a 416, a body
                // already whole, writes nothing.
                await transport.shutdown()
                guard response.status == 416 else {
                    let failure = RequestFailure(
                        error: SluiceError(kind: .protocolError, stage: "output", message: "the server answered 200 to a range from byte \(resumedOffset): it does not seem to take ranges, so the download cannot resume"),
                        quiet: outputOptions.quiet, status: 33
                    )
                    try writeOutLine(response, request: request, bodyWritten: 0, hops: hopLog, failure: .request(failure))
                    throw failure
                }
                try writeOutLine(response, request: request, bodyWritten: 0, hops: hopLog)
                return
            }
            try writeHeads(of: response, hops: hopLog, write: write)
            if let body = response.bodyStream {
                streaming = response
                var pieces = body.makeAsyncIterator()
                // As curl: binary bytes are not written to a terminal unless -o - asks for them.
                var checksForTerminal = file == nil && output == nil && isatty(STDOUT_FILENO) == 1
                while let piece = try await pieces.next() {
                    if checksForTerminal {
                        checksForTerminal = false
                        if piece.contains(0) {
                            await transport.shutdown()
                            throw RequestFailure(
                                error: SluiceError(kind: .fileIO, stage: "output", message: "the body is binary, which would mess up the terminal: use -o FILE, or -o - to write it here all the same"),
                                quiet: outputOptions.quiet, status: 23
                            )
                        }
                    }
                    bodyBytes += Int64(piece.count)
                    try write(piece)
                }
                response.metrics = body.finalMetrics ?? response.metrics
            }
            try file?.commit()
            let failsWithBody = outputOptions.failWithBody && response.status >= 400
            try writeOutLine(response, request: request, bodyWritten: bodyBytes, hops: hopLog, failure: failsWithBody ? .status(response.status, withBody: true) : nil)
            await transport.shutdown()
            if failsWithBody {
                throw failedStatus(response.status)
            }
        } catch let error as SluiceError {
            await transport.shutdown()
            // A failure after the last response came (too many redirects, a redirect refused) is
            // written for that response, as curl writes it; one during an exchange, for none;
            // one while the body streamed, for its response and the bytes taken before it.
            if var streaming {
                // Its metrics were read at its head: the body's bytes and the time are the ones
                // up to the failure (the bytes as written: a compressed body's decoded size).
                if var metrics = streaming.metrics {
                    metrics.bodyBytesReceived = bodyBytes
                    if let sent = metrics.requestSentAt { metrics.total = metrics.timeToPreTransfer + (.now - sent) }
                    streaming.metrics = metrics
                }
                try? writeOutLine(streaming, request: request, bodyWritten: bodyBytes, hops: hopLog, failure: .error(error))
            } else if error.kind == .responseTooLarge, let head = error.response {
                // A declared length past --max-filesize ends the exchange at its head, which -D
                // and -i still show (an -o file is left as it was) and -w writes its line for, as
                // curl's `200 0 63`.
                let toStandardOutput: (Data) throws(SluiceError) -> Void = { bytes throws(SluiceError) in try SendCommand.writeToStandardOutput(bytes) }
                try? writeHeads(of: head, hops: hopLog, write: output == nil || output == "-" ? toStandardOutput : nil)
                try? writeOutLine(head, request: request, bodyWritten: 0, hops: hopLog, failure: .error(error))
            } else {
                try? writeOutLine(hopLog.responseBeforeFailure, request: request, bodyWritten: nil, hops: hopLog, failure: .error(error))
            }
            throw RequestFailure(error: error, quiet: outputOptions.quiet)
        }
        if metrics {
            Terminal.writeError(MetricsReport(response: response, task: handle.context.metrics).text)
        }
    }

    /// The TLS flags' trust policy. A client certificate that cannot be used fails as curl's
    /// transfer does (58): `-s` hides the message, and `-w` writes its line, for no response.
    private func trustPolicy(for request: Request, hops: HopLog) throws -> TrustPolicy? {
        do {
            return try trust.trustPolicy()
        } catch let failure as RequestFailure {
            try? writeOutLine(nil, request: request, bodyWritten: nil, hops: hops, failure: .request(failure))
            throw RequestFailure(error: failure.error, quiet: outputOptions.quiet, status: failure.status)
        }
    }

    /// What `-C` resumes: the `-o` file's first bytes (all of them for `-C -`), kept in place;
    /// `nil` without `-C`, with nothing to keep (no file yet, or an offset of 0), or to standard
    /// output.
    private func resumeData(for request: Request) throws -> DownloadResumeData? {
        guard let continueAt = outputOptions.continueAt, let output, output != "-" else { return nil }
        let file = URL(fileURLWithPath: output, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value
        let offset = continueAt == "-" ? size ?? 0 : Int64(continueAt) ?? 0
        guard offset > 0 else { return nil }
        guard let size, size >= offset else {
            throw ValidationError("-C \(offset): \(output) holds \(size ?? 0) bytes, fewer than the offset")
        }
        return DownloadResumeData(url: request.url, destination: file, partialFile: file, offset: offset)
    }

    /// Resumes the `-o` file from `resume` (curl's `-C`): appends a `206`, rewrites the file
    /// for a `200`, leaves a complete file for a `416`; `-w` reports the bytes this run took.
    private func resumeDownload(_ resume: DownloadResumeData, request: Request, manager: SessionManager, transport: CurlTransport, hops: HopLog) async throws {
        do {
            let response = try await manager.download(resumingFrom: resume, request: request)
            await transport.shutdown()
            let failed = (outputOptions.fail || outputOptions.failWithBody) && response.status >= 400 && response.status != 416
            if outputOptions.writeOut != nil {
                let size = (try? FileManager.default.attributesOfItem(atPath: resume.destination.path)[.size] as? NSNumber)?.int64Value ?? 0
                let taken: Int64 =
                    switch response.status {
                    case 206: size - resume.offset
                    case 200: size
                    default: Int64(response.body.count)
                    }
                try writeOutLine(response, request: request, bodyWritten: failed ? nil : taken, hops: hops, failure: failed ? .status(response.status, withBody: outputOptions.failWithBody) : nil)
            }
            if failed {
                throw failedStatus(response.status)
            }
        } catch let error as SluiceError {
            await transport.shutdown()
            try? writeOutLine(hops.responseBeforeFailure, request: request, bodyWritten: nil, hops: hops, failure: .error(error))
            throw RequestFailure(error: error, quiet: outputOptions.quiet)
        }
    }

    /// How an exchange failed, for `-w`'s `%{exitcode}` and `%{errormsg}`.
    private enum WriteOutFailure {
        /// `-f` (or `--fail-with-body`, `withBody`) and a status of 400 or more: curl's 22, in
        /// curl's words for each.
        case status(Int, withBody: Bool = false)
        /// The request failed.
        case error(SluiceError)
        /// The request failed with an exit status the command chose (33 for a download that
        /// cannot resume).
        case request(RequestFailure)

        var exitCode: Int32 {
            switch self {
            case .status: 22
            case .error(let error): RequestFailure(error: error).exitStatus
            case .request(let failure): failure.exitStatus
            }
        }

        var message: String {
            switch self {
            case .status(_, withBody: true): "HTTP response code said error"
            case .status(let status, withBody: false): "The requested URL returned error: \(status)"
            case .error(let error): error.message
            case .request(let failure): failure.error.message
            }
        }
    }

    /// Writes the heads `-D` and `-i` (or `-I`) ask for: with `-L`, every response's, as curl
    /// prints them; `-i`'s through `write`, none when `write` is `nil`.
    private func writeHeads(of response: Response, hops: HopLog, write: ((Data) throws(SluiceError) -> Void)?) throws {
        if let dumpHeader = outputOptions.dumpHeader {
            try dumpHeads(hops.earlierResponses + [response], to: dumpHeader)
        }
        guard let write, outputOptions.include || head else { return }
        for earlier in hops.earlierResponses {
            try write(Data(earlier.headText.utf8))
        }
        try write(Data(response.headText.utf8))
    }

    /// Writes `-w`'s line, when `-w` is given, for `response`, whose body was taken with
    /// `bodyWritten` bytes written (`nil`: none taken, as with `-f`); for no response (`nil`), as
    /// curl writes it then: `%{http_code}` `000`, the URL asked for. A body taken counts as it came
    /// on the wire, as curl counts it (a compressed body its compressed size), the bytes written
    /// standing in only when the transport measured none.
    private func writeOutLine(_ response: Response?, request: Request, bodyWritten: Int64?, hops: HopLog, failure: WriteOutFailure? = nil) throws {
        guard let writeOut = outputOptions.writeOut else { return }
        let bodyBytes = bodyWritten.map { written in response?.metrics.map(\.bodyBytesReceived) ?? written } ?? 0
        var figures = WriteOut.Figures(
            status: response?.status ?? 0, url: response?.url?.absoluteString ?? request.url.absoluteString,
            contentType: response?.headers["Content-Type"], bodyBytes: bodyBytes,
            redirects: max(0, hops.hops - 1), metrics: response?.metrics
        )
        figures.method = request.method.rawValue
        figures.requestedURL = url
        figures.urlNumber = SendCommand.urlNumber
        figures.outputFile = output ?? ""
        figures.referer = request.headers["Referer"] ?? ""
        switch request.body {
        case .data(let data): figures.uploadBytes = Int64(data.count)
        case .file(let file): figures.uploadBytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        default: break
        }
        if let response { figures.heads = hops.earlierResponses + [response] }
        // A redirect not followed: without -L, or the one that failed the request.
        if let response, !followsRedirects || failure != nil, (300..<400).contains(response.status), let location = response.headers["Location"] {
            let base = response.url?.absoluteString ?? request.url.absoluteString
            figures.redirectURL = URIReference(parsing: location).resolved(against: URIReference(parsing: base)).description
        }
        if let failure {
            figures.exitCode = failure.exitCode
            figures.errorMessage = failure.message
            // A hop after a redirect got no answer: curl writes the last status received and
            // the URL it failed on.
            if response == nil, let hop = hops.failedHop {
                figures.status = hop.status
                figures.url = hop.url.absoluteString
            }
        }
        try SendCommand.writeToStandardOutput(Data(try outputOptions.writeOutFormat(writeOut).text(figures).utf8))
    }

    /// The stage `-u` (or `-n`, `--netrc-file`) asks for: its credential for the URL's host and
    /// port only (as curl, which sends it to no other host, port or scheme a redirect leads to),
    /// Basic unless `--digest` or `--anyauth` says otherwise; `nil` without a credential.
    private func authentication() throws -> HTTPAuthentication? {
        guard let url = URLText.url(url), let space = ProtectionSpace(url: url) else { return nil }
        let schemes: HTTPAuthenticationSchemes = digest ? .digest : anyAuth ? .any : .basic
        let credential: HTTPCredential
        if let user {
            let parts = user.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            credential = HTTPCredential(username: String(parts[0]), password: parts.count > 1 ? String(parts[1]) : "", schemes: schemes)
        } else if let found = try netrcCredential(for: space.host, schemes: schemes) {
            credential = found
        } else {
            return nil
        }
        guard !locationTrusted else { return HTTPAuthentication(provider: EveryOrigin(credential: credential)) }
        return HTTPAuthentication(credentials: [.init(host: space.host, port: space.port, credential: credential)])
    }

    /// `-e`'s URL, without `;auto`; `nil` without `-e` or for `-e ';auto'` alone.
    private var givenReferer: String? {
        guard let referer else { return nil }
        let url = refersOnRedirect ? String(referer.dropLast(5)) : referer
        return url.isEmpty ? nil : url
    }

    /// `-e URL;auto` (or `-e ';auto'`): each redirect followed sends the URL it came from as its
    /// `Referer`, as curl's.
    private var refersOnRedirect: Bool {
        referer?.hasSuffix(";auto") == true
    }

    /// Whether redirects are followed: `-L` or `--location-trusted`.
    private var followsRedirects: Bool {
        location || locationTrusted
    }

    /// One credential for every origin: `-u` under `--location-trusted`.
    private struct EveryOrigin: HTTPCredentialProvider {
        let credential: HTTPCredential

        func credential(for space: ProtectionSpace) -> HTTPCredential? {
            credential
        }
    }

    /// The credential `-n` (`~/.netrc`, none when it does not exist) or `--netrc-file` (which
    /// must exist) holds for `host`.
    private func netrcCredential(for host: String, schemes: HTTPAuthenticationSchemes) throws -> HTTPCredential? {
        let path: String
        if let netrcFile {
            path = netrcFile
        } else if netrc {
            path = (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + "/.netrc"
            guard FileManager.default.fileExists(atPath: path) else { return nil }
        } else {
            return nil
        }
        let text: String
        do {
            text = String(decoding: try InputFile.data(at: path, role: "the .netrc file"), as: UTF8.self)
        } catch {
            throw ValidationError("\(netrcFile != nil ? "--netrc-file" : "-n"): \(error)")
        }
        do {
            return try NetrcFile(text: text).credential(for: host, schemes: schemes)
        } catch {
            throw ValidationError("\(path): \(error)")
        }
    }

    /// The values `-v` hides wherever they show: the passwords and tokens given.
    private var secrets: [String] {
        var values: [String] = []
        if let user, let colon = user.firstIndex(of: ":") { values.append(String(user[user.index(after: colon)...])) }
        if let oauth2Bearer { values.append(oauth2Bearer) }
        if let secret = proxy.secret { values.append(secret) }
        return values.filter { !$0.isEmpty }
    }

    /// curl's `--retry N`: N more attempts for a transient failure, the waits doubling from 1 s,
    /// or each `delay` seconds with `--retry-delay` (0 keeps the doubling), a `Retry-After` up to
    /// curl's longest backoff of 10 minutes winning over either, whatever the method, as curl
    /// retries any.
    static func retryStage(_ retries: Int, delay: Int? = nil, method: HTTPMethod) -> Retry {
        // The backoff's ceiling, in seconds, is the wait: no jitter, as curl has none.
        let wait: @Sendable (Double) -> Double = if let delay, delay > 0 { { _ in Double(delay) } } else { { $0 } }
        return Retry(attempts: retries + 1, baseDelay: .seconds(1), maxDelay: .seconds(600), methods: [method], jitter: wait)
    }

    /// A `--limit-rate` value in bytes a second: digits with an optional K, M or G (1024-based,
    /// any case), as curl reads it; `nil` for anything else or 0.
    static func rate(_ text: String) -> Int64? {
        var digits = Substring(text)
        var factor: Int64 = 1
        if let last = digits.last, let power = ["k": 1, "m": 2, "g": 3][last.lowercased()] {
            factor = Int64(1) << (10 * power)
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits), value > 0,
            value <= Int64.max / factor
        else { return nil }
        return value * factor
    }

    /// The cookies stage: its jar holding `-b FILE`'s cookies when `-b FILE` or `-c` turn curl's
    /// cookie engine on, or unused (`makeRequest` turns the jar off) when `-b` gives only cookies
    /// as text, which it sends on every hop; `nil` without `-b` or `-c`.
    private func cookieStage() throws -> CookieHandling? {
        guard !cookie.isEmpty || cookieJar != nil else { return nil }
        let jar = CookieJar()
        for file in cookieFiles {
            do {
                if file == "-" {
                    // As curl's -b -: a cookie file on standard input.
                    let text = String(decoding: try DataPiece.contents(of: "-", role: "standard input"), as: UTF8.self)
                    for cookie in try NetscapeCookieFile.cookies(in: text) { jar.insert(cookie) }
                } else {
                    try NetscapeCookieFile.load(URL(fileURLWithPath: file), into: jar)
                }
            } catch {
                throw ValidationError("-b \(file): \(error)")
            }
        }
        return CookieHandling(jar: jar)
    }

    /// The `-b` values that are cookies as text, in the order given: those with a `=` and no
    /// leading `@`, as curl tells them from files.
    private var cookieTexts: [String] {
        cookie.filter { !$0.hasPrefix("@") && $0.contains("=") }
    }

    /// The `-b` values that name cookie files, in the order given: those without a `=`, and
    /// `@FILE`, which curl reads as a file whatever its name holds; not `-b ''`, which names none.
    private var cookieFiles: [String] {
        cookie.compactMap { $0.hasPrefix("@") ? String($0.dropFirst()) : ($0.contains("=") || $0.isEmpty ? nil : $0) }
    }

    /// Whether curl's cookie engine is on: `-c`, a cookie file, or `-b ''`, curl's way to turn it
    /// on with no file.
    private var usesCookieEngine: Bool {
        cookieJar != nil || !cookieFiles.isEmpty || cookie.contains("")
    }

    /// The URL as typed (the argument or `--url`), with `http://` before one that names no
    /// scheme, as curl guesses it.
    private var url: String {
        let text = urls.first ?? ""
        return text.contains("://") ? text : "http://" + text
    }

    /// The `-H` lines, a `@FILE` (`@-` standard input) read one header a line.
    private func headerLines() throws -> [String] {
        var lines: [String] = []
        for header in headers {
            guard header.hasPrefix("@") else {
                lines.append(header)
                continue
            }
            let text = String(decoding: try DataPiece.contents(of: String(header.dropFirst()), role: "the -H file"), as: UTF8.self)
            for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
                let header = line.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !header.isEmpty else { continue }
                guard header.contains(":") || header.hasSuffix(";") else {
                    throw ValidationError("-H @\(header): '\(header)' is not of the form 'Name: value', 'Name:' or 'Name;'")
                }
                lines.append(header)
            }
        }
        return lines
    }

    private func makeRequest() throws -> Request {
        let joined = try bodyOptions.joinedPieces()
        let target = bodyOptions.target(url, joined: joined)
        // -X as typed, as curl sends it: methods are case-sensitive (RFC 9110 section 9.1).
        var request = Request(method: HTTPMethod(method ?? bodyOptions.defaultMethod(head: head, joined: joined)), url: try sendableURL(target))
        request.sendsPathAsIs = pathAsIs
        for header in try headerLines() {
            if let colon = header.firstIndex(of: ":") {
                let name = header[..<colon].trimmingCharacters(in: .whitespaces)
                // A name with blanks around it is no field line a server takes (RFC 9112 section
                // 5.1 has it refused with 400; a leading blank reads as a folded line): refused,
                // not sent mended in silence. The value's blanks are no part of it (RFC 9110
                // section 5.5), and go.
                guard name.utf8.elementsEqual(header[..<colon].utf8) else {
                    throw ValidationError("-H '\(name)': a field name has no space or tab before it or before its colon (RFC 9112 section 5.1); write '\(name): VALUE'")
                }
                let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                // As curl: 'Name:' sends no such field, not even libcurl's own.
                if value.isEmpty { request.omittedHeaders.append(name) } else { request.headers.add(name: name, value: value) }
            } else {
                request.headers.add(name: String(header.dropLast()).trimmingCharacters(in: .whitespaces), value: "")
            }
        }
        func addUnlessGiven(_ name: String, _ value: String) {
            if !request.headers.contains(name), !request.omitsHeader(name) { request.headers.add(name: name, value: value) }
        }
        // As curl's CURLOPT_COOKIE: on every hop, whatever its host, unless -H sets Cookie, the
        // texts of every -b joined with ';' as curl joins them; with no cookie file (-b FILE,
        // -c), no cookie engine: the jar stays out.
        if !cookieTexts.isEmpty {
            if !request.headers.contains("Cookie"), !request.omitsHeader("Cookie") { request.ownCookies = cookieTexts.joined(separator: ";") }
            request.usesCookieJar = usesCookieEngine
        }
        // Not curl's 'curl/VERSION': a server sees what sent the request, the same as from sluice run.
        if userAgent == "" {
            // As curl's -A '': no User-Agent at all.
            if !request.headers.contains("User-Agent"), !request.omitsHeader("User-Agent") { request.omittedHeaders.append("User-Agent") }
        } else {
            addUnlessGiven("User-Agent", userAgent ?? HeaderInjection.defaultUserAgent)
        }
        if let referer = givenReferer { addUnlessGiven("Referer", referer) }
        if let range { addUnlessGiven("Range", "bytes=" + range) }
        if let oauth2Bearer { addUnlessGiven("Authorization", "Bearer " + oauth2Bearer) }
        try bodyOptions.apply(to: &request, joined: joined)
        request.destination = .stream()
        request.maxResponseSize = maxFileSize.flatMap(ByteCountText.parse)
        // As curl: 0 is no limit of its own (the connection then has the default); a fraction of a
        // millisecond is a millisecond, libcurl's finest, never 0, which would be no limit.
        func limit(_ seconds: Double) -> Duration? {
            seconds == 0 ? nil : .milliseconds(Int64(min((seconds * 1000).rounded(.up), 9e15)))
        }
        request.timeouts = Timeouts(connect: limit(connectTimeout), total: timeout.flatMap(limit))
        return request
    }

    /// One `--data-urlencode` argument as curl encodes it: `CONTENT` and `=CONTENT` encode the
    /// content; `NAME=CONTENT` keeps the name and encodes the content; `@FILE` and `NAME@FILE`
    /// encode the file's text (`@-` standard input). Everything but `A-Z a-z 0-9 - . _ ~` is
    /// percent-encoded, a space as `+`, as curl 7.88 writes it.
    static func urlEncodedData(_ argument: String) throws -> String {
        func encoded(_ text: String) -> String {
            PercentEncoding.encode(text, spaceAsPlus: true, keeping: PercentEncoding.isUnreserved)
        }
        func fileText(_ path: String) throws -> String {
            String(decoding: try DataPiece.contents(of: path, role: "the --data-urlencode file"), as: UTF8.self)
        }
        let equals = argument.firstIndex(of: "=")
        let at = argument.firstIndex(of: "@")
        if let at, equals.map({ at < $0 }) ?? true {
            let name = argument[..<at]
            let text = encoded(try fileText(String(argument[argument.index(after: at)...])))
            return name.isEmpty ? text : "\(name)=\(text)"
        }
        guard let equals else { return encoded(argument) }
        let name = argument[..<equals]
        let content = encoded(String(argument[argument.index(after: equals)...]))
        return name.isEmpty ? content : "\(name)=\(content)"
    }

    /// `--events`: prints each event as a JSON line as it arrives, until `--max-events`, the end
    /// of the stream (a 204), or `--timeout`, which ends the reading without error.
    private func readEvents(_ request: Request, manager: SessionManager) async throws {
        var request = request
        request.timeouts.total = nil
        let source = manager.events(request, options: .init(maxReconnects: 5))
        do {
            // Without --timeout the reading goes on until --max-events or the end of the stream.
            try await source.read(upTo: maxEvents, within: timeout.map { .milliseconds(Int($0 * 1000)) }) { event, _ in
                let line = JSONValue.object(["type": .string(event.type), "data": .string(event.data), "id": .string(event.lastEventID)])
                try SendCommand.writeToStandardOutput(Data(((try? JSONWriter().string(from: line)) ?? "").utf8) + Data("\n".utf8))
            }
        } catch {
            throw RequestFailure(error: error, quiet: outputOptions.quiet)
        }
    }

    /// Writes to standard output, blocking while the reader is behind: that is what paces the
    /// transfer. A reader that went away (a closed pipe) ends the exchange as `.fileIO`.
    private static func writeToStandardOutput(_ bytes: Data) throws(SluiceError) {
        let failure = bytes.withUnsafeBytes { buffer -> Int32? in
            var written = 0
            while written < buffer.count {
                let count = write(STDOUT_FILENO, buffer.baseAddress! + written, buffer.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return errno }
                written += count
            }
            return nil
        }
        if let failure {
            throw SluiceError(kind: .fileIO, stage: "output", message: "cannot write the body to standard output: \(String(cString: strerror(failure)))")
        }
    }

    /// `-D` (`--dump-header`): the heads written to `path`, or to standard output for `-`.
    private func dumpHeads(_ responses: [Response], to path: String) throws {
        let text = responses.map(\.headText).joined()
        if path == "-" {
            try SendCommand.writeToStandardOutput(Data(text.utf8))
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw SluiceError(kind: .fileIO, stage: "output", message: "-D: cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// `-f` and `--fail-with-body`: curl's status 22 for an answer of 400 or more, said unless `-s`.
    private func failedStatus(_ status: Int) -> ExitCode {
        if !outputOptions.quiet { Terminal.writeError("sluice: error: the server answered \(status) (\(outputOptions.fail ? "--fail" : "--fail-with-body"))\n") }
        return ExitCode(22)
    }

    /// The URL `text` names, when Sluice can send to it.
    /// - Throws: `RequestFailure` with curl's status 3, for a URL it cannot read, when it names no
    ///   http or https URL with a host.
    private func sendableURL(_ text: String) throws -> URL {
        guard let url = URLText.url(text, keepingDotSegments: pathAsIs), ["http", "https"].contains(url.scheme?.lowercased()), url.host?.isEmpty == false else {
            throw RequestFailure(
                error: SluiceError(kind: .invalidRequest, stage: "command line", message: "'\(text)' is not an http or https URL Sluice can send"),
                quiet: outputOptions.quiet, status: 3
            )
        }
        return url
    }
}
