import Foundation
import SluiceCore
import SluiceStageRegistry

/// A pipeline file as written, checked for shape: its name, variables, stage entries and
/// requests, every part with the line and column it came from. Values that may hold `${...}`
/// stay YAML nodes until a request is sent, when the variables known by then fill them in.
public struct PipelineSpec: Sendable {
    /// The pipeline's name: `name:`, or the file's stem.
    public var name: String
    /// The `plugins:` entries of the file and the files it includes: paths of stage modules to
    /// load, relative to the file that names them.
    public var plugins: [Sourced<YAMLNode>]
    /// The `variables:` entries of the file and the files it includes, included files first.
    public var variables: [Sourced<YAMLNode.Pair>]
    /// The stage entries, top to bottom: an included file's before the including file's own.
    public var stages: [StageSpec]
    /// The requests, in the order they run: included files' requests where they are included,
    /// `for-each` expanded to one request per row.
    public var requests: [RequestSpec]
    /// `max-response-size:`, the response-body limit of requests that set none.
    public var maxResponseSize: Int64?
    /// `cookie-file:`, the cookie file (curl's format) the run reads before its first request
    /// and writes after its last, as written.
    public var cookieFile: Sourced<YAMLNode>?
    /// `fail-fast: true` in the file or one it includes: after the first request that fails,
    /// only those marked `always` run (a Hurl file's default).
    public var failFast = false
    /// Every file the pipeline is made of: the file itself, then each included file once.
    public var files: [PipelineSource] = []
}

/// Where part of a pipeline was written: the file's name as diagnostics show it, and the folder
/// its relative paths (pins, bodies, data files, includes) are resolved against.
public struct PipelineSource: Sendable, Hashable {
    /// The file's name as given (on the command line, or in an `include:` joined to the
    /// including file's folder).
    public var path: String
    /// The folder relative paths are resolved against; `nil` for the current directory.
    public var directory: URL?

    /// Creates a source.
    public init(path: String, directory: URL?) {
        self.path = path
        self.directory = directory
    }

    /// `PATH:LINE:COLUMN`.
    public func location(_ mark: YAMLNode.Mark) -> String {
        "\(path):\(mark.line):\(mark.column)"
    }
}

/// A value of a pipeline and the file it was written in.
public struct Sourced<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// The file.
    public var source: PipelineSource
}

/// One entry of `stages:`: a stage's name and its options as written.
public struct StageSpec: Sendable {
    /// The stage's name.
    public var name: String
    /// The file it is written in.
    public var source: PipelineSource
    /// Where the entry starts.
    public var mark: YAMLNode.Mark
    /// The options, as written (`${...}` not yet filled in).
    public var options: [YAMLNode.Pair]
}

/// One entry of `requests:`.
public struct RequestSpec: Sendable {
    /// One `parts:` entry: a field or a file.
    public struct Part: Sendable {
        /// The part's name.
        public var name: YAMLNode
        /// A field's value.
        public var value: YAMLNode?
        /// A file's path, relative to the pipeline file.
        public var file: YAMLNode?
        /// The file name sent for a file; the file's own name by default.
        public var filename: YAMLNode?
        /// The content type sent for a file; guessed from its extension by default.
        public var contentType: YAMLNode?
    }

    /// The request's name as written, unique in the pipeline and the files it includes.
    public var name: String
    /// The file it is written in.
    public var source: PipelineSource
    /// Where the entry starts.
    public var mark: YAMLNode.Mark
    /// The method.
    public var method: HTTPMethod
    /// The path (a URL reference), as written.
    public var path: YAMLNode
    /// `path-parameters:` entries.
    public var pathParameters: [YAMLNode.Pair]
    /// `parameters:`, any YAML value.
    public var parameters: YAMLNode?
    /// `headers:` entries.
    public var headers: [YAMLNode.Pair]
    /// `cookies:` entries: cookies of the request's own, sent on every hop.
    public var cookies: [YAMLNode.Pair] = []
    /// `remove-headers:`: names of header fields not sent at all, the transport's own included.
    public var removedHeaders: [YAMLNode] = []
    /// `append-headers:` entries, one pair a field: sent beside a stage's injected value of
    /// the same name, not in place of it.
    public var appendedHeaders: [YAMLNode.Pair] = []
    /// `stages:`: stages of the request's own, put in the chain for it alone, each in its place
    /// as the file's are (`aws-sigv4` with one request's keys; Hurl's `[Options] aws-sigv4:`).
    public var stages: [StageSpec] = []
    /// How a run makes each of ``stages``, checked when the file is loaded.
    var ownStages: [StageBlueprint] = []
    /// `header-lines:`: whole `NAME: VALUE` lines, each split at its first colon once its
    /// `${...}` are filled in, sent after `headers:` (Hurl's `[Options] header:`).
    public var headerLines: [YAMLNode] = []
    /// `cookie-jar:`: how the request uses the run's cookie jar, when not as every request does.
    public var cookieJar: CookieJarUse?
    /// `store-cookies:`: lines of curl's cookie file, each a cookie put in the run's jar just
    /// before the request (after `cookie-jar: clear`), as Hurl's `@cookie_storage_set`.
    public var storedCookies: [YAMLNode] = []
    /// The `${NAME}` names (not `env.`) the request refers to and the variables it queries, but
    /// not its own captures or `variables:`: worked out once when the file is loaded, as every
    /// send (and every request of a load run) asks.
    public internal(set) var variableNames: Set<String> = []
    /// `variables:` entries: set just before the request is rendered, for it and every later
    /// request, as Hurl's `[Options] variable`.
    public var variables: [YAMLNode.Pair] = []
    /// A raw body.
    public var body: YAMLNode?
    /// A file sent as the raw body.
    public var bodyFile: YAMLNode?
    /// Multipart parts.
    public var parts: [Part]
    /// The total timeout.
    public var timeout: Duration?
    /// `credential:`, the request's own credential (`username`, `password`, `schemes`, or
    /// `netrc-file`), rendered when the request is.
    public var credential: YAMLNode?
    /// `proxy:`, the request's own proxy (or `url: none`, direct), in place of the proxy stage's.
    public var proxy: YAMLNode?
    /// `path-as-is: true`: the path goes out with its dot segments.
    public var sendsPathAsIs = false
    /// `http-version:`, the HTTP version the request is sent with, in place of the transport's.
    public var httpVersion: HTTPVersion?
    /// `limit-rate:`, the most bytes a second the request moves each way.
    public var limitRate: Int64?
    /// `max-response-size:`, the most bytes of response body to take.
    public var maxResponseSize: Int64?
    /// `output:`, a file the response body is streamed to instead of memory.
    public var output: YAMLNode?
    /// `connection:`, the request's own connection overrides (`unix-socket`, `resolve`,
    /// `connect-to`), in place of a `connection` stage's.
    public var connection: YAMLNode?
    /// `redirects:`, the request's own redirect rules (`follow`, `max-hops`, `allow-insecure`,
    /// `trusted`), in place of the `redirects` stage's.
    public var redirects: YAMLNode?
    /// `events:`, for a `text/event-stream` resource: how many server-sent events to read, and for
    /// how long at most; the expectations and captures then see the events as a JSON array.
    public var events: EventReading?
    /// What the response must satisfy.
    public var expectations: [Expectation]
    /// Values taken from the response for later requests.
    public var captures: [Capture]
    /// The names of captures whose query could not be read (an error said so already): they
    /// still count as defined, so that each later `${NAME}` is not reported a second time.
    package var unreadCaptureNames: [String] = []
    /// `retry:`: send again until every expectation holds.
    public var retry: PollingRetry?
    /// `delay:`: how long to wait before sending.
    public var delay: Duration?
    /// The `when:` and `skip:` conditions of the request and of the groups and includes around
    /// it, outermost first; the request runs when all of them allow it.
    public var conditions: [RunCondition] = []
    /// The request's tags: its own, its groups', its file's and the including files'.
    public var tags: [String] = []
    /// `always: true`: the request runs even after `--fail-fast` has stopped the run (a teardown).
    public var always = false
    /// The `for-each` row this copy of the request runs for, when it has one.
    public var row: ForEachRow?

    /// The name results show: the written name with the row's variables filled in when it refers
    /// to them, else the written name followed by the row in brackets.
    public var displayName: String {
        guard let row, !row.values.isEmpty else { return name }
        if name.containsCodePoints("${"), let template = try? TemplateString(parsing: name),
            !template.variables.isEmpty, template.variables.allSatisfy({ row.variables[$0] != nil }),
            let rendered = try? template.render(variables: row.variables, environment: [:])
        {
            return rendered
        }
        return "\(name) [\(row.label)]"
    }

    /// Every node whose scalars may hold `${...}`.
    package var templatedNodes: [YAMLNode] {
        sentNodes + checkNodes
    }

    /// The stages of the request's own (``stages``) for one run.
    /// - Throws: `.configuration` when one can no longer be made.
    public func makeOwnStages() throws(SluiceError) -> [any Stage] {
        var made: [any Stage] = []
        for blueprint in ownStages { made.append(try blueprint.stage()) }
        return made
    }

    /// The nodes of what is sent whose scalars may hold `${...}`.
    package var sentNodes: [YAMLNode] {
        var nodes = [path] + pathParameters.map(\.value) + headers.flatMap { [$0.key, $0.value] } + cookies.flatMap { [$0.key, $0.value] }
        nodes += variables.map(\.value) + removedHeaders + storedCookies + headerLines + appendedHeaders.flatMap { [$0.key, $0.value] }
        nodes += [parameters, body, bodyFile, output, connection, redirects, credential, proxy].compactMap { $0 }
        nodes += parts.flatMap { [$0.name, $0.value, $0.file, $0.filename, $0.contentType].compactMap { $0 } }
        return nodes
    }

    /// The nodes of the checks and captures whose scalars may hold `${...}`: they may name the
    /// request's own captures, which are taken before its checks are judged, as in Hurl.
    package var checkNodes: [YAMLNode] {
        expectations.flatMap(\.templatedNodes) + captures.flatMap(\.templatedNodes)
    }

    /// The names `variable:` queries read, with where each is written; a check of whether one
    /// `exists` may name any.
    package var queriedVariables: [(name: String, mark: YAMLNode.Mark)] {
        expectations.compactMap { expectation in
            if case .query(.variable(let name), _, let predicate) = expectation.check, predicate.op != .exists { (name, expectation.mark) } else { nil }
        } + captures.compactMap { capture in
            if case .variable(let name) = capture.query { (name, capture.mark) } else { nil }
        }
    }
}

/// A request's `retry:`: Hurl's `retry`, Tavern's `max_retries`. The request is sent again,
/// `interval` apart, until every expectation holds (and every capture is found) or `attempts`
/// sends have been made. Unlike the `retry` stage, which re-sends on transport failures and
/// statuses inside one send, this polls for an eventually consistent result, and every attempt
/// is reported.
public struct PollingRetry: Sendable, Hashable {
    /// How many times the request is sent at most, the first included.
    public var attempts: Int
    /// The pause between two attempts.
    public var interval: Duration
    /// Where `retry:` is written.
    public var mark: YAMLNode.Mark

    /// 1 s: the pause when `retry:` gives none.
    public static let defaultInterval: Duration = .seconds(1)
    /// 10,000: the most attempts a request may ask for, so a run stays bounded.
    public static let maximumAttempts = 10_000
}

extension RequestSpec {
    /// The `${NAME}` names (not `env.`) the request refers to, and the variables it queries,
    /// but not its own captures or `variables:`: what ``variableNames`` holds once loaded.
    package var referencedVariableNames: Set<String> {
        let own = Set(captures.map(\.name) + variables.compactMap(\.key.scalar))
        return Set(templatedNodes.flatMap { $0.references().references }.filter { !$0.isEnvironment }.map(\.name))
            .union(queriedVariables.map(\.name))
            .subtracting(own)
    }
}
