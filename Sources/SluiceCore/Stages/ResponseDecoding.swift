import Foundation

/// Validates each response's status and content type, then decodes its body into
/// `Response.decoded`, as AFNetworking's response serializers do.
///
/// - Status: `acceptableStatus` (200–299 by default). An unacceptable status is an
///   `.unacceptableStatus` error, but a body of an acceptable type is still decoded first, so the
///   error's `response` carries what the server said.
/// - Content type: matched on the media type without parameters against `acceptableContentTypes`
///   (for `json`: `application/json`, `text/json`, `text/javascript`; for `plist`:
///   `application/x-plist`; any for the other formats). An unacceptable or missing type is an
///   `.unacceptableContentType` error and the body is not decoded. Only a body with no value (see
///   below) is not checked, whatever the status: a 204 or 205 that carries a body is validated
///   like any other (AFNetworking's tests expect the same of a 205).
/// - Both wrong: the status failure is the error, and the content-type failure its `underlying`
///   error and the end of its message (`status 404 is not acceptable (200-299), and content type
///   text/html is not acceptable (…)`), as AFNetworking chains them.
/// - Body: `json` into a ``JSONValue`` (any value at the top level), `plist`, `string` (charset
///   of `Content-Type`, UTF-8 by default), `data`, or `auto` (chosen by `Content-Type`). An empty
///   body, a body of one space and the answer to a `HEAD` request decode to no value without
///   error. A body that does not parse is a `.decoding` error.
/// - `removesKeysWithNullValues` drops `null` object members and `null` array elements at every
///   depth, as AFNetworking's `AFJSONObjectByRemovingKeysWithNullValues` does.
///
/// A download (the body went to a file) and a streamed body (``ResponseDestination/stream(bufferSize:)``,
/// whose bytes have not arrived when the stage runs) are validated on their head, status and
/// content type, but not decoded: the caller reads the stream. Every error carries the response:
/// status, headers and raw body.
public struct ResponseDecoding: SynchronousResponseStage {
    /// What the body is decoded as.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// JSON into a `JSONValue`.
        case json
        /// A property list (XML or binary) into a `JSONValue`.
        case plist
        /// Text in the response's charset.
        case string
        /// The bytes as they are.
        case data
        /// Chosen by `Content-Type`: JSON types as `json`, `application/x-plist` as `plist`,
        /// text and XML as `string`, anything else as `data`.
        case auto
    }

    /// Which content types are acceptable.
    public enum AcceptableContentTypes: Sendable, Hashable {
        /// The format's own list (see ``ResponseDecoding``).
        case `default`
        /// Any type: no check.
        case any
        /// These types; a pattern may be `type/*`.
        case only([MediaType])
    }

    /// What the body is decoded as.
    public let format: Format
    /// The statuses that are not errors.
    public let acceptableStatus: StatusCodeSet
    /// The acceptable content types; `nil` accepts any.
    public let acceptableContentTypes: [MediaType]?
    /// Whether `null` members and elements are removed from decoded values.
    public let removesKeysWithNullValues: Bool

    /// `response-decoding`.
    public var name: String { "response-decoding" }

    /// ``StagePlacement/responseDecoding``: a call stage, so it judges and decodes the final response, after redirects, retries and the cache.
    public static var placement: StagePlacement { .responseDecoding }

    /// Response decoding.
    public var claims: [String] { ["response decoding"] }

    /// Creates the stage.
    public init(
        format: Format = .json,
        acceptableStatus: StatusCodeSet = .successful,
        acceptableContentTypes: AcceptableContentTypes = .default,
        removesKeysWithNullValues: Bool = false
    ) {
        self.format = format
        self.acceptableStatus = acceptableStatus
        self.removesKeysWithNullValues = removesKeysWithNullValues
        switch acceptableContentTypes {
        case .any: self.acceptableContentTypes = nil
        case .only(let types): self.acceptableContentTypes = types
        case .default:
            switch format {
            case .json: self.acceptableContentTypes = ["application/json", "text/json", "text/javascript"].map { MediaType(parsing: $0)! }
            case .plist: self.acceptableContentTypes = [MediaType(type: "application", subtype: "x-plist")]
            case .string, .data, .auto: self.acceptableContentTypes = nil
            }
        }
    }

    /// Accepts any status and content type and decodes the body as its bytes: what a request that
    /// downloads or streams through a pipeline that decodes JSON sets as its own
    /// (``Request/responseDecoding``).
    public static let passThrough = ResponseDecoding(format: .data, acceptableStatus: [100...999], acceptableContentTypes: .any)

    /// Validates and decodes the response, by the request's own ``Request/responseDecoding`` when
    /// it has one.
    public func process(_ response: Response, for request: Request, context: TaskContext) throws -> Response {
        try (request.responseDecoding ?? self).decode(response, for: request)
    }

    /// The response with its body decoded into `decoded`.
    /// - Throws: `.unacceptableStatus` (with a content-type failure as `underlying` when the type
    ///   is wrong too), `.unacceptableContentType` or `.decoding`, each with the response.
    public func decode(_ response: Response, for request: Request) throws(SluiceError) -> Response {
        let mediaType = response.headers["Content-Type"].flatMap(MediaType.init(parsing:))
        var response = response
        let contentTypeFailure = contentTypeFailure(response, request, mediaType: mediaType)
        guard acceptableStatus.contains(response.status) else {
            if contentTypeFailure == nil { response.decoded = try? decodedBody(response, request, mediaType: mediaType) }
            var message = "status \(response.status) is not acceptable (\(acceptableStatus))"
            if let contentTypeFailure { message += ", and " + contentTypeFailure.message }
            if let said = ResponseDecoding.excerpt(of: response.body) { message += "; the server said: " + said }
            throw SluiceError(kind: .unacceptableStatus, stage: name, url: response.url, message: message, underlying: contentTypeFailure, response: response)
        }
        if let contentTypeFailure { throw contentTypeFailure }
        response.decoded = try decodedBody(response, request, mediaType: mediaType)
        return response
    }

    /// The longest excerpt of a refused body the status error shows.
    static let excerptLength = 200

    /// What a refused response's body says, for its error: the text on one line (each run of
    /// white space one space), at most ``excerptLength`` characters and `…` after; `nil` for no
    /// body, or one that is not UTF-8 text.
    static func excerpt(of body: Data) -> String? {
        // Enough bytes for the characters shown; a character the cut splits is left out.
        let head = body.prefix(4 * excerptLength)
        guard let text = (0...3).lazy.compactMap({ String(data: head.dropLast($0), encoding: .utf8) }).first else { return nil }
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !words.isEmpty else { return nil }
        let cut = words.count > excerptLength || body.count > head.count
        return String(words.prefix(excerptLength)) + (cut ? "…" : "")
    }

    /// The failure of a response whose body is not of an acceptable type; `nil` when it is, when
    /// any type is acceptable, or when there is no value to judge (whatever the status).
    private func contentTypeFailure(_ response: Response, _ request: Request, mediaType: MediaType?) -> SluiceError? {
        guard let acceptableContentTypes, response.bodyFile != nil || response.bodyStream != nil || !isNoValue(response, request)
        else { return nil }
        if let mediaType, acceptableContentTypes.contains(where: { mediaType.matches($0) }) { return nil }
        let acceptable = acceptableContentTypes.map(\.essence).joined(separator: ", ")
        let actual = response.headers["Content-Type"].map { "content type \($0) is" } ?? "the response has no Content-Type, which is"
        return failure(.unacceptableContentType, "\(actual) not acceptable (\(acceptable))", response)
    }

    private func failure(_ kind: SluiceError.Kind, _ message: String, _ response: Response) -> SluiceError {
        SluiceError(kind: kind, stage: name, url: response.url, message: message, response: response)
    }

    /// Whether the response has nothing to decode: no body, one space (Rails' `head :ok`), or the
    /// answer to a `HEAD` request.
    private func isNoValue(_ response: Response, _ request: Request) -> Bool {
        request.method == .head || response.body.isEmpty
            || (response.body.count == 1 && response.body.first == UInt8(ascii: " "))
    }

    /// The decoded body: `nil` for a download, a stream, the answer to `HEAD`, and a JSON or
    /// property-list body with no value (empty, or one space); text and bytes are what they are,
    /// so an empty text body is `""`.
    private func decodedBody(_ response: Response, _ request: Request, mediaType: MediaType?) throws(SluiceError) -> DecodedBody? {
        guard response.bodyFile == nil, response.bodyStream == nil, request.method != .head else { return nil }
        var format = format
        if format == .auto {
            format = mediaType.map { $0.isJSON ? .json : $0.isPropertyList ? .plist : $0.isText ? .string : .data } ?? .data
        }
        if format == .json || format == .plist, isNoValue(response, request) { return nil }
        switch format {
        case .json:
            do {
                let value = try JSONReader().value(from: response.body)
                return .json(removesKeysWithNullValues ? value.removingNullValues() : value)
            } catch {
                throw failure(.decoding, "the body is not valid JSON: \(error)", response)
            }
        case .plist:
            do {
                return .propertyList(try PropertyListReader().value(from: response.body))
            } catch {
                throw failure(.decoding, "the body is not a valid property list: \(error)", response)
            }
        case .string:
            return .string(try TextDecoding.string(from: response.body, charset: mediaType?.charset) { message in
                failure(.decoding, message, response)
            })
        case .data, .auto:
            return .data(response.body)
        }
    }
}

extension Response {
    private enum Decoded: StageValueKey { typealias Value = DecodedBody }

    /// The body decoded by a ``ResponseDecoding`` stage; `nil` before decoding, and for a JSON or
    /// property-list body with no value (empty, or one space).
    public var decoded: DecodedBody? {
        get { stageValues[Decoded.self] }
        set { stageValues[Decoded.self] = newValue }
    }
}
