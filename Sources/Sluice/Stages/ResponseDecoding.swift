import Foundation

/// Validates each response's status and content type, then decodes its body into
/// `Response.decoded`, as AFNetworking's response serializers do.
///
/// - Status: `acceptableStatus` (200–299 by default). An unacceptable status is an
///   `.unacceptableStatus` error, but the body is still decoded first, so the error's `response`
///   carries what the server said.
/// - Content type: matched on the media type without parameters against `acceptableContentTypes`
///   (for `json`: `application/json`, `text/json`, `text/javascript`; for `plist`:
///   `application/x-plist`; any for the other formats). An unacceptable or missing type is an
///   `.unacceptableContentType` error and the body is not decoded. An empty body is not checked.
/// - Body: `json` into a ``JSONValue`` (any value at the top level), `plist`, `string` (charset
///   of `Content-Type`, UTF-8 by default), `data`, or `auto` (chosen by `Content-Type`). An empty
///   body, a body of one space, a `HEAD` request and statuses 204, 205 and 304 decode to no value
///   without error. A body that does not parse is a `.decoding` error.
/// - `removesKeysWithNullValues` drops `null` object members and `null` array elements at every
///   depth; AFNetworking kept `null` array elements.
///
/// A download (the body went to a file) is validated but not decoded. Every error carries the
/// response: status, headers and raw body.
public struct ResponseDecoding: ResponseStage {
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

    /// Validates and decodes the response.
    public func process(_ response: Response, for request: Request, context: TaskContext) throws -> Response {
        try decode(response, for: request)
    }

    /// The response with its body decoded into `decoded`.
    /// - Throws: `.unacceptableContentType`, `.unacceptableStatus` or `.decoding`, with the response.
    public func decode(_ response: Response, for request: Request) throws(SluiceError) -> Response {
        let mediaType = response.headers["Content-Type"].flatMap(MediaType.init(parsing:))
        var response = response
        let hasBody = response.bodyFile != nil || !isNoValue(response, request)
        if hasBody, let acceptableContentTypes, !(mediaType.map { type in acceptableContentTypes.contains { type.matches($0) } } ?? false) {
            let acceptable = acceptableContentTypes.map(\.essence).joined(separator: ", ")
            let actual = response.headers["Content-Type"].map { "content type \($0) is" } ?? "the response has no Content-Type, which is"
            throw failure(.unacceptableContentType, "\(actual) not acceptable (\(acceptable))", response)
        }
        guard acceptableStatus.contains(response.status) else {
            response.decoded = try? decodedBody(response, request, mediaType: mediaType)
            throw failure(.unacceptableStatus, "status \(response.status) is not acceptable (\(acceptableStatus))", response)
        }
        response.decoded = try decodedBody(response, request, mediaType: mediaType)
        return response
    }

    private func failure(_ kind: SluiceError.Kind, _ message: String, _ response: Response) -> SluiceError {
        SluiceError(kind: kind, stage: name, url: response.url, message: message, response: response)
    }

    /// Whether the response has nothing to decode: no body, one space, or a method or status
    /// that has none.
    private func isNoValue(_ response: Response, _ request: Request) -> Bool {
        request.method == .head || [204, 205, 304].contains(response.status) || response.body.isEmpty
            || (response.body.count == 1 && response.body.first == UInt8(ascii: " "))
    }

    private func decodedBody(_ response: Response, _ request: Request, mediaType: MediaType?) throws(SluiceError) -> DecodedBody? {
        guard response.bodyFile == nil, !isNoValue(response, request) else { return nil }
        var format = format
        if format == .auto {
            format = mediaType.map { $0.isJSON ? .json : $0.isPropertyList ? .plist : $0.isText ? .string : .data } ?? .data
        }
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
