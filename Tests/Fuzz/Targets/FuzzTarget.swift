/// The fuzz targets: each takes arbitrary bytes, runs one parser or encoder of Sluice over them,
/// and checks what must hold for every input. A violated property stops the process with
/// `preconditionFailure` (libFuzzer keeps such an input as a crash); an error the code throws for
/// bad input is the expected outcome, not a failure.
///
/// `sluice-fuzz` runs them under libFuzzer (`scripts/fuzz`), and `FuzzCorpusTests` replays the
/// committed seeds and every input that ever crashed through the same functions.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The YAML reader, the pipeline decoder and loader, and request rendering.
    case pipeline
    /// The JSON reader and writer (which must round-trip) and the form encoder.
    case serializers
    /// The JSONPath parser and evaluator.
    case jsonpath
    /// The I-Regexp parser, compiler and automaton.
    case iregexp
    /// `Set-Cookie` parsing, the cookie jar and cookie files.
    case cookies
    /// Cache headers: `Cache-Control`, HTTP dates, freshness and 304 merging.
    case cache
    /// The `${NAME}` template parser and renderer.
    case template
    /// The response head parser.
    case responseHead = "response-head"
    /// RFC 3986 reference resolution and URL resolution's path templates.
    case urlResolution = "url-resolution"
    /// The `text/event-stream` parser.
    case serverSentEvents = "server-sent-events"
    /// The `when:`/`skip:` condition language.
    case condition
    /// The dotenv form of `--vars-file`.
    case variablesFile = "variables-file"
    /// Load result files and the HdrHistogram encoding inside them.
    case loadResult = "load-result"
    /// The content decoders (gzip, deflate, br, zstd, stacked), fed in pieces.
    case contentCodings = "content-codings"
    /// `WWW-Authenticate` challenges, the Digest answer, and `.netrc` files.
    case authentication

    /// Runs the target over one input.
    public func run(_ input: [UInt8]) {
        switch self {
        case .pipeline: PipelineFuzz.run(input)
        case .serializers: SerializerFuzz.run(input)
        case .jsonpath: JSONPathFuzz.run(input)
        case .iregexp: IRegexpFuzz.run(input)
        case .cookies: CookieFuzz.run(input)
        case .cache: CacheFuzz.run(input)
        case .template: TemplateFuzz.run(input)
        case .responseHead: ResponseHeadFuzz.run(input)
        case .urlResolution: URLResolutionFuzz.run(input)
        case .serverSentEvents: ServerSentEventFuzz.run(input)
        case .condition: ConditionFuzz.run(input)
        case .variablesFile: VariablesFileFuzz.run(input)
        case .contentCodings: ContentCodingFuzz.run(input)
        case .loadResult: LoadResultFuzz.run(input)
        case .authentication: AuthenticationFuzz.run(input)
        }
    }
}

/// Stops the process with `message` when `condition` is false: the fuzzer keeps the input.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { preconditionFailure(message()) }
}
