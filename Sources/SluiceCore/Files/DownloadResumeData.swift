import Foundation

/// What a cut download needs to go on where it stopped, as AFNetworking's and Alamofire's resume
/// data and curl's `-C -`: the URL, the bytes already kept (in ``partialFile``, beside the
/// destination, which stays as it was), and the validator that proves the resource has not
/// changed since.
///
/// A resumable download (``SessionManager/download(_:to:resumable:)``) that fails or is cancelled
/// after its body began carries it in ``SluiceError/resumeData``;
/// ``SessionManager/download(resumingFrom:request:)`` goes on from it with `Range` and `If-Range`.
/// It is `Codable`, so it can be kept across runs.
///
/// ```swift
/// do {
///     _ = try await manager.download(request, to: file, resumable: true)
/// } catch let error as SluiceError {
///     guard let resumeData = error.resumeData else { throw error }
///     _ = try await manager.download(resumingFrom: resumeData)
/// }
/// ```
public struct DownloadResumeData: Sendable, Hashable, Codable {
    /// The URL the body came from (the final one, after redirects).
    public var url: URL
    /// Where the whole body goes once it is complete.
    public var destination: URL
    /// The file that holds the first ``offset`` bytes.
    public var partialFile: URL
    /// How many bytes of the body the partial file holds.
    public var offset: Int64
    /// The response's `ETag`, when it had one.
    public var entityTag: String?
    /// The response's `Last-Modified`, when it had one.
    public var lastModified: String?

    /// Creates resume data.
    public init(url: URL, destination: URL, partialFile: URL, offset: Int64, entityTag: String? = nil, lastModified: String? = nil) {
        self.url = url
        self.destination = destination
        self.partialFile = partialFile
        self.offset = offset
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// The `If-Range` value (RFC 9110 section 13.1.5): the entity tag when it is strong, else
    /// `Last-Modified`; `nil` when the response had neither (a weak entity tag may not be used).
    /// Without one the range is asked for unconditionally, as curl's `-C` does.
    public var ifRangeValidator: String? {
        if let entityTag, !entityTag.hasPrefix("W/") { return entityTag }
        return lastModified
    }

    /// The request that goes on from here: a `GET` of ``url`` with `Range: bytes=OFFSET-`,
    /// ``ifRangeValidator`` as `If-Range` and no content coding (a range counts the bytes as
    /// sent), downloaded to ``destination`` through ``partialFile`` (``Request/resumingFrom``),
    /// keeping its bytes again if it is cut (``Request/keepsPartialDownload``).
    public var request: Request {
        request(from: Request(url: url))
    }

    /// ``request`` made from `template` (its headers, trust policy, proxy and timeouts kept):
    /// its URL, method, range headers and destination set as ``request`` sets them.
    public func request(from template: Request) -> Request {
        var request = template
        request.url = url
        request.method = .get
        request.body = .none
        request.headers["Range"] = "bytes=\(offset)-"
        if let validator = ifRangeValidator { request.headers["If-Range"] = validator }
        request.headers["Accept-Encoding"] = "identity"
        request.destination = .file(destination)
        request.resumingFrom = self
        request.keepsPartialDownload = true
        return request
    }
}

extension Request {
    private enum KeepsPartialDownload: StageValueKey { typealias Value = Bool }

    /// Whether a download through a ``SessionManager`` that fails or is cancelled once its body
    /// began keeps its bytes (its staging file, beside the destination) for
    /// ``SessionManager/download(resumingFrom:request:)``, named in the error's
    /// ``SluiceError/resumeData``. Off by default: a cut download then leaves nothing behind.
    /// ``SessionManager/download(_:to:resumable:)`` sets it; a resumed download always keeps.
    public var keepsPartialDownload: Bool {
        get { stageValues[KeepsPartialDownload.self] ?? false }
        set { stageValues[KeepsPartialDownload.self] = newValue ? true : nil }
    }
    private enum ResumingFrom: StageValueKey { typealias Value = DownloadResumeData }

    /// The download this request goes on with (``DownloadResumeData/request`` sets it): the
    /// session manager writes the body through its partial file instead of a new staging file,
    /// appending a `206` that starts where the kept bytes end.
    public var resumingFrom: DownloadResumeData? {
        get { stageValues[ResumingFrom.self] }
        set { stageValues[ResumingFrom.self] = newValue }
    }
}
