import Foundation
public import HTTPTypes
public import SluiceCore

extension HTTPRequest {
    /// The method, URL and header fields of a Sluice request (its body travels apart).
    /// - Throws: `.invalidRequest` for a method that is not a token, a relative URL, or a field
    ///   the conversion would alter (see `HTTPFields.init(_:)`).
    public init(_ request: Request) throws(SluiceError) {
        guard let method = HTTPRequest.Method(request.method.rawValue) else {
            throw SluiceError(kind: .invalidRequest, url: request.url, message: "method '\(request.method)' is not an HTTP token")
        }
        guard request.url.scheme != nil, request.url.host != nil else {
            throw SluiceError(kind: .invalidRequest, url: request.url, message: "an HTTPRequest needs an absolute URL; resolve \(request.url.absoluteString) first")
        }
        self.init(method: method, url: request.url, headerFields: try HTTPFields(request.headers))
    }
}

extension Request {
    /// A Sluice request from a swift-http-types request and a body.
    /// - Throws: `.invalidRequest` when the request has no URL (no scheme, authority or path).
    public init(_ request: HTTPRequest, body: RequestBody = .none) throws(SluiceError) {
        guard let url = request.url else {
            throw SluiceError(kind: .invalidRequest, message: "the HTTPRequest has no URL: it lacks a scheme, an authority or a path")
        }
        self.init(method: HTTPMethod(request.method.rawValue), url: url, headers: HTTPHeaders(request.headerFields), body: body)
    }
}
