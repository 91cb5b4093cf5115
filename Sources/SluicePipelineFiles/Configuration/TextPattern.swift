import CPCRE2

/// A regular expression of a pipeline file: `matches`, a header's `/regex/`, the `regex` query
/// and filter, `replace` with a `/regex/`. Hurl's are Rust's `regex` crate's; these are PCRE2's,
/// whose syntax is a superset of it for what pipelines write, read the same way:
///
/// - **Code point by code point.** `.` is one code point, `[é]` matches U+00E9 and not `e` and
///   U+0301, and `\r\n` is two: never Swift's grapheme clusters and canonical equivalence, which
///   would let `/^café$/` match a decomposed `café` and keep `split` from cutting `\r\n` text at
///   `\n`. `\d`, `\w`, `\s` and `\b` are Unicode's (PCRE2_UCP), as Rust's are.
/// - **`$` is the end of the text** (PCRE2_DOLLAR_ENDONLY), not also before a last newline, as
///   Rust's `$`; `(?m)` makes it the end of a line.
/// - **Bounded work.** A backtracking match of a pattern such as `(a|a)*b` on a hostile body
///   would take longer than the universe's age; each match stops after ``maximumSteps`` steps
///   of the matcher and fails with ``LimitExceeded``, which the check reports, where Rust's
///   engine is linear by design.
public final class TextPattern: @unchecked Sendable {
    // Unchecked: the compiled code is never changed after `init`, and PCRE2 matches one code
    // from several threads at once, each match with match data of its own.
    private let code: OpaquePointer
    /// The pattern as written.
    public let pattern: String

    /// The most steps of PCRE2's matcher (its match limit) one match may take: far more than an
    /// ordinary pattern needs on a large body, a few milliseconds of work.
    public static let maximumSteps: UInt32 = 1_000_000

    /// Why a pattern is not a regular expression.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// PCRE2's words.
        public var message: String
        /// Where, in code points from 0.
        public var offset: Int

        /// `MESSAGE, at character N`.
        public var description: String { "\(message), at character \(offset + 1)" }
    }

    /// A match that was stopped after ``maximumSteps`` steps.
    public struct LimitExceeded: Error, Sendable, CustomStringConvertible {
        /// The pattern.
        public var pattern: String

        /// What happened, and what to write instead.
        public var description: String {
            "/\(pattern)/ took more than \(TextPattern.maximumSteps) steps on this text without an answer, and was stopped: "
                + "a repetition of a repetition, such as (a|a)* or (a+)+, can take that long on text that almost matches; write it with one"
        }
    }

    /// One match: the text of the whole match and of each group, `nil` for a group that took
    /// no part in it.
    public struct Match: Sendable {
        /// The whole match, then each group in order.
        public var groups: [String?]
        /// Where the match starts and ends, in UTF-8 bytes of the text.
        let bytes: Range<Int>
    }

    /// Compiles `pattern`.
    /// - Throws: ``SyntaxError`` with PCRE2's message and the place.
    public init(_ pattern: String) throws(SyntaxError) {
        var errorCode: Int32 = 0
        var errorOffset = 0
        // `\u00E9`, `\u{E9}`, `\x{E9}` and `\xE9` name a code point, as in Rust's syntax and
        // Swift's (PCRE2_ALT_BSUX with its extra option).
        let options = UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX)
        let context = pcre2_compile_context_create_8(nil)
        defer { pcre2_compile_context_free_8(context) }
        pcre2_set_compile_extra_options_8(context, UInt32(PCRE2_EXTRA_ALT_BSUX))
        let bytes = TextPattern.bracedHexEscapes(in: Array(pattern.utf8))
        let compiled = bytes.withUnsafeBufferPointer { bytes in
            pcre2_compile_8(bytes.baseAddress, bytes.count, options, &errorCode, &errorOffset, context)
        }
        guard let compiled else {
            // The offset is in bytes; the message counts characters as the user does.
            let offset = String(decoding: pattern.utf8.prefix(errorOffset), as: UTF8.self).unicodeScalars.count
            throw SyntaxError(message: TextPattern.message(for: errorCode), offset: offset)
        }
        code = compiled
        self.pattern = pattern
    }

    deinit {
        pcre2_code_free_8(code)
    }

    /// The first match in `text`, `nil` when there is none.
    /// - Throws: ``LimitExceeded`` for a match stopped after ``maximumSteps`` steps.
    public func firstMatch(in text: String) throws(LimitExceeded) -> Match? {
        try matches(in: text, all: false).first
    }

    /// Every match in `text`, left to right, none overlapping; after an empty match the next is
    /// looked for one code point further, as Rust's and Perl's global matches go.
    /// - Throws: ``LimitExceeded`` for a match stopped after ``maximumSteps`` steps.
    public func allMatches(in text: String) throws(LimitExceeded) -> [Match] {
        try matches(in: text, all: true)
    }

    /// `text` with every match replaced by what `replacement` makes of it.
    /// - Throws: ``LimitExceeded`` for a match stopped after ``maximumSteps`` steps.
    public func replacingMatches(in text: String, with replacement: (Match) -> String) throws(LimitExceeded) -> String {
        let bytes = Array(text.utf8)
        var result = ""
        var copied = 0
        for match in try matches(in: text, all: true) {
            result += String(decoding: bytes[copied..<match.bytes.lowerBound], as: UTF8.self)
            result += replacement(match)
            copied = match.bytes.upperBound
        }
        return result + String(decoding: bytes[copied...], as: UTF8.self)
    }

    private func matches(in text: String, all: Bool) throws(LimitExceeded) -> [Match] {
        let bytes = Array(text.utf8)
        guard let context = pcre2_match_context_create_8(nil) else { return [] }
        defer { pcre2_match_context_free_8(context) }
        pcre2_set_match_limit_8(context, TextPattern.maximumSteps)
        guard let data = pcre2_match_data_create_from_pattern_8(code, nil) else { return [] }
        defer { pcre2_match_data_free_8(data) }
        var found: [Match] = []
        var start = 0
        while start <= bytes.count {
            let result = bytes.withUnsafeBufferPointer { buffer in
                // A Swift string is valid UTF-8: PCRE2 need not check it again at every start.
                pcre2_match_8(code, buffer.baseAddress, buffer.count, start, UInt32(PCRE2_NO_UTF_CHECK), data, context)
            }
            if result == PCRE2_ERROR_NOMATCH { break }
            guard result > 0 else { throw LimitExceeded(pattern: pattern) }
            let vector = pcre2_get_ovector_pointer_8(data)!
            let count = Int(pcre2_get_ovector_count_8(data))
            var groups: [String?] = []
            for index in 0..<count {
                let (from, to) = (vector[2 * index], vector[2 * index + 1])
                // PCRE2_UNSET, all bits set, for a group that took no part.
                groups.append(from == Int(bitPattern: UInt.max) ? nil : String(decoding: bytes[from..<to], as: UTF8.self))
            }
            let range = vector[0]..<vector[1]
            found.append(Match(groups: groups, bytes: range))
            guard all else { break }
            if range.isEmpty {
                // One code point on: past its lead byte and its continuation bytes.
                start = range.upperBound + 1
                while start < bytes.count, bytes[start] & 0xC0 == 0x80 { start += 1 }
            } else {
                start = range.upperBound
            }
        }
        return found
    }

    /// The pattern with each `\x{HEX}` written `\u{HEX}`, which PCRE2 reads under PCRE2_ALT_BSUX
    /// (where `\x{` is not an escape); every other escape, and a `\Q...\E` span, as it is. The
    /// offsets of errors stay right: both spellings are as long.
    private static func bracedHexEscapes(in pattern: [UInt8]) -> [UInt8] {
        var result = pattern
        var index = 0
        var quoted = false
        while index + 1 < result.count {
            guard result[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            let next = result[index + 1]
            if quoted {
                if next == UInt8(ascii: "E") { quoted = false }
            } else if next == UInt8(ascii: "Q") {
                quoted = true
            } else if next == UInt8(ascii: "x"), index + 2 < result.count, result[index + 2] == UInt8(ascii: "{") {
                result[index + 1] = UInt8(ascii: "u")
            }
            index += 2
        }
        return result
    }

    /// PCRE2's words for an error code.
    private static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer.prefix(Int(length)), as: UTF8.self) : "error \(code)"
    }
}
