import Foundation

extension Request {
    /// A request whose body is `value` encoded as JSON, whatever the pipeline's ``Serialization``
    /// stage says (or without one), for any method.
    ///
    /// ```swift
    /// struct Login: Encodable { var user: String; var remember: Bool }
    /// let request = try Request("login", json: Login(user: "zoe", remember: true))
    /// ```
    /// - Parameters:
    ///   - method: the method; `POST` by default.
    ///   - urlString: the URL, absolute or relative, as ``init(method:_:headers:body:pathParameters:parameters:parts:)`` takes it.
    ///   - headers: the request's own header fields.
    ///   - value: what the body holds.
    ///   - encoder: the encoder, for its key and date strategies; a plain `JSONEncoder` by default.
    /// - Throws: `.serialization` when `value` cannot be encoded.
    public init(method: HTTPMethod = .post, _ urlString: String, headers: HTTPHeaders = [:], json value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws(SluiceError) {
        let parameters: JSONValue
        do {
            parameters = try JSONReader().value(from: try encoder.encode(value))
        } catch {
            throw SluiceError(kind: .serialization, stage: "request", message: "the JSON body cannot be encoded: \(error)")
        }
        self.init(method: method, urlString, headers: headers, parameters: parameters)
        parameterFormat = .json
    }

    /// A request whose body is `parameters` as JSON, whatever the pipeline's ``Serialization``
    /// stage says (or without one), for any method.
    public init(method: HTTPMethod = .post, _ urlString: String, headers: HTTPHeaders = [:], json parameters: JSONValue) {
        self.init(method: method, urlString, headers: headers, parameters: parameters)
        parameterFormat = .json
    }

    /// A request whose `parameters` are form-encoded: into the query for a method whose parameters
    /// go there (`GET`, `HEAD`, `DELETE` unless the ``Serialization`` stage says otherwise), else
    /// as an `application/x-www-form-urlencoded` body, with the stage's encodings (arrays, Booleans,
    /// spaces), or the defaults without one.
    public init(method: HTTPMethod = .post, _ urlString: String, headers: HTTPHeaders = [:], form parameters: JSONValue) {
        self.init(method: method, urlString, headers: headers, parameters: parameters)
        parameterFormat = .form
    }

    /// A request whose body is `multipart/form-data`: `fields` flattened by the form rules into
    /// text fields, then `parts`, files streamed from disk.
    public init(method: HTTPMethod = .post, _ urlString: String, headers: HTTPHeaders = [:], multipart parts: [MultipartPart], fields: JSONValue? = nil) {
        self.init(method: method, urlString, headers: headers, parameters: fields, parts: parts)
        parameterFormat = .multipart
    }
}
