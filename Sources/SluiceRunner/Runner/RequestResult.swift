import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

/// What became of one request of a pipeline run.
public struct RequestResult: Sendable {
    /// Why a request has no usable response: a `SluiceError`'s stage, kind and message, or the
    /// runner's own reason (a capture an earlier request did not provide).
    public struct Failure: Sendable, Hashable {
        /// The stage that failed, `transport`, or `nil`.
        public var stage: String?
        /// The kind, for example `connection failed` or `unacceptable status`.
        public var kind: String
        /// What happened.
        public var message: String

        /// Creates a failure.
        public init(stage: String?, kind: String, message: String) {
            self.stage = stage
            self.kind = kind
            self.message = message
        }

        /// The failure of a `SluiceError`, with what a pipeline file writes to change it where the
        /// library's message names its own API (a body past its limit).
        public init(_ error: SluiceError) {
            var message = error.message
            if error.kind == .responseTooLarge, !message.contains("max-response-size") {
                message += ". In a pipeline file: max-response-size sets the limit (none for no limit), output: streams the body to a file"
            }
            self.init(stage: error.stage, kind: error.kind.description, message: message)
        }
    }

    /// One send of a request with `retry:`.
    public struct Attempt: Sendable, Hashable {
        /// 1 for the first send.
        public var number: Int
        /// The status of the response, when one arrived.
        public var status: Int?
        /// How long the send took.
        public var duration: Duration
        /// Why it failed, if it did.
        public var error: Failure?
        /// The expectations it did not meet.
        public var failures: [ExpectationFailure]

        /// Whether it completed and met every expectation.
        public var ok: Bool { error == nil && failures.isEmpty }
    }

    /// The request's name, with its `for-each` row when it has one.
    public var name: String
    /// The file the request is written in (an included file's requests name theirs).
    public var file = ""
    /// Where the request is written.
    public var mark: YAMLNode.Mark
    /// The method.
    public var method: HTTPMethod
    /// The URL as sent (after every request-side stage), or as written when it was not sent.
    public var url: String
    /// The request as it reached the transport, when it did.
    public var sent: Request?
    /// Every exchange on the wire, in order (each redirect hop; a cache's revalidation as the
    /// server answered it), when the runner ``PipelineRunner/recordsExchanges``; empty otherwise.
    public var exchanges: [Exchange] = []

    /// One request that reached the transport, and the head of its response when one came.
    public struct Exchange: Sendable {
        /// The request as sent.
        public var request: Request
        /// The response's status, version and headers (no body), when one came.
        public var response: Response?
    }
    /// The response, when one arrived: also when a stage then refused it (its status, content
    /// type or body), so that every output can show what the server answered.
    public var response: Response?
    /// How long the request took, through the whole chain: its last attempt's, with `retry:`.
    public var duration: Duration
    /// The request's whole time in the run when it is more than one send: its `delay:`, every
    /// attempt of `retry:` and the waits between them; `nil` when ``duration`` is all of it.
    public var totalDuration: Duration?
    /// The request's whole time in the run, the time a JUnit test case reports.
    public var wallTime: Duration { totalDuration ?? duration }
    /// Why the request failed, if it did.
    public var error: Failure?
    /// The expectations that were not met.
    public var failures: [ExpectationFailure]
    /// The values captured for later requests, with their JSON types: what a JSONPath selected
    /// as it is (a number stays a number), a header, a regex group or a cookie as a string.
    public var captured: [String: JSONValue]
    /// The kind of each captured value JSON has no word for: a date (its text RFC 3339) or bytes
    /// (lower-case hex), which a later `variable:` check reads back as what it was.
    public var capturedKinds: [String: VariableScope.Kind] = [:]
    /// The captured values that hold a secret (a server that echoes a key, say): secrets in their
    /// own right from here on, since a later request may send them transformed.
    public var capturedSecrets: [String] = []
    /// What the stages reported about the request: each retry, each token refresh.
    public var notes: [StageNote] = []
    /// Why the request was not sent, when its `when:` or `skip:` said so; such a request passes.
    public var skipReason: String?
    /// Every send of a request with `retry:`, in order; empty without `retry:`.
    public var attempts: [Attempt] = []
    /// The request's tags.
    public var tags: [String] = []
    /// The time in each stage and each libcurl phase, when the request was sent.
    public var metrics: TaskMetrics?
    /// Every expectation and capture of the request, as written; those not met are also in
    /// ``failures``, with the same label and mark.
    public var expectations: [CheckedItem] = []

    /// An expectation or capture of a request: its label and where it is written.
    public struct CheckedItem: Sendable, Hashable {
        /// `status`, `body $.args.q`, `capture token`.
        public var label: String
        /// Where it is written.
        public var mark: YAMLNode.Mark
    }
    /// The expectations and captures of the request that were not judged, and why: the request
    /// failed before a response came, or its body did not arrive whole (then the checks that
    /// read only the head, its status and header fields, are judged all the same); `nil` when
    /// each was judged.
    public var notJudged: NotJudged?

    /// Checks a failure kept from being judged: every report lists them, so that no check the
    /// user wrote goes unmentioned.
    public struct NotJudged: Sendable, Hashable {
        /// Why: `no response came`, `the body did not arrive whole`.
        public var reason: String
        /// The checks and captures, as ``expectations`` lists them.
        public var items: [CheckedItem]

        /// `not judged (REASON): status (line 5), capture id (line 9)`.
        public var description: String {
            "not judged (\(reason)): " + items.map { "\($0.label) (line \($0.mark.line))" }.joined(separator: ", ")
        }
    }

    /// Whether the request completed and met every expectation, or was skipped by a condition.
    public var ok: Bool { error == nil && failures.isEmpty }
    /// Whether a `when:` or `skip:` condition kept the request from being sent.
    public var isSkipped: Bool { skipReason != nil }
    /// The response status, when a response arrived (refused or not).
    public var status: Int? { response?.status }
    /// The size of the response body in bytes, in memory or in its `output` file.
    public var size: Int {
        guard let response else { return 0 }
        guard let file = response.bodyFile else { return response.body.count }
        // A device or FIFO: what was written to it, not its own size.
        if let written = response.bodyFileByteCount { return Int(written) }
        return (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    }
    /// The request's own status check, when it failed on a response that a stage refused too
    /// (a `405` whose HTML error page response decoding refuses for its content type): the cause,
    /// which every report puts before the stage's refusal that follows from it.
    public var statusFailureBesideError: ExpectationFailure? {
        error == nil ? nil : failures.first(where: \.isStatus)
    }
    /// What a `cache` stage did for the response, when one handled it.
    public var cache: CacheOutcome? { response?.cacheOutcome }
    /// The decoded body, when response decoding produced one.
    public var decoded: JSONValue? { response?.decoded?.value }
}

/// An expectation that was not met.
public struct ExpectationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The expectation as written: `status`, `body $.args.q equals`.
    public var label: String
    /// Where it is written.
    public var mark: YAMLNode.Mark
    /// What was expected, in words.
    public var expected: String
    /// What was found, in words.
    public var actual: String

    /// `LABEL: expected EXPECTED, actual ACTUAL`.
    public var description: String { "\(label): expected \(expected), actual \(actual)" }
    /// Whether this is the request's `expect.status` (or a Hurl entry's status line).
    public var isStatus: Bool { label == "status" }
}
