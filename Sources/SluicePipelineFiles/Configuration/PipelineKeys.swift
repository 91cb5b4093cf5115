import SluiceCore
import SluiceStageRegistry

/// The keys of a pipeline file outside its stage entries, described as stage options are: the
/// top level, a request, a group of requests, and the mappings inside a request.
///
/// `PipelineDecoder` takes the keys it accepts from here, and ``PipelineSchema`` generates the
/// schema of requests and groups from here as it does that of stages: each key, its type, what
/// it means and its default are written once. The order is the one messages list them in.
package enum PipelineKeys {
    /// The keys of a pipeline file, of a request and of a group, each with what owns them, as
    /// `sluice stages --keys` lists them.
    package static var sections: [(owner: String, keys: [OptionDescriptor])] {
        [("a pipeline file", topLevel), ("a request", request), ("a group of requests", group)]
    }

    /// `for-each:`, for a request or a group.
    static let forEach = OptionDescriptor(
        "for-each",
        .oneOf([
            .list(.oneOf([.scalar, .map(.any)])),
            .object([OptionDescriptor("csv", .string, required: true, summary: "A CSV file, relative to the pipeline file; its header row names the variables.")]),
            .object([OptionDescriptor("json", .string, required: true, summary: "A JSON file holding an array, relative to the pipeline file.")]),
        ]),
        summary: "Run once per row: a list (a value is ${item}, a mapping's keys are variables), {csv: PATH} (the header row names the variables) or {json: PATH} (an array)."
    )

    /// `when:`, `skip:`, `tags:` and `always:`, which a request and a group both take.
    static let conditions = [
        OptionDescriptor("when", .condition, summary: "Run only when the condition holds: NAME == 'text', NAME > 3, exists NAME, not, and, or, parentheses."),
        OptionDescriptor("skip", .condition, summary: "Skip when the condition holds: NAME == 'text', NAME > 3, exists NAME, not, and, or, parentheses."),
        OptionDescriptor("tags", .list(.tag), summary: "Tags for --tag and --skip-tag."),
        OptionDescriptor("always", .boolean, default: "false", summary: "Run even after --fail-fast has stopped the run (a teardown)."),
    ]

    /// The keys of a pipeline file.
    static let topLevel = [
        OptionDescriptor("name", .string, default: "the file's stem", summary: "The pipeline's name."),
        OptionDescriptor(
            "include", .list(.string),
            summary: "Pipeline files (relative to this one) whose stages, variables and requests come first; each file's declarations are taken once, however often it is included."
        ),
        OptionDescriptor("tags", .list(.tag), summary: "Tags of every request of the file, for --tag and --skip-tag."),
        OptionDescriptor(
            "plugins", .list(.string),
            summary: "Stage modules built as shared libraries (.so) to load, relative to the file; `sluice stages --schema --plugin PATH` writes a schema with their stages."
        ),
        OptionDescriptor(
            "variables", .map(.any),
            summary: "Defaults for ${NAME}; --var NAME=VALUE, --vars-file and SLUICE_VAR_NAME override them. A name defined in two included files is an error."
        ),
        OptionDescriptor("stages", .list(.reference("stage")), summary: "The stages, top to bottom: '- NAME' or '- NAME: {options}'."),
        OptionDescriptor("requests", .list(.reference("entry")), summary: "The requests, and groups of them, in the order they run."),
        OptionDescriptor(
            "max-response-size", .byteCount, default: "none for a body streamed to a file (output), \(Pipeline.defaultMaxInMemoryResponseSize >> 20) MiB for one held in memory",
            summary: "The most bytes of response body a request takes (after content decoding) unless it sets its own; none for no limit."
        ),
        OptionDescriptor(
            "fail-fast", .boolean, default: "false",
            summary: "After the first request of the file that fails, only its requests marked always run, as Hurl stops a file at its first failure; --fail-fast stops the files after it too."
        ),
        OptionDescriptor(
            "cookie-file", .string,
            summary: "A cookie file in curl's format (-b, -c): read before the first request if it exists, written after the run. Relative to the pipeline file."
        ),
    ]

    /// The keys of a group: `{requests: [...]}` or `{include: FILE}`.
    static let group = [
        OptionDescriptor("include", .string, summary: "A pipeline file whose requests run here; its captures are visible after it."),
        OptionDescriptor("requests", .list(.reference("entry")), summary: "The requests of the group, written here."),
        forEach,
    ] + conditions

    /// The keys of a request.
    static let request = [
        OptionDescriptor("name", .string, default: "METHOD path", summary: "Unique in the file."),
        OptionDescriptor("method", .string, default: HTTPMethod.get.rawValue, summary: "The request's method."),
        OptionDescriptor("path", .string, required: true, summary: "A URL reference, resolved against url-resolution's base-url (RFC 3986)."),
        OptionDescriptor("path-parameters", .map(.string), summary: "Values for the path's {name} templates."),
        OptionDescriptor("parameters", .any, summary: "Any value, written by the serialization stage into the query or the body."),
        OptionDescriptor("headers", .map(.list(.string)), summary: "The request's own headers; a list of values sends the header once for each, in order."),
        OptionDescriptor(
            "append-headers", .map(.list(.string)),
            summary: "Headers sent beside what a header-injection stage injects for the same names, not in place of it: both go, the request's first."
        ),
        OptionDescriptor(
            "cookie-jar", .choice(CookieJarUse.allCases.map(\.rawValue)),
            summary: "clear: empty the run's cookie jar just before this request; off: this request neither sends the jar's cookies nor stores its responses'."
        ),
        OptionDescriptor(
            "remove-headers", .list(.string),
            summary: "Header names not sent at all: the transport's own (Accept, User-Agent, Accept-Encoding) and what header-injection injects; the request's own headers: and what other stages write still go: Hurl's no-header, curl's -H 'Name:'."
        ),
        OptionDescriptor(
            "stages", .list(.any),
            summary: "Stages of the request's own, in the chain for it alone, each in its place as the file's (aws-sigv4 with this request's keys); one that claims what a stage of the file claims is refused, naming both."
        ),
        OptionDescriptor(
            "header-lines", .list(.string),
            summary: "Headers written as whole NAME: VALUE lines, each split at its first colon once its ${...} are filled in (so a variable may hold a whole line), sent after headers: in order; a name remove-headers lists is not sent: Hurl's [Options] header:."
        ),
        OptionDescriptor(
            "store-cookies", .list(.string),
            summary: "Cookies put in the run's jar just before the request (after cookie-jar: clear), each a line of curl's cookie file: DOMAIN SUBDOMAINS PATH SECURE EXPIRES NAME VALUE, separated by tabs or spaces (Hurl's @cookie_storage_set)."
        ),
        OptionDescriptor(
            "variables", .map(.any),
            summary: "Variables set just before the request is rendered, for it and every request after it, as Hurl's [Options] variable: NAME=VALUE; values keep their YAML type."
        ),
        OptionDescriptor(
            "cookies", .map(.string),
            summary: "Cookies of the request's own, sent on every redirect hop whatever its host, after the jar's: Hurl's [Cookies], curl's -b NAME=VALUE."
        ),
        OptionDescriptor("body", .string, summary: "A raw body, instead of parameters."),
        OptionDescriptor("body-file", .string, summary: "A file sent as the raw body, relative to the pipeline file."),
        OptionDescriptor("parts", .list(.object(part)), summary: "Multipart parts, written by a serialization stage with format: multipart."),
        OptionDescriptor("timeout", .duration, summary: "The request's total timeout."),
        OptionDescriptor(
            "credential", .object(CredentialOptions.descriptors),
            summary: "The request's own credential, answered with by the authentication stage (added when the file lists none) for its origin only: {username, password, schemes} or {netrc-file, schemes}; curl's -u, Hurl's user, digest and netrc-file options."
        ),
        OptionDescriptor(
            "proxy", .object(ProxyOptions.descriptors),
            summary: "The request's own proxy, in place of the proxy stage's: {url, username, password, no-proxy, ca-bundle}, url: none to go direct; Hurl's proxy option."
        ),
        OptionDescriptor(
            "path-as-is", .boolean, default: "false",
            summary: "Send the path as written, its /../ and /./ segments included (curl's and Hurl's --path-as-is); otherwise they are removed first, as curl does."
        ),
        OptionDescriptor(
            "http-version", .choice(["1.0", "1.1", "2"]),
            summary: "The HTTP version the request is sent with: 1.0 and 1.1 as they are (curl's --http1.0, --http1.1, Hurl's http1.0, http1.1), 2 asked for with HTTP/1.1 where the server does not offer it (curl's --http2)."
        ),
        OptionDescriptor(
            "limit-rate", .byteCount,
            summary: "The most bytes a second the request moves each way (2000000, 512KiB, 1MB), averaged over the transfer: curl's and Hurl's --limit-rate. none for no limit."
        ),
        OptionDescriptor(
            "max-response-size", .byteCount, default: "the pipeline's",
            summary: "The most bytes of response body to take, after content decoding; past it the request fails with 'response too large'. none for no limit."
        ),
        OptionDescriptor(
            "output", .string,
            summary: "A file the response body is streamed to instead of memory, relative to the pipeline file, written through as curl's -o writes: a device or FIFO as the bytes arrive, an existing file in place (its hard links, mode and owner kept), a symbolic link followed. A regular file changes only when the request succeeds."
        ),
        OptionDescriptor(
            "connection", .object(ConnectionOptions.descriptors),
            summary: "The request's own connection overrides, in place of the connection stage's: a Unix socket, HOST:PORT:ADDRESS entries (resolve), HOST:PORT:TO-HOST:TO-PORT entries (connect-to)."
        ),
        OptionDescriptor(
            "events", .object(events),
            summary: "Read a text/event-stream response as server-sent events until count have arrived or within has passed (reconnecting with Last-Event-ID between); expect and capture then see the events as a JSON array of {type, data, id, json?}."
        ),
        OptionDescriptor(
            "redirects", .object(RedirectOptions.descriptors),
            summary: "The request's own redirect rules, in place of the redirects stage's: follow or not, max-hops, allow-insecure, trusted (credentials to every origin), referer."
        ),
        OptionDescriptor("expect", .object(expect), summary: "What the response must satisfy."),
        OptionDescriptor("capture", .map(.oneOf(captureSources)), summary: "Values taken from the response for later requests, by variable name."),
        OptionDescriptor(
            "retry", .oneOf([.integerIn(1...PollingRetry.maximumAttempts), .object(retry)]),
            summary: "Send again, interval apart, until every expectation holds, at most attempts times (the first included)."
        ),
        OptionDescriptor("delay", .duration, summary: "How long to wait before sending."),
    ] + conditions + [forEach]

    /// The keys of `retry: {...}`.
    static let retry = [
        OptionDescriptor("attempts", .integerIn(1...PollingRetry.maximumAttempts), required: true, summary: "How many times the request is sent at most."),
        OptionDescriptor("interval", .duration, default: DurationText.string(PollingRetry.defaultInterval), summary: "The pause between two attempts."),
    ]

    /// The keys of `events: {...}`.
    static let events = [
        OptionDescriptor("count", .integerIn(1...Int.max), summary: "How many events to read."),
        OptionDescriptor("within", .duration, summary: "For how long to read them."),
    ]

    /// The keys of a `parts:` entry.
    static let part = [
        OptionDescriptor("name", .string, required: true, summary: "The part's name."),
        OptionDescriptor("value", .string, summary: "A field's value."),
        OptionDescriptor("file", .string, summary: "A file sent as the part, relative to the pipeline file."),
        OptionDescriptor("filename", .string, default: "the file's own name", summary: "The file name sent for a file."),
        OptionDescriptor("content-type", .string, default: "guessed from the file's extension", summary: "The content type sent for a file."),
    ]

    /// The keys of `expect: {...}`.
    static let expect = [
        OptionDescriptor("status", .list(.statusCode), summary: "The statuses that pass: a code (200), a class (2xx), a range (200-299) or a list of them."),
        OptionDescriptor("headers", .map(.string), summary: "Values; /regex/ is matched as a regular expression."),
        OptionDescriptor("body", .map(.any), summary: "{JSONPATH: value} or {JSONPATH: {OP: value}}."),
        OptionDescriptor(
            "certificate", .object(CertificateField.allCases.map { OptionDescriptor($0.rawValue, .any, summary: "The certificate's \($0.rawValue): a value, or {OP: value}.") }),
            summary: "{FIELD: value} or {FIELD: {OP: value}} on the certificate the server presented."
        ),
        OptionDescriptor("cookies", .map(.any), summary: "{NAME: value} or {NAME: {OP: value}} on the cookies the run's jar holds for the response's URL; {exists: false} for none."),
        OptionDescriptor(
            "checks", .list(.object(checkEntry)),
            summary: "Checks of any part of the exchange, as Hurl's asserts: each {QUERY: ARGUMENT, filters: [...], OP: value}."
        ),
        OptionDescriptor("max-duration", .duration, summary: "The longest the exchange may take."),
    ]

    /// The queries of a check or a capture, one of which each names.
    static let queries: [OptionDescriptor] =
        CheckQuery.bareKeys.map { OptionDescriptor($0, .any, summary: "The \($0) (no argument): " + queryArgument($0)) }
        + CheckQuery.argumentKeys.map { OptionDescriptor($0, .string, summary: queryArgument($0)) }

    /// What a query reads, and its argument.
    static func queryArgument(_ key: String) -> String {
        switch key {
        case "status": "the status code."
        case "version": "the HTTP version, \"1.1\", \"2\"."
        case "url": "the URL of the last exchange, after redirects."
        case "ip": "the server's IP address."
        case "duration": "the exchange's duration in milliseconds."
        case "body": "the body as text in its charset."
        case "bytes": "the body's bytes."
        case "rawbytes": "the body's bytes as received, before its content coding (gzip, br, zstd, deflate) is undone."
        case "sha256": "the SHA-256 of the body's bytes."
        case "md5": "the MD5 of the body's bytes."
        case "redirects": "the redirects followed, a list of {status, location}."
        case "header": "a response header by name: its value, a list when it came more than once."
        case "set-cookie": "a cookie the response set: NAME, or NAME[ATTRIBUTE] (Value, Expires, Max-Age, Domain, Path, Secure, HttpOnly, SameSite)."
        case "cookie": "a cookie's value in the run's jar for the response's URL, by name."
        case "jsonpath": "a JSONPath into the body (${...} allowed): a singular path's value, any other's list of nodes (one node compared as itself where no list is expected)."
        case "jsonpath-nodes": "a JSONPath into the body (${...} allowed): always the list of nodes it selects, as RFC 9535 defines it (Hurl's --no-jsonpath-coercion)."
        case "xpath": "an XPath 1.0 expression over the HTML or XML body."
        case "regex": "a regular expression's first match in the body text, its first group when it has one."
        case "variable": "a variable's or capture's value, by name."
        default: "a field of the server's certificate: " + CertificateField.allCases.map(\.rawValue).joined(separator: ", ") + "."
        }
    }

    /// `filters:` of a check or a capture.
    static let filters = OptionDescriptor(
        "filters", .list(.any),
        summary: "Steps applied to the queried value, in order: a name (count, to-int) or {NAME: ARGUMENT} (nth: 0, replace: [OLD, NEW])."
    )

    /// The keys of an `expect.checks` entry: one query, its filters, and operators.
    static let checkEntry: [OptionDescriptor] = queries + [filters]
        + Expectation.Operator.allCases.map { OptionDescriptor($0.rawValue, .any, summary: "The \($0.rawValue) predicate.") }
        + [OptionDescriptor("not", .any, summary: "{OP: value}: the predicate negated; a plain value: not equal to it.")]

    /// The keys of a `capture:` entry written as a mapping: one query and its filters.
    static let captureEntry: [OptionDescriptor] = queries + [filters]

    /// What a capture reads: a JSONPath into the body, or a query and its filters.
    static let captureSources: [OptionDescriptor.ValueType] = [.string, .object(captureEntry)]
}
