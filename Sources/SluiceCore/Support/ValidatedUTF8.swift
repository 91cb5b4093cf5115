import Foundation

extension String {
    /// `bytes` as a string when they are valid UTF-8, `nil` when they are not: what the standard
    /// library's `String(validating:as:)` gives, without its generic path, which looks up the
    /// encoding's witnesses on every call (a third of the time the chain spent reading a small
    /// JSON body).
    ///
    /// Decoding repairs what is not valid UTF-8, and a repair changes the bytes (a replacement
    /// character where the bad ones were, of the same length at times), so the bytes are valid
    /// exactly when the decoded text holds them unchanged: compared with `memcmp`, as fast for a
    /// large body as the copy decoding made.
    package init?(validatingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        var text = String(decoding: bytes, as: UTF8.self)
        let unchanged = text.withUTF8 { decoded in
            decoded.count == bytes.count && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        guard unchanged else { return nil }
        self = text
    }
}
