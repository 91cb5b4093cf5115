import SluiceCore
import SluiceStageRegistry

/// The `retry` stage, for pipeline files.
public enum RetryModule: StageModule {
    /// The `retry` stage's descriptor.
    public static var stages: [StageDescriptor] {
        [
            StageDescriptor(
                name: "retry",
                summary: "Sends a request again after a transient failure, with exponential backoff and full jitter, honouring Retry-After.",
                options: [
                    OptionDescriptor("attempts", .integer, default: "\(Retry.defaultAttempts)", summary: "How many times a request is sent at most, the first time included."),
                    OptionDescriptor("base-delay", .duration, default: DurationText.string(Retry.defaultBaseDelay), summary: "The backoff's first ceiling; each retry doubles it, up to max-delay."),
                    OptionDescriptor("max-delay", .duration, default: DurationText.string(Retry.defaultMaxDelay), summary: "The longest wait between attempts; a Retry-After asking for longer is not retried."),
                    OptionDescriptor("statuses", .list(.statusCode), default: "[\(Retry.defaultStatuses)]", summary: "Response statuses that are retried."),
                    OptionDescriptor(
                        "methods", .list(.string), default: "[" + Retry.defaultMethods.map(\.rawValue).joined(separator: ", ") + "]",
                        summary: "Methods that may be retried: the idempotent ones by default."
                    ),
                ]
            ) { options in
                let attempts = options.integer("attempts") ?? Retry.defaultAttempts
                guard attempts >= 1 else { throw StageOptions.Invalid(option: "attempts", message: "attempts must be at least 1") }
                let baseDelay = options.duration("base-delay") ?? Retry.defaultBaseDelay
                let maxDelay = options.duration("max-delay") ?? Retry.defaultMaxDelay
                guard maxDelay >= baseDelay else {
                    throw StageOptions.Invalid(option: "max-delay", message: "max-delay must be at least base-delay")
                }
                return Retry(
                    attempts: attempts,
                    baseDelay: baseDelay,
                    maxDelay: maxDelay,
                    statuses: options.statusCodes("statuses") ?? Retry.defaultStatuses,
                    methods: options.strings("methods").map { Set($0.map { HTTPMethod($0.uppercased()) }) } ?? Retry.idempotentMethods
                )
            }
        ]
    }
}
