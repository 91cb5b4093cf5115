import Testing
@testable import SluiceCore
@testable import SluiceJSONPath

@Suite("I-Regexp (RFC 9485)")
struct IRegexpTests {
    /// (pattern, text, whole text matches, some part matches)
    static let matching: [(String, String, Bool, Bool)] = [
        ("abc", "abc", true, true),
        ("abc", "xabcx", false, true),
        ("", "", true, true),
        ("", "x", false, true),
        ("a|b|", "", true, true),
        ("a*", "aaaa", true, true),
        ("a+", "", false, false),
        ("colou?r", "color", true, true),
        ("a{3}", "aaa", true, true),
        ("a{3}", "aa", false, false),
        ("a{2,}", "aaaaa", true, true),
        ("a{2,3}", "aaaa", false, true),
        ("(ab|cd){2}", "abcd", true, true),
        ("(a|ab)(c|bcd)(d*)", "abcd", true, true),
        // `.` is any code point but LF and CR: U+2028 and astral code points included.
        (".", "\u{2028}", true, true),
        (".", "\n", false, false),
        (".", "\r", false, false),
        ("a.b", "a\u{10101}b", true, true),
        ("a.b", "a\u{1F600}b", true, true),
        // A code point, not a grapheme: e + combining acute is two.
        ("e.", "e\u{301}", true, true),
        (".", "e\u{301}", false, true),
        ("\u{E9}", "e\u{301}", false, false),
        // Escapes.
        ("a\\.c", "a.c", true, true),
        ("a\\.c", "abc", false, false),
        ("\\n\\r\\t", "\n\r\t", true, true),
        ("\\(\\)\\*\\+\\-\\?\\[\\\\\\]\\^\\{\\|\\}", "()*+-?[\\]^{|}", true, true),
        // Bracket expressions.
        ("[a-c]+", "abcabc", true, true),
        ("[^a-c]", "d", true, true),
        ("[^a-c]", "b", false, false),
        ("[a-]", "-", true, true),
        ("[-a]", "-", true, true),
        ("[.]", ".", true, true),
        ("[.]", "x", false, false),
        ("[\\]]", "]", true, true),
        ("[^\\n]", "\u{2028}", true, true),
        // Categories.
        ("\\p{Lu}", "Ж", true, true),
        ("\\p{Lu}", "ж", false, false),
        ("\\P{Lu}", "ж", true, true),
        ("\\p{L}+", "Straße", true, true),
        ("\\p{Nd}+", "٣42", true, true),
        ("\\p{N}", "Ⅻ", true, true),
        ("\\p{Zs}", " ", true, true),
        ("\\p{Zl}", "\u{2028}", true, true),
        ("\\p{Cc}", "\u{7}", true, true),
        ("\\p{Co}", "\u{E000}", true, true),
        ("\\p{Sc}", "€", true, true),
        ("[\\P{L}]", "1", true, true),
        ("[\\P{L}\\P{N}]", "a", true, true),
        ("[^\\P{L}]", "a", true, true),
        ("[^\\P{L}]", "1", false, false),
        // `^` and `$` assert the ends of the text, as the ECMAScript mapping gives them.
        ("^ab.*", "abc", true, true),
        ("^ab", "xab", false, false),
        (".*bc$", "abcx", false, false),
        ("bc$", "abc", false, true),
        ("a^b", "a^b", false, false),
        ("a\\^b", "a^b", true, true),
        ("[$^]", "^", true, true),
    ]

    @Test("matching, whole text (match) and anywhere (search)", arguments: matching)
    func matches(pattern: String, text: String, whole: Bool, part: Bool) throws {
        let regex = try IRegexp(pattern)
        #expect(regex.matches(text) == whole)
        #expect(regex.isFound(in: text) == part)
    }

    /// (pattern, message, offset): what I-Regexp does not allow, refused where it is.
    static let invalid: [(String, String, Int)] = [
        ("\\d", "\\d is not an I-Regexp escape", 0),
        ("\\w+", "\\w is not an I-Regexp escape", 0),
        ("[\\p{Lu}\\d]", "\\d is not an I-Regexp escape", 7),
        ("(?:a)", "'?' has nothing to repeat", 1),
        ("a*?", "'?' has nothing to repeat", 2),
        ("a**", "'*' has nothing to repeat", 2),
        ("(a)\\1", "\\1 is not an I-Regexp escape", 3),
        ("(a", "unclosed '('", 0),
        ("a)", "unbalanced ')'", 1),
        ("[a", "unclosed '['", 0),
        ("[]", "an empty bracket expression", 1),
        ("[b-a]", "the range's end comes before its start", 1),
        ("[a-z-0]", "a '-' in brackets must be first, last, or escaped", 4),
        ("[[]", "unescaped '['", 1),
        ("[\\p{L}-z]", "a '-' in brackets must be first, last, or escaped", 6),
        ("[a-\\p{L}]", "a category escape cannot end a range", 3),
        ("]", "unescaped ']'", 0),
        ("a}", "unescaped '}'", 1),
        ("{1}", "'{' has nothing to repeat", 0),
        ("a{2,1}", "maximum 1 is below its minimum 2", 1),
        ("a{,2}", "expected digits", 2),
        ("a{2", "expected '}'", 3),
        ("a{1001}", "at most 1000", 2),
        ("\\p{Cs}", "not a Unicode general category", 3),
        ("\\p{IsBasicLatin}", "not a Unicode general category", 3),
        ("\\p{Lu", "unclosed \\p{", 0),
        ("\\pL", "expected '{' after \\p", 2),
        ("a\\", "cannot end with '\\'", 1),
        ("^*", "'^' cannot be repeated", 0),
        ("$+", "'$' cannot be repeated", 0),
        ("(a{1000}){1000}", "more than 10000 instructions", 0),
    ]

    @Test("what RFC 9485 does not allow is an error with its position", arguments: invalid)
    func refusal(pattern: String, message: String, offset: Int) {
        #expect {
            try IRegexp(pattern)
        } throws: { error in
            guard let error = error as? IRegexp.SyntaxError else { return false }
            return error.message.contains(message) && error.offset == offset
        }
    }

    @Test("groups nested past the limit are refused, not a stack overflow")
    func deepNesting() throws {
        let deep = String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000)
        #expect(throws: IRegexp.SyntaxError.self) { try IRegexp(deep) }
        let fine = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        #expect(try IRegexp(fine).matches("a"))
    }

    @Test("patterns that backtracking engines take exponential time on run in linear time")
    func catastrophicPatterns() throws {
        // Each takes a backtracking engine 2^n steps on n a's without a final match; 30,000 a's
        // here would never finish there.
        let text = String(repeating: "a", count: 30_000)
        for pattern in ["(a|a)*b", "(a*)*b", "(a+)+b", "(a|aa)*c", "(.*)*x"] {
            let regex = try IRegexp(pattern)
            var steps = 2_000_000
            #expect(regex.matches(text, entire: false, steps: &steps) == false, "\(pattern)")
            #expect(steps > 0, "\(pattern) used more than 2,000,000 steps on 30,000 code points")
        }
    }

    @Test("a step budget stops a large pattern over a long text, and reports that it did")
    func stepBudget() throws {
        let regex = try IRegexp("[a-z]{0,500}x")
        var steps = 10_000
        #expect(regex.matches(String(repeating: "a", count: 10_000), entire: false, steps: &steps) == nil)
        var plenty = Int.max
        #expect(regex.matches("abcx", entire: true, steps: &plenty) == true)
    }

    @Test("patterns compare by code point")
    func equality() throws {
        #expect(try IRegexp("\u{E9}") != IRegexp("e\u{301}"))
        #expect(try IRegexp("a+") == IRegexp("a+"))
        #expect(try IRegexp("a+").description == "a+")
    }
}
