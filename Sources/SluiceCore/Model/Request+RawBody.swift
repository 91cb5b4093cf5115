import Foundation

extension Request {
    private enum KeepsRawBody: StageValueKey { typealias Value = Bool }

    /// Whether the response's body is also kept as it came over the wire, before its content
    /// codings (`gzip`, `br`, `zstd`, `deflate`) are undone: ``Response/rawBody``, what Hurl's
    /// `rawbytes` query reads. Off by default: a compressed body is then held once.
    ///
    /// ```swift
    /// var request = Request("https://example.test/archive.json")
    /// request.keepsRawBody = true
    /// ```
    public var keepsRawBody: Bool {
        get { stageValues[KeepsRawBody.self] ?? false }
        set { stageValues[KeepsRawBody.self] = newValue ? true : nil }
    }
}

extension Response {
    private enum RawBody: StageValueKey { typealias Value = Data }

    /// The body as it came over the wire, its content codings not undone, when the request asked
    /// for it (``Request/keepsRawBody``) and the transport kept it; `nil` otherwise. Without a
    /// content coding it is ``body``.
    public var rawBody: Data? {
        get { stageValues[RawBody.self] }
        set { stageValues[RawBody.self] = newValue }
    }
}
