public import Foundation
public import HTTPTypes
public import SluiceCore

extension HTTPResponse {
    /// The status and header fields of a Sluice response (its body travels apart).
    /// - Throws: `.protocolError` for a status outside 100...999, or a field the conversion would
    ///   alter (see `HTTPFields.init(_:)`).
    public init(_ response: Response) throws(SluiceError) {
        guard (100...999).contains(response.status) else {
            throw SluiceError(kind: .protocolError, url: response.url, message: "status \(response.status) is not a three-digit HTTP status")
        }
        self.init(status: HTTPResponse.Status(code: response.status), headerFields: try HTTPFields(response.headers))
    }
}

extension Response {
    /// A Sluice response from a swift-http-types response, with its body in memory.
    public init(_ response: HTTPResponse, body: Data = Data(), url: URL? = nil) {
        self.init(status: response.status.code, headers: HTTPHeaders(response.headerFields), body: body, url: url)
    }
}
