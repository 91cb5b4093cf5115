import Foundation
import Testing
@testable import SluiceRunner

/// `--only` globs, held to glibc's `fnmatch(3)` on ASCII (where the C locale's bytes are
/// characters) and matched by code point beyond it, as `fnmatch` matches in a UTF-8 locale.
@Suite("--only globs: fnmatch's rules, by code point")
struct GlobPatternTests {
    static let names = ["", "a", "ab", "abc", "abd", "b", "fetch [b]", "x-1", "x-10", "a*b", "a?b", "[a]", "!x", "a\\b", "]", "-"]
    static let patterns = [
        "*", "?", "a*", "*b", "a?", "a?c", "a[bc]", "a[b-d]*", "a[!b]*", "a[^b]*", "[]]", "[!]]", "[a-]", "[-a]", "x-?", "x-*",
        "a\\*b", "a\\?b", "\\[a]", "[[]a]", "[", "a[", "*[", "**", "*?*", "a*b*c", "fetch [[]b]", "fetch ?b?", "[!a-c]", "!x", "a\\\\b",
    ]

    @Test("on ASCII, every pattern matches every name exactly when glibc's fnmatch says so")
    func asciiAsFnmatch() {
        for pattern in Self.patterns {
            for name in Self.names {
                #expect(GlobPattern.matches(pattern, name) == (fnmatch(pattern, name, 0) == 0), "'\(pattern)' against '\(name)'")
            }
        }
    }

    @Test("beyond ASCII, ? and [...] take one code point, never a byte nor a grapheme")
    func codePoints() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(GlobPattern.matches("caf?", composed) && !GlobPattern.matches("caf??", composed))
        #expect(GlobPattern.matches("caf??", decomposed) && !GlobPattern.matches("caf?", decomposed))
        #expect(GlobPattern.matches("caf[\u{E9}]", composed) && !GlobPattern.matches("caf[\u{E9}]", decomposed))
        #expect(GlobPattern.matches("Stra?e", "Stra\u{DF}e") && GlobPattern.matches("K-?", "K-\u{212A}") && !GlobPattern.matches("K-K", "K-\u{212A}"))
        #expect(GlobPattern.matches("[\u{E0}-\u{FF}]*", composed.dropFirst(3) + "x"))
        #expect(RequestSelection.matches("caf?", composed) && !RequestSelection.matches("caf?", decomposed))
    }
}
