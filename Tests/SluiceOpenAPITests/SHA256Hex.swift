import Crypto
import Foundation

/// The SHA-256 of a file's bytes as `sha256sum` prints it.
enum SHA256Hex {
    static func of(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
