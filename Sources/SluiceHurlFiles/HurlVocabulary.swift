import SluicePipelineFiles

/// The loader's messages in the words of a Hurl file: its variables are written `{{NAME}}`, and
/// defined with `--variable` or `[Options] variable:`, not `${NAME}` and `variables:`.
enum HurlVocabulary {
    /// A variable reference as the loader writes it: `${NAME}`, a plain name (not `${env.NAME}`
    /// nor a function, which a Hurl file does not write so).
    private static var reference: Regex<(Substring, Substring)> { #/\$\{([A-Za-z_][A-Za-z0-9_-]*)\}/# }
    /// The loader's hint for an undefined variable, with the name in its one capture.
    private static var hint: Regex<(Substring, Substring)> { #/ \(define it under variables: or pass --var ([A-Za-z_][A-Za-z0-9_-]*)=VALUE\)/# }

    /// `message` with each `${NAME}` written `{{NAME}}` and the hint naming Hurl's ways to define
    /// a variable.
    static func message(_ message: String) -> String {
        message
            .replacing(hint) { " (pass --variable \($0.1)=VALUE, or set it in the entry's [Options]: variable: \($0.1)=VALUE)" }
            .replacing(reference) { "{{\($0.1)}}" }
    }

    /// The problems of a Hurl file, in its words.
    static func error(_ error: PipelineFileError) -> PipelineFileError {
        PipelineFileError(error.diagnostics.map { PipelineDiagnostic(file: $0.file, mark: $0.mark, message: message($0.message)) })
    }
}
