extension Request {
    private enum OwnResponseDecoding: StageValueKey { typealias Value = ResponseDecoding }

    /// The request's own acceptance and decoding, used instead of the pipeline's
    /// ``ResponseDecoding`` stage for this request, or on its own where the pipeline has none, as
    /// Alamofire's per-request `validate()` and `serializingDecodable(_:)`: a JSON pipeline can
    /// download a file or stream bytes without a second manager. `nil` (the default) leaves the
    /// pipeline's.
    ///
    /// ```swift
    /// var image = Request("image/png")
    /// image.responseDecoding = .passThrough
    /// let response = try await manager.download(image, to: destination)
    /// ```
    public var responseDecoding: ResponseDecoding? {
        get { stageValues[OwnResponseDecoding.self] }
        set { stageValues[OwnResponseDecoding.self] = newValue }
    }
}
