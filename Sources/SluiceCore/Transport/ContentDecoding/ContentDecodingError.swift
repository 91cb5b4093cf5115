import Foundation

/// Why a response body could not be decoded: what its coding's library said.
package struct ContentDecodingError: Error, Sendable {
    /// The coding whose bytes were wrong.
    var coding: ContentCoding
    /// What was wrong, in words.
    var reason: String
}

extension SluiceError {
    /// A body whose content coding could not be undone: damaged, cut short, or beyond the limits
    /// the decoder keeps. A protocol error that keeps the decoder's error as `underlying`.
    package static func undecodableBody(_ error: ContentDecodingError, url: URL?) -> SluiceError {
        SluiceError(
            kind: .protocolError,
            stage: "transport",
            url: url,
            message: "the response body could not be decoded from its \(error.coding.token) content coding: \(error.reason)",
            underlying: error
        )
    }
}
