import SluiceCore
import SluiceStageRegistry

/// The module's stages, with their names and options as pipeline files write them.
enum RequestIDModule: StageModule {
    static var stages: [StageDescriptor] {
        [
            StageDescriptor(
                name: "request-id",
                summary: "Gives every request an id of its own in a header (X-Request-ID by default).",
                options: [
                    OptionDescriptor("header", .string, default: "X-Request-ID", summary: "The header's name."),
                    OptionDescriptor("prefix", .string, default: "\"\"", summary: "Text put before each id."),
                ]
            ) { options in
                RequestID(header: options.string("header") ?? "X-Request-ID", prefix: options.string("prefix") ?? "")
            }
        ]
    }
}
