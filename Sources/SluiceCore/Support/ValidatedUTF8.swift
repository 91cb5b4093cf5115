extension String {
    /// `bytes` as a string when they are valid UTF-8, `nil` when they are not: what the standard
    /// library's `String(validating:as:)` gives, without its generic path, which looks up the
    /// encoding's witnesses on every call (a third of the time the chain spent reading a small
    /// JSON body).
    ///
    /// Decoding repairs what is not valid UTF-8, and a repair changes the bytes, so the bytes are
    /// valid exactly when the decoded text holds them unchanged.
    package init?(validatingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.allSatisfy({ $0 < 0x80 }) || text.utf8.elementsEqual(bytes) else { return nil }
        self = text
    }
}
