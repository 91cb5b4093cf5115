internal import COpenSSL

/// SHA-256 (FIPS 180-4) through OpenSSL.
enum SHA256 {
    /// The 32-byte digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { sluice_sha256(input.baseAddress, input.count, $0.baseAddress) }
        }
        return digest
    }

    /// The digest of `bytes` in lowercase hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        HexText.lowercase(digest(bytes))
    }
}
