import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// A curl command line that sends the same request: method, URL, headers and body as the
/// request-side stages left them, plus the transport settings curl has flags for (redirects,
/// timeouts, CA bundle, client certificate, revocation, public-key pins, `-k`).
///
/// Multipart bodies are given as `-F` parts, so curl streams the same files (with its own
/// boundary); other bodies are given byte for byte. curl's own defaults are matched to the
/// libcurl transport's: `--compressed` (the transport asks for and decodes every encoding
/// libcurl has) unless the request names its encodings, and no `User-Agent` unless the request
/// sets one.
public enum CurlExport {
    /// The command for a prepared request.
    /// - Parameters:
    ///   - request: the request as it reached the transport.
    ///   - parts: the multipart parts the request was written with (serialization turns them
    ///     into the body), sent as `-F`.
    ///   - redirects: the redirect rules the request is sent with (its own, or the pipeline's stage).
    ///   - ownCookies: the request's own cookies (`Request.ownCookies`), which the
    ///     cookies stage put at the end of its `Cookie` field: written as `-b`, which curl sends on
    ///     every hop as Sluice does.
    ///   - placeholders: the captures standing in the request as their ``CapturePlaceholder``s,
    ///     shown in the URL as written.
    ///   - redactor: hides secrets; `Redactor/none` shows them.
    public static func command(
        for request: Request, parts: [MultipartPart] = [], redirects: Redirection?, ownCookies: String? = nil, placeholders: [String] = [],
        redactor: Redactor
    ) -> String {
        var request = request
        var ownCookies = ownCookies
        // The field's bytes, compared as bytes: the stage wrote them, nothing normalized them.
        if let own = ownCookies, let header = request.headers["Cookie"] {
            let field = Array(header.utf8), joined = Array(("; " + own).utf8)
            if field.elementsEqual(joined.dropFirst(2)) {
                request.headers.remove(name: "Cookie")
            } else if field.count > joined.count, field.suffix(joined.count).elementsEqual(joined) {
                request.headers["Cookie"] = String(decoding: field.dropLast(joined.count), as: UTF8.self)
            }
            // A Cookie field of the request's own stays: curl then sends it in place of -b's
            // cookies, so they join it, as the run sends them.
            if let left = request.headers["Cookie"] {
                request.headers["Cookie"] = left + "; " + own
                ownCookies = nil
            }
        }
        var lines: [String] = []
        var arguments = ["curl"]
        var prefix = ""
        // A shell word for a value that may hold a secret (a path read from ${env.X} included).
        func word(_ text: String) -> String { quote(redactor.redact(text)) }
        let url = CapturePlaceholder.shown(request.url, names: placeholders)
        // curl reads [] and {} in a URL as a glob; the URL is sent as Sluice sends it.
        if url.contains(where: { "[]{}".contains($0) }) { arguments.append("--globoff") }
        arguments.append(quote(redactor.redact(url)))
        let multipart = !parts.isEmpty && request.headers["Content-Type"]?.hasPrefix("multipart/form-data") == true
        for field in request.headers where !(multipart && field.name.lowercased() == "content-type") {
            arguments += ["-H", quote("\(field.name): \(redactor.redact(header: field.name, value: field.value))")]
        }
        if let ownCookies { arguments += ["-b", quote(redactor.redact(ownCookies))] }
        for name in request.omittedHeaders where !request.headers.contains(name) && name.lowercased() != "user-agent" && name.lowercased() != "accept-encoding" {
            arguments += ["-H", quote("\(name):")]
        }
        if !request.headers.contains("User-Agent") { arguments += ["-H", quote("User-Agent:")] }
        if !request.headers.contains("Accept-Encoding") && !request.omitsHeader("Accept-Encoding") { arguments.append("--compressed") }
        if multipart {
            for part in parts {
                // curl's -F and --form-string end a part's name at its first `=`: such a name
                // cannot be written, and the command says which part it leaves out.
                guard !part.name.contains("=") else {
                    lines.append("# part \(part.name) is left out: curl's -F cannot write a name that holds '='")
                    continue
                }
                switch part.content {
                case .value(let value):
                    arguments += ["--form-string", quote(redactor.redact("\(part.name)=\(value)"))]
                case .data(let data):
                    lines.append("# part \(part.name) holds \(data.count) bytes from memory, which curl cannot be given inline")
                case .file(let url):
                    var text = "\(part.name)=@\(formWord(url.path))"
                    if let type = part.contentType { text += ";type=\(formWord(type))" }
                    if let filename = part.filename { text += ";filename=\(formWord(filename))" }
                    arguments += ["-F", word(text)]
                }
            }
        } else {
            switch request.body {
            case .none: break
            case .data(let data):
                if let text = String(data: data, encoding: .utf8), !text.contains("\0") {
                    arguments += ["--data-binary", quote(redactor.redact(text))]
                } else {
                    prefix = "echo \(redactor.redact(data).base64EncodedString()) | base64 -d | "
                    arguments += ["--data-binary", "@-"]
                }
            case .file(let url):
                arguments += ["--data-binary", word("@" + url.path)]
            case .segments:
                lines.append("# the body is several pieces (memory and files); curl cannot send it as one")
            case .stream:
                lines.append("# the body is streamed from a producer in the program; curl cannot show it")
            }
        }
        // curl sends a body given with --data-binary or -F as a POST, and turns that POST into
        // a GET after a 303 (and a 301 or 302), as Sluice's redirects do; `-X POST` would keep it
        // a POST on every hop.
        let postsBody = arguments.contains { ["--data-binary", "-F", "--form-string"].contains($0) }
        switch request.method {
        case .get: break
        case .head: arguments.insert("--head", at: 1)
        case .post where postsBody: break
        default: arguments.insert(contentsOf: ["-X", request.method.rawValue], at: 1)
        }
        arguments += credentialArguments(request, redactor: redactor, lines: &lines)
        if let redirects, redirects.follows {
            arguments += [redirects.trustsOtherOrigins ? "--location-trusted" : "--location", "--max-redirs", "\(redirects.maximumHops)"]
            if redirects.setsReferer { arguments += ["--referer", quote(";auto")] }
        }
        // A body written to a file (output:); standard output is curl's own default.
        if case .file(let file) = request.destination, file.path != "/dev/stdout" {
            arguments += ["-o", word(file.path)]
        }
        if let total = request.timeouts.total {
            arguments += ["--max-time", seconds(total)]
        }
        if let connect = request.timeouts.connect {
            arguments += ["--connect-timeout", seconds(connect)]
        }
        switch request.askedHTTPVersion {
        case .http1_0?: arguments.append("--http1.0")
        case .http1_1?: arguments.append("--http1.1")
        case .http2?: arguments.append("--http2")
        case .http3?: arguments.append("--http3")
        case .unknown?, nil: break
        }
        if request.sendsPathAsIs {
            arguments.append("--path-as-is")
        }
        if let rate = request.maxTransferRate {
            arguments += ["--limit-rate", "\(rate)"]
        }
        // A policy for other hosts leaves this one to the system's trust store, as the run does:
        // its CA bundle and client certificate must not go on this command.
        if let policy = request.trustPolicy, request.governingTrustPolicy == nil {
            lines.append("# the trust policy applies to hosts \((policy.hosts ?? []).joined(separator: ", ")) only, not to \(request.url.host ?? ""): curl's defaults apply")
        }
        if let policy = request.governingTrustPolicy {
            arguments += trustArguments(policy, lines: &lines).map(word)
        }
        switch request.proxyRoute {
        case .direct?:
            arguments += ["--noproxy", quote("*")]
        case .through(let proxy)?:
            arguments += ["--proxy", word(proxy.url.absoluteString)]
            if let username = proxy.username {
                arguments += ["--proxy-user", quote(username + ":" + redactor.redact(proxy.password ?? ""))]
            }
            arguments += ["--noproxy", quote(proxy.bypass.joined(separator: ","))]
        case .environmentBypassing(let hosts)?:
            arguments += ["--noproxy", quote(hosts.joined(separator: ","))]
        case .environment?, nil:
            break
        }
        if let overrides = request.connectionOverrides {
            if let socket = overrides.unixSocketPath { arguments += ["--unix-socket", word(socket)] }
            arguments += overrides.resolve.flatMap { ["--resolve", quote($0.description)] }
            arguments += overrides.connectTo.flatMap { ["--connect-to", quote($0.description)] }
            if let version = overrides.ipVersion { arguments.append("-" + version.rawValue) }
        }
        return (lines.map(redactor.redact) + [prefix + arguments.joined(separator: " ")]).joined(separator: "\n")
    }

    /// curl's flags for the request's own credential (`credential:`): `-u` with `--anyauth`,
    /// `--digest` or `--basic` as its schemes say, curl then answering the server's challenge as
    /// the authentication stage does. None when the request already carries `Authorization` (a
    /// Basic credential sent at once, which curl would send in place of the one `-u` makes); a
    /// comment for a credential read from a `.netrc` file, which the command cannot name.
    private static func credentialArguments(_ request: Request, redactor: Redactor, lines: inout [String]) -> [String] {
        guard let provider = request.ownCredentials, !request.headers.contains("Authorization") else { return [] }
        guard let credential = provider as? HTTPCredential else {
            let schemes = (provider as? NetrcCredentialProvider).map { " " + schemeFlag($0.schemes) } ?? ""
            lines.append("# not exported: the request's credential comes from a .netrc file; add --netrc-file PATH\(schemes)")
            return []
        }
        return ["-u", quote(redactor.redact(credential.username) + ":" + redactor.redact(credential.password)), schemeFlag(credential.schemes)]
    }

    /// curl's flag for the schemes a credential answers.
    private static func schemeFlag(_ schemes: HTTPAuthenticationSchemes) -> String {
        schemes == .digest ? "--digest" : (schemes == .basic ? "--basic" : "--anyauth")
    }

    /// curl's flags for the trust policy, unquoted: `--cacert`, `--insecure`, the client
    /// certificate (`--cert`, `--key`, `--pass`), `--crlfile`, `--cert-status`, and pins, with a
    /// comment line where curl checks differently.
    ///
    /// Sluice matches pins against the verified chain, CA and leaf alike; curl's
    /// `--pinnedpubkey` checks the leaf's key only, so a CA pin that `sluice run` passes fails
    /// there. Beside a validated chain (`--cacert`), the pins are named in a comment and left
    /// out, so that a command pinning a private CA runs; with `--insecure`, which accepts any
    /// chain, they are written all the same: the command must never accept a server the
    /// pipeline refuses, and it fails (90) where only a CA is pinned.
    private static func trustArguments(_ policy: TrustPolicy, lines: inout [String]) -> [String] {
        var arguments: [String] = []
        if let bundle = policy.caBundle { arguments += ["--cacert", bundle] }
        let insecure = policy.allowsInvalidCertificates || !policy.validatesDomainName
        if policy.pinning != .none {
            let pins = policy.pins.map { "sha256//" + Data($0.publicKeySHA256).base64EncodedString() }.joined(separator: ";")
            let anchors = policy.pinning == .certificate ? "; the pinned certificates are also its trust anchors: give curl them with --cacert" : ""
            if insecure {
                arguments += ["--pinnedpubkey", pins]
                lines.append("# \(policy.pinning.rawValue) pinning: curl's --pinnedpubkey checks only the leaf's key, where Sluice checks every certificate of the verified chain, so a CA pin fails there (90)\(anchors)")
            } else {
                lines.append(
                    "# not exported: \(policy.pinning.rawValue) pinning to \(pins) (Sluice checks every certificate of the verified chain; curl's --pinnedpubkey checks only the leaf's key, so a CA pin would fail there; add --pinnedpubkey for a leaf pin)\(anchors)"
                )
            }
        }
        if insecure { arguments.append("--insecure") }
        if let identity = policy.clientIdentity {
            arguments += ["--cert", identity.certificateFile]
            if let key = identity.keyFile { arguments += ["--key", key] }
            if let password = identity.password { arguments += ["--pass", password] }
            if let intermediates = identity.intermediatesFile {
                lines.append("# not exported: the client certificate's intermediates in \(intermediates); curl sends those that follow the certificate in its --cert file")
            }
        }
        if let crlFile = policy.crlFile { arguments += ["--crlfile", crlFile] }
        if policy.requiresStapledOCSP { arguments.append("--cert-status") }
        if policy.hosts != nil { lines.append("# the trust policy applies to hosts \(policy.hosts!.joined(separator: ", ")) only") }
        return arguments
    }

    /// A shell word: the text in single quotes, or bare when it is plainly safe.
    static func quote(_ text: String) -> String {
        let safe = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@,+%".contains($0)) }
        return safe ? text : "'" + text.replacingCodePoints(of: "'", with: "'\\''") + "'"
    }

    /// A file name, content type or `filename=` as curl's `-F` reads it: as it is unless it holds
    /// what ends a word there (`;`, `,`, a quote, a backslash, a space at an end), else in double
    /// quotes with `"` and `\` escaped by a backslash, as curl's manual says for such names.
    static func formWord(_ text: String) -> String {
        let plain = !text.isEmpty && !text.contains { ";,\"\\".contains($0) } && text.first != " " && text.last != " "
        guard !plain else { return text }
        return "\"" + text.replacingCodePoints(of: "\\", with: "\\\\").replacingCodePoints(of: "\"", with: "\\\"") + "\""
    }

    /// Seconds as curl's timeouts take them: to the millisecond, libcurl's finest, rounded up, so
    /// that a limit under a millisecond is not written as 0, which curl reads as none.
    private static func seconds(_ duration: Duration) -> String {
        let value = DurationText.milliseconds(duration).rounded(.up) / 1000
        return value.formatted(.number.precision(.fractionLength(0...3)).grouping(.never))
    }
}
