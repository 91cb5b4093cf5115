import Foundation

/// Base64url without padding (RFC 4648 section 5, as RFC 7515 writes it).
package enum Base64URL {
    /// `data` in base64url, unpadded.
    package static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingCodePoints(of: "+", with: "-").replacingCodePoints(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
