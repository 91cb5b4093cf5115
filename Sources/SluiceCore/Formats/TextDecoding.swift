import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Bytes to text in a charset named by `Content-Type` or by a check's `decode` filter: UTF-8 by
/// Swift's own validation, every other charset by the C library's iconv, which knows its names
/// and aliases (`gb2312`, `cp1256`, `windows-1252`, `shift_jis`, ...).
public enum TextDecoding {
    /// The text of `data` in `charset` (UTF-8 when `nil`).
    /// - Throws: the error `failure` makes of a message, for a charset iconv does not know or
    ///   bytes that are not valid in it.
    public static func string<E: Error>(from data: Data, charset: String?, failure: (String) -> E) throws(E) -> String {
        let name = (charset ?? "utf-8").lowercased()
        if name == "utf-8" || name == "utf8" {
            guard let text = data.withUnsafeBytes({ String(validatingUTF8: $0.bindMemory(to: UInt8.self)) }) else {
                throw failure("the body is not valid UTF-8")
            }
            return text
        }
        switch iconvToUTF8(data, from: name) {
        case .success(let text): return text
        case .failure(.unknownCharset): throw failure("the charset \(name) is not one the system's iconv knows")
        case .failure(.invalidBytes(let offset)): throw failure("the body is not valid \(name) (at byte \(offset))")
        }
    }

    private enum ConversionFailure: Error {
        case unknownCharset
        case invalidBytes(offset: Int)
    }

    /// `data` converted from `charset` to UTF-8 by iconv, all at once.
    private static func iconvToUTF8(_ data: Data, from charset: String) -> Result<String, ConversionFailure> {
        let converter = iconv_open("UTF-8", charset)
        guard converter != iconv_t(bitPattern: -1) else { return .failure(.unknownCharset) }
        defer { iconv_close(converter) }
        var input = [CChar](repeating: 0, count: data.count)
        input.withUnsafeMutableBytes { _ = data.copyBytes(to: $0) }
        // UTF-8 takes at most 4 bytes for each input byte (a one-byte charset's code points are
        // all below U+10000, and multi-byte ones use more input bytes per character).
        var output = [UInt8](repeating: 0, count: data.count * 4 + 4)
        let total = input.count
        let (left, produced): (Int, Int) = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer = UnsafeMutableRawPointer(outBuffer.baseAddress).map { $0.assumingMemoryBound(to: CChar.self) }
                var outLeft = outBuffer.count
                let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                if result != -1 {
                    // Flush any shift state (ISO-2022-JP's return to ASCII).
                    _ = iconv(converter, nil, nil, &outPointer, &outLeft)
                }
                return (result == -1 ? inLeft : 0, outBuffer.count - outLeft)
            }
        }
        guard left == 0 else { return .failure(.invalidBytes(offset: total - left)) }
        return .success(String(decoding: output[..<produced], as: UTF8.self))
    }
}
