extension Request {
    private enum OmittedHeaders: StageValueKey { typealias Value = [String] }

    /// Header fields that must not go out at all, the transport's own included: libcurl's
    /// `Accept: */*`, the `Accept-Encoding` of content decoding, `Content-Length: 0` of a
    /// body-less `POST`, `PUT` or `PATCH`, and the fields of a body (curl's `-H 'Name:'`). A field
    /// the request's ``headers`` set is sent all the same. Names compare ASCII case-insensitively.
    public var omittedHeaders: [String] {
        get { stageValues[OmittedHeaders.self] ?? [] }
        set { stageValues[OmittedHeaders.self] = newValue.isEmpty ? nil : newValue }
    }

    /// Whether ``omittedHeaders`` names `name`.
    package func omitsHeader(_ name: String) -> Bool {
        guard let names = stageValues[OmittedHeaders.self] else { return false }
        return names.contains { $0.equalsIgnoringASCIICase(name) }
    }
}
