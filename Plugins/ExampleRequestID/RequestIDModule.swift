import SluiceCore
import SluiceStageRegistry

/// The module's stages, with their names and options as pipeline files write them.
enum RequestIDModule: StageModule {
    static var stages: [StageDescriptor] {
        let standard = RequestID()   // made with no options: what an option left out takes
        return [
            StageDescriptor(
                name: "request-id",
                summary: "Gives every request an id of its own in a header (\(standard.header) by default).",
                options: [
                    OptionDescriptor("header", .string, default: standard.header, summary: "The header's name."),
                    OptionDescriptor("prefix", .string, default: "\"\(standard.prefix)\"", summary: "Text put before each id."),
                ]
            ) { options in
                RequestID(header: options.string("header") ?? standard.header, prefix: options.string("prefix") ?? standard.prefix)
            }
        ]
    }
}
