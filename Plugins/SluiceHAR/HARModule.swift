import SluiceCore
import SluiceStageRegistry

/// The `har-recorder` stage, for pipeline files.
public enum HARModule: StageModule {
    /// The `har-recorder` stage's descriptor.
    public static var stages: [StageDescriptor] {
        [
            StageDescriptor(
                name: "har-recorder",
                summary: "Writes every exchange to a HAR 1.2 file (timings, headers, bodies; secrets hidden); runs last, wherever it is listed.",
                options: [
                    OptionDescriptor("path", .string, required: true, summary: "The HAR file to write, relative to the pipeline file; replaced at each run."),
                    OptionDescriptor(
                        "redact-headers", .list(.string), default: "[" + HARRecorder.defaultRedactedHeaders.joined(separator: ", ") + "]",
                        summary: "Headers whose values are written as ***, besides Authorization and Proxy-Authorization."
                    ),
                    OptionDescriptor(
                        "max-body-bytes", .integer, default: "\(HARRecorder.defaultMaxBodyBytes)", summary: "Bodies larger than this are not written, only their size."
                    ),
                ]
            ) { options in
                do throws(SluiceError) {
                    return try HARRecorder(
                        path: options.path("path") ?? "",
                        redactedHeaders: options.strings("redact-headers") ?? HARRecorder.defaultRedactedHeaders,
                        maxBodyBytes: options.integer("max-body-bytes") ?? HARRecorder.defaultMaxBodyBytes
                    )
                } catch {
                    throw StageOptions.Invalid(option: "path", message: error.message)
                }
            }
        ]
    }
}
