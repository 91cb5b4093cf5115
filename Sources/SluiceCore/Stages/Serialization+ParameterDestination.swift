extension Serialization {
    /// Where ``Serialization/serialize(_:)`` writes a request's parameters.
    public enum ParameterDestination: Sendable, Hashable {
        /// Form-encoded into the URL's query: the method is one of ``Serialization/parametersInURI``
        /// and the request chose no format other than `form`.
        case query
        /// Into the body, in this format.
        case body(Format)

        /// Whether the parameters are written as names and values (a form encoding: the query,
        /// a `form` or a `multipart` body), so that they must be a mapping.
        public var takesNamesAndValues: Bool {
            switch self {
            case .query, .body(.form), .body(.multipart): true
            case .body(.json), .body(.plist): false
            }
        }
    }

    /// Where the parameters of a request sent with `method` go, the request having chosen
    /// `format` (``Request/parameterFormat``) or, with `nil`, left it to the stage.
    ///
    /// ```swift
    /// let stage = Serialization(format: .json)
    /// stage.parameterDestination(for: .get) == .query           // true
    /// stage.parameterDestination(for: .post) == .body(.json)    // true
    /// ```
    public func parameterDestination(for method: HTTPMethod, format chosen: Format? = nil) -> ParameterDestination {
        parametersInURI.contains(method) && (chosen == nil || chosen == .form) ? .query : .body(chosen ?? format)
    }
}
