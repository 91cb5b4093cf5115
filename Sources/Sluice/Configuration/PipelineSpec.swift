import Foundation

/// A pipeline file as written, checked for shape: its name, variables, stage entries and
/// requests, every part with the line and column it came from. Values that may hold `${...}`
/// stay YAML nodes until a request is sent, when the variables known by then fill them in.
public struct PipelineSpec: Sendable {
    /// The pipeline's name: `name:`, or the file's stem.
    public var name: String
    /// The `plugins:` entries: paths of stage modules to load, relative to the file.
    public var plugins: [YAMLNode]
    /// The `variables:` entries, in order.
    public var variables: [YAMLNode.Pair]
    /// The stage entries, top to bottom.
    public var stages: [StageSpec]
    /// The requests, in file order.
    public var requests: [RequestSpec]
    /// `max-response-size:`, the response-body limit of requests that set none.
    public var maxResponseSize: Int64?
    /// `cookie-file:`, the cookie file (curl's format) the run reads before its first request
    /// and writes after its last, as written.
    public var cookieFile: YAMLNode?
}

/// One entry of `stages:`: a stage's name and its options as written.
public struct StageSpec: Sendable {
    /// The stage's name.
    public var name: String
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

    /// The request's name, unique in its file.
    public var name: String
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
    /// A raw body.
    public var body: YAMLNode?
    /// A file sent as the raw body.
    public var bodyFile: YAMLNode?
    /// Multipart parts.
    public var parts: [Part]
    /// The total timeout.
    public var timeout: Duration?
    /// `max-response-size:`, the most bytes of response body to take.
    public var maxResponseSize: Int64?
    /// `output:`, a file the response body is streamed to instead of memory.
    public var output: YAMLNode?
    /// `events:`, for a `text/event-stream` resource: how many server-sent events to read, and for
    /// how long at most; the expectations and captures then see the events as a JSON array.
    public var events: EventReading?
    /// What the response must satisfy.
    public var expectations: [Expectation]
    /// Values taken from the response for later requests.
    public var captures: [Capture]

    /// Every node whose scalars may hold `${...}`.
    var templatedNodes: [YAMLNode] {
        var nodes = [path] + pathParameters.map(\.value) + headers.map(\.value)
        nodes += [parameters, body, bodyFile, output].compactMap { $0 }
        nodes += parts.flatMap { [$0.name, $0.value, $0.file, $0.filename, $0.contentType].compactMap { $0 } }
        nodes += expectations.compactMap(\.templatedValue)
        return nodes
    }
}
