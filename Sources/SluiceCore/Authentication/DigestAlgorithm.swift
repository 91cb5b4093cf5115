internal import COpenSSL

/// A Digest authentication algorithm (RFC 7616 section 3.3 and its IANA registry): the hash,
/// and whether it is a `-sess` variant, whose A1 also covers the nonces.
struct DigestAlgorithm: Sendable, Hashable {
    /// The hash functions RFC 7616 registers.
    enum Hash: String, Sendable, CaseIterable {
        case md5 = "MD5"
        case sha256 = "SHA-256"
        case sha512_256 = "SHA-512-256"

        /// OpenSSL's name for it.
        var openSSLName: String {
            switch self {
            case .md5: "MD5"
            case .sha256: "SHA256"
            case .sha512_256: "SHA512-256"
            }
        }

        /// The digest of `bytes` in lowercase hexadecimal, as Digest writes every hash.
        func hex(_ bytes: some Collection<UInt8>) -> String {
            var digest = [UInt8](repeating: 0, count: 64)
            let input = Array(bytes)
            let length = input.withUnsafeBytes { input in
                digest.withUnsafeMutableBufferPointer { sluice_message_digest(openSSLName, input.baseAddress, input.count, $0.baseAddress) }
            }
            // The three are in OpenSSL's default provider; a build without one is a broken install.
            precondition(length > 0, "OpenSSL has no \(openSSLName) digest")
            return HexText.lowercase(digest.prefix(Int(length)))
        }

        /// The digest of a string's UTF-8 bytes, in hexadecimal.
        func hex(_ text: String) -> String {
            hex(text.utf8)
        }
    }

    /// The hash function.
    var hash: Hash
    /// Whether A1 is `H(user:realm:password):nonce:cnonce` (the `-sess` variants).
    var isSession: Bool

    /// The algorithm a challenge's `algorithm` parameter names (any ASCII case; absent is MD5,
    /// RFC 7616 section 3.3), or `nil` for one Sluice does not know.
    init?(token: String?) {
        guard var name = token?.asciiLowercased else {
            self.init(hash: .md5, isSession: false)
            return
        }
        let session = name.hasSuffix("-sess")
        if session { name.removeLast(5) }
        guard let hash = Hash.allCases.first(where: { $0.rawValue.asciiLowercased == name }) else { return nil }
        self.init(hash: hash, isSession: session)
    }

    init(hash: Hash, isSession: Bool) {
        self.hash = hash
        self.isSession = isSession
    }
}
