extension PipelineSource {
    /// Whether the file is a Hurl file (`.hurl`), whose variables are written `{{NAME}}`.
    public var isHurl: Bool { path.hasSuffix(".hurl") }

    /// A variable as the file writes it, for messages: `${NAME}`, or `{{NAME}}` in a Hurl file.
    public func spelling(ofVariable name: String) -> String {
        Self.spelling(ofVariable: name, hurl: isHurl)
    }

    /// A variable as a pipeline file (`${NAME}`) or a Hurl file (`{{NAME}}`) writes it.
    static func spelling(ofVariable name: String, hurl: Bool) -> String {
        hurl ? "{{\(name)}}" : "${\(name)}"
    }
}
