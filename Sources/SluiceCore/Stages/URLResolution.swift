import Foundation

/// Resolves each request's URL against a base URL, after filling its `{name}` path templates.
///
/// - The base must be an absolute `http` or `https` URL with a host. As in AFNetworking, a base
///   whose path is not empty and does not end in `/` gets one, so `https://h/v1` and
///   `https://h/v1/` behave the same.
/// - The request's URL is a reference resolved exactly as RFC 3986 section 5.2 says: `users`
///   gives `https://h/v1/users`, `/users` gives `https://h/users`, a query is kept, dot segments
///   are removed, and an absolute URL replaces the base.
/// - `{name}` in the reference's path is replaced by `request.pathParameters[name]`,
///   percent-encoded as one path segment (`/` becomes `%2F`; a value of `.` or `..` is encoded
///   whole, so it cannot climb the path). A template without a value, or a value no template
///   uses, is an `.invalidRequest` error. In a request made from a string, only braces written
///   as `{` and `}` make a template: `%7Bid%7D` written so is sent as written. (A `URL` made
///   elsewhere holds `{` as `%7B`, so there both are templates.)
///
/// ```swift
/// let resolution = try URLResolution(baseURL: "https://api.example.com/v1")
/// // Request("users/{id}", pathParameters: ["id": "42"]) → https://api.example.com/v1/users/42
/// ```
public struct URLResolution: SynchronousRequestStage {
    /// The base URL, its path ending in `/` when it has one.
    public let baseURL: URL
    private let base: URIReference
    /// The base's authority as ``URLText`` checked and wrote it: what every reference without an
    /// authority of its own resolves to, so it is not checked again for each.
    private let checkedAuthority: String?
    /// The references without templates resolved so far, by their text compared code point by
    /// code point: a pipeline sends the same few paths again and again, and resolving one (two
    /// parses and Foundation's URL parser) costs microseconds where a lookup costs a hash.
    private let resolved = RecentTexts<URL>(limit: rememberedReferences)
    /// The most references remembered; past it the memory starts over.
    static let rememberedReferences = 256

    /// `url-resolution`.
    public var name: String { "url-resolution" }

    /// Its place in the chain (see ``StagePlacement``).
    public static var placement: StagePlacement { .urlResolution }

    /// URL resolution.
    public var claims: [String] { ["URL resolution"] }

    /// Creates the stage.
    /// - Throws: `.invalidRequest` when `baseURL` is not an absolute `http` or `https` URL with a host.
    public init(baseURL: URL) throws(SluiceError) {
        let text = baseURL.baseURL == nil ? baseURL.relativeString : baseURL.absoluteString
        var base = URIReference(parsing: text)
        let scheme = base.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let authority = base.authority, !authority.isEmpty, baseURL.host?.isEmpty == false else {
            throw SluiceError(
                kind: .invalidRequest, stage: "url-resolution", url: baseURL,
                message: "the base URL \(text) is not an absolute http or https URL with a host"
            )
        }
        if !base.path.isEmpty && !base.path.hasSuffix("/") { base.path += "/" }
        base.fragment = nil
        guard let normalized = URLText.url(base.description) else {
            throw SluiceError(kind: .invalidRequest, stage: "url-resolution", url: baseURL, message: "the base URL \(text) is not a valid URL")
        }
        self.base = base
        self.baseURL = normalized
        checkedAuthority = URIReference(parsing: normalized.absoluteString).authority
    }

    /// Creates the stage from a URL string.
    /// - Throws: `.invalidRequest` when `baseURL` is not an absolute `http` or `https` URL with a host.
    public init(baseURL: String) throws(SluiceError) {
        guard let url = URLText.url(baseURL) else {
            throw SluiceError(kind: .invalidRequest, stage: "url-resolution", message: "the base URL \(baseURL) is not a valid URL")
        }
        try self.init(baseURL: url)
    }

    /// Fills the templates of the request's URL and resolves it against the base.
    public func prepare(_ request: Request, context: TaskContext) throws -> Request {
        var request = request
        // The empty reference is the base itself (RFC 3986 section 5.2.2).
        if request.isEmptyReference {
            request.url = baseURL
        } else if let written = request.writtenURL {
            // Read again from the string it was made from: there only a `{` written as one opens a
            // template, and the dot segments are there to keep.
            request.url = try resolve(
                written, pathParameters: request.pathParameters, reference: request.url,
                keepingDotSegments: request.sendsPathAsIs, escapedBracesAreTemplates: false
            )
        } else if request.sendsPathAsIs {
            let reference = request.url
            request.url = try resolve(reference.baseURL == nil ? reference.relativeString : reference.absoluteString, pathParameters: request.pathParameters, reference: reference, keepingDotSegments: true)
        } else {
            request.url = try resolve(request.url, pathParameters: request.pathParameters)
        }
        request.pathParameters = [:]
        return request
    }

    /// `reference` with its templates filled, resolved against the base.
    /// - Throws: `.invalidRequest` for a template without a value, a value without a template,
    ///   or a result that is not a valid URL.
    public func resolve(_ reference: URL, pathParameters: [String: String] = [:]) throws(SluiceError) -> URL {
        let text = reference.baseURL == nil ? reference.relativeString : reference.absoluteString
        guard pathParameters.isEmpty else { return try resolve(text, pathParameters: pathParameters, reference: reference) }
        let key = CodePointKey(text)
        if let url = resolved.value(for: key) { return url }
        let url = try resolve(text, pathParameters: [:], reference: reference)
        resolved.remember(url, for: key)
        return url
    }

    /// `text` resolved; a `%7B` and `%7D` in it open and close a template when
    /// `escapedBracesAreTemplates` (text a `URL` made, where they stand for the braces it escaped).
    private func resolve(
        _ text: String, pathParameters: [String: String], reference: URL, keepingDotSegments: Bool = false, escapedBracesAreTemplates: Bool = true
    ) throws(SluiceError) -> URL {
        var parsed = URIReference(parsing: text)
        parsed.path = try PathTemplate.fill(parsed.path, with: pathParameters, url: reference, escapedBracesAreTemplates: escapedBracesAreTemplates)
        var resolved = parsed.resolved(against: base, keepingDotSegments: keepingDotSegments)
        let takesBaseAuthority = parsed.scheme == nil && parsed.authority == nil && checkedAuthority != nil
        if takesBaseAuthority { resolved.authority = checkedAuthority }
        guard let url = URLText.url(resolved, authorityChecked: takesBaseAuthority, keepingDotSegments: keepingDotSegments) else {
            throw SluiceError(kind: .invalidRequest, stage: name, url: reference, message: "\(text) resolves to \(resolved), which is not a valid URL")
        }
        return url
    }
}

extension Request {
    private enum PathParameters: StageValueKey { typealias Value = [String: String] }

    /// Values for the `{name}` templates of a relative `url`, filled in by ``URLResolution``.
    public var pathParameters: [String: String] {
        get { stageValues[PathParameters.self] ?? [:] }
        set { stageValues[PathParameters.self] = newValue.isEmpty ? nil : newValue }
    }
}
