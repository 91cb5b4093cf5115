extension PipelineSource {
    /// Whether the file is a Hurl file (`.hurl`), whose variables are written `{{NAME}}`.
    public var isHurl: Bool { path.hasSuffix(".hurl") }

    /// A variable as the file writes it, for messages: `${NAME}`, or `{{NAME}}` in a Hurl file.
    public func spelling(ofVariable name: String) -> String {
        isHurl ? "{{\(name)}}" : "${\(name)}"
    }
}
