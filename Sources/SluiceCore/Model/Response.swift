import Foundation

/// An HTTP response as it flows back through a pipeline's stages.
public struct Response: Sendable {
    /// The status code, for example 200.
    public var status: Int
    /// The header fields of the final response, in order, repeated fields kept.
    public var headers: HTTPHeaders
    /// The body, decoded from any `Content-Encoding`; empty when it went to a file or is streamed.
    public var body: Data
    /// The body as it arrives, for requests whose destination is
    /// ``ResponseDestination/stream(bufferSize:)``; `nil` otherwise.
    public var bodyStream: ResponseBodyStream?
    /// The file holding the body, for requests whose destination is a file.
    public var bodyFile: URL?
    /// The URL the response came from.
    public var url: URL?
    /// The HTTP version the response came over.
    public var httpVersion: HTTPVersion
    /// How the exchange went on the wire: phases, bytes, connection reuse. `nil` when the
    /// response did not come from a transport that measures.
    public var metrics: TransferMetrics? {
        get { metricsBox?.value }
        set { metricsBox = newValue.map(Box.init) }
    }
    /// The metrics behind a reference, so that a response, copied through every stage's async
    /// frame, stays small.
    private var metricsBox: Box<TransferMetrics>?
    /// What only some stages write or read: ``decoded``, ``cacheOutcome`` and a stage's own
    /// values, kept off the response's fields so that it stays small.
    public var stageValues = StageValues()

    /// The reason phrase of the status line as the server sent it (`Not Found`), when the
    /// transport recorded one (``TransferMetrics/reasonPhrase``).
    public var reasonPhrase: String? { metrics?.reasonPhrase }

    /// Creates a response.
    public init(
        status: Int,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        bodyFile: URL? = nil,
        url: URL? = nil,
        httpVersion: HTTPVersion = .unknown,
        metrics: TransferMetrics? = nil,
        decoded: DecodedBody? = nil,
        bodyStream: ResponseBodyStream? = nil
    ) {
        self.bodyStream = bodyStream
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyFile = bodyFile
        self.url = url
        self.httpVersion = httpVersion
        self.metrics = metrics
        if let decoded { self.decoded = decoded }
    }
}

extension Response {
    /// Decodes the body into any `Decodable` type: as a property list when response decoding read
    /// one, as JSON otherwise.
    /// - Throws: `SluiceError` of kind `.decoding`, with this response attached.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws(SluiceError) -> T {
        do {
            if case .propertyList = decoded {
                return try PropertyListDecoder().decode(type, from: body)
            }
            return try decoder.decode(type, from: body)
        } catch {
            throw SluiceError(
                kind: .decoding, url: url, message: "the body does not decode as \(type): \(error)",
                underlying: error, response: self
            )
        }
    }
}
