import Foundation

/// Writes each request's `parameters` (and `parts`) into its query or body, as AFNetworking's
/// request serializers do.
///
/// For a method in `parametersInURI` (`GET`, `HEAD` and `DELETE` by default) the parameters are
/// form-encoded into the query, joined to an existing query with `&`, before any fragment, and
/// nothing is added for empty parameters. For any other method they become the body in `format`,
/// and `Content-Type` is set unless the request set one (multipart always sets its own, since only
/// it knows the boundary). An empty form body is sent as such.
///
/// A request that chose its own format (``Request/parameterFormat``: `Request(..., json:)`,
/// `(form:)`, `(multipart:)`) is written in it, with this stage's encodings; a JSON, property-list
/// or multipart body it chose goes in the body whatever the method.
///
/// A request without `parameters` and `parts` passes unchanged; AFNetworking gave such a POST an
/// empty form body, which overwrote a body set by hand. Parameters with a body already set, parts
/// outside the `multipart` format, and values the format cannot hold are `.serialization` errors
/// naming the value (`$.price: nan cannot be written as a form value`).
///
/// ```swift
/// Serialization(format: .json)
/// ```
public struct Serialization: SynchronousRequestStage {
    /// The body format for parameters.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// `application/x-www-form-urlencoded`, with the stage's `FormEncoder`.
        case form
        /// `application/json`.
        case json
        /// `application/x-plist`, an XML property list.
        case plist
        /// `multipart/form-data`: parameters flattened by the `FormEncoder` into text fields, then the request's parts.
        case multipart
    }

    /// The body format; `form` by default.
    public let format: Format
    /// The rules for form bodies, queries and multipart field names.
    public let formEncoder: FormEncoder
    /// The methods whose parameters go in the query.
    public let parametersInURI: Set<HTTPMethod>

    /// `GET`, `HEAD`, `DELETE`: the methods whose parameters go in the query unless told
    /// otherwise, in the order they are shown.
    public static let defaultParametersInURI: [HTTPMethod] = [.get, .head, .delete]

    /// `serialization`.
    public var name: String { "serialization" }

    /// Its place in the chain (see ``StagePlacement``).
    public static var placement: StagePlacement { .serialization }

    /// Serialization of parameters.
    public var claims: [String] { ["serialization of parameters"] }

    /// Creates the stage.
    public init(format: Format = .form, formEncoder: FormEncoder = FormEncoder(), parametersInURI: Set<HTTPMethod> = Set(Serialization.defaultParametersInURI)) {
        self.format = format
        self.formEncoder = formEncoder
        self.parametersInURI = parametersInURI
    }

    /// Writes the parameters and parts into the request.
    public func prepare(_ request: Request, context: TaskContext) throws -> Request {
        try serialize(request)
    }

    /// The request with its parameters and parts written into its query or body, and removed.
    /// - Throws: `.serialization` when they cannot be written, `.fileIO` when a part's file cannot be read.
    public func serialize(_ request: Request) throws(SluiceError) -> Request {
        guard request.parameters != nil || !request.parts.isEmpty else { return request }
        var request = request
        let parameters = request.parameters
        let parts = request.parts
        let destination = parameterDestination(for: request.method, format: request.parameterFormat)
        request.parameters = nil
        request.parts = []
        request.parameterFormat = nil
        guard case .body(let format) = destination else {
            guard parts.isEmpty else {
                throw failure("multipart parts cannot be sent with \(request.method), whose parameters go in the query", request)
            }
            if let parameters {
                request.url = try appendingQuery(encoded(request) { () throws(UnencodableValue) in try formEncoder.string(from: parameters) }, to: request)
            }
            return request
        }
        guard request.body.isEmpty else {
            throw failure("the request has a body of its own and parameters; send one or the other", request)
        }
        guard parts.isEmpty || format == .multipart else {
            throw failure("the request has multipart parts, but the serialization format is \(format.rawValue)", request)
        }
        let contentType: String
        switch format {
        case .form:
            let text = try encoded(request) { () throws(UnencodableValue) in try formEncoder.string(from: parameters ?? .object([:])) }
            request.body = .data(Data(text.utf8))
            contentType = "application/x-www-form-urlencoded"
        case .json:
            let bytes = try encoded(request) { () throws(UnencodableValue) in try JSONWriter().data(from: parameters ?? .null) }
            request.body = .data(Data(bytes))
            contentType = "application/json"
        case .plist:
            let bytes = try encoded(request) { () throws(UnencodableValue) in try PropertyListWriter().data(from: parameters ?? .object([:])) }
            request.body = .data(Data(bytes))
            contentType = "application/x-plist"
        case .multipart:
            let fields = try encoded(request) { () throws(UnencodableValue) in try parameters.map(formEncoder.pairs(from:)) ?? [] }
            let multipart = MultipartFormData()
            do {
                request.body = try multipart.body(fields: fields, parts: parts)
            } catch {
                throw SluiceError(kind: .fileIO, stage: name, url: request.url, message: error.description)
            }
            request.headers["Content-Type"] = multipart.contentType
            return request
        }
        if !request.headers.contains("Content-Type") {
            request.headers.add(name: "Content-Type", value: contentType)
        }
        return request
    }

    private func encoded<T>(_ request: Request, _ body: () throws(UnencodableValue) -> T) throws(SluiceError) -> T {
        do {
            return try body()
        } catch {
            throw failure("parameters \(error.path): \(error.reason)", request)
        }
    }

    private func failure(_ message: String, _ request: Request) -> SluiceError {
        SluiceError(kind: .serialization, stage: name, url: request.url, message: message)
    }

    /// The request's URL with `query` joined to its query, before any fragment. The URL was made
    /// from its text already (``URLText``): only the query is added, its bytes escaped as a query's
    /// are, and the rest is not read again.
    private func appendingQuery(_ query: String, to request: Request) throws(SluiceError) -> URL {
        guard !query.isEmpty else { return request.url }
        let query = PercentEncoding.encode(query, keepingEscapes: true, keeping: URLText.isQueryByte)
        let text = request.url.baseURL == nil ? request.url.relativeString : request.url.absoluteString
        let joined = URLText.appendingQuery(query, to: text)
        guard let url = RecentURLs.url(joined) else {
            throw failure("the URL with the query added is not valid: \(joined)", request)
        }
        return url
    }
}

extension Request {
    private enum Parameters: StageValueKey { typealias Value = JSONValue }
    private enum Parts: StageValueKey { typealias Value = [MultipartPart] }
    private enum ParameterFormat: StageValueKey { typealias Value = Serialization.Format }

    /// Parameters for ``Serialization`` to write into the query or the body; `nil` for none. A
    /// request that reaches the transport still carrying them is refused (no stage wrote them).
    public var parameters: JSONValue? {
        get { stageValues[Parameters.self] }
        set { stageValues[Parameters.self] = newValue }
    }

    /// Fields and files for a multipart body, written by ``Serialization`` in its `multipart` format.
    public var parts: [MultipartPart] {
        get { stageValues[Parts.self] ?? [] }
        set { stageValues[Parts.self] = newValue.isEmpty ? nil : newValue }
    }

    /// The format this request's parameters are written in, chosen for this request alone
    /// (``init(method:_:headers:json:encoder:)``, ``init(method:_:headers:form:)``,
    /// ``init(method:_:headers:multipart:fields:)``), as Alamofire's `parameters:encoder:` lets each
    /// call choose; `nil` takes the ``Serialization`` stage's. A request that chose one is written
    /// even by a pipeline without a `Serialization` stage, with the default encodings.
    public var parameterFormat: Serialization.Format? {
        get { stageValues[ParameterFormat.self] }
        set { stageValues[ParameterFormat.self] = newValue }
    }
}
