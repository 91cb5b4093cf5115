/// Bytes written as lowercase hexadecimal, two digits each: how digests and nonces are written.
enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hexadecimal.
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
