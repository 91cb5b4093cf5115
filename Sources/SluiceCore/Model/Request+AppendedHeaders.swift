extension Request {
    private enum AppendedHeaders: StageValueKey { typealias Value = [String] }

    /// Header names whose own values go out beside what a header-injection stage injects for
    /// them, not in place of it: both fields are sent, the request's first (a pipeline's
    /// `append-headers:`). Names compare ASCII case-insensitively.
    public var appendedHeaders: [String] {
        get { stageValues[AppendedHeaders.self] ?? [] }
        set { stageValues[AppendedHeaders.self] = newValue.isEmpty ? nil : newValue }
    }

    /// Whether ``appendedHeaders`` names `name`.
    package func appendsHeader(_ name: String) -> Bool {
        guard let names = stageValues[AppendedHeaders.self] else { return false }
        return names.contains { $0.equalsIgnoringASCIICase(name) }
    }
}
