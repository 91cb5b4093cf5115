/// A `--only` glob, matched code point by code point, as `fnmatch(3)` reads one in a UTF-8
/// locale (where the C locale it runs in would read bytes, and `?` would take half of `é`): `*`
/// any run of code points, `?` one, `[...]` one of a set (`[a-z]` a range, `[!...]` or `[^...]`
/// any other), `\` the next character as it is. A `[` with no closing `]` is itself.
enum GlobPattern {
    /// Whether `pattern` matches the whole of `text`.
    static func matches(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern.unicodeScalars), text = Array(text.unicodeScalars)
        // The classic two-pointer walk: one backtrack point, the last `*`, is all a glob needs.
        var (p, t) = (0, 0)
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count, let step = matchOne(pattern, at: p, text[t]) {
                p += step
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = (p, t)
                p += 1
            } else if let last = star {
                p = last.pattern + 1
                t = last.text + 1
                star = (last.pattern, last.text + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// How many code points of the pattern at `index` (not a `*`) took `character`, `nil` when it
    /// does not match.
    private static func matchOne(_ pattern: [Unicode.Scalar], at index: Int, _ character: Unicode.Scalar) -> Int? {
        switch pattern[index] {
        case "*":
            return nil
        case "?":
            return 1
        case "\\" where index + 1 < pattern.count:
            return pattern[index + 1] == character ? 2 : nil
        case "[":
            guard let (matched, length) = set(pattern, at: index, character) else { return pattern[index] == character ? 1 : nil }
            return matched ? length : nil
        default:
            return pattern[index] == character ? 1 : nil
        }
    }

    /// Whether the set starting at `index` holds `character`, and its length; `nil` when the `[`
    /// is not closed.
    private static func set(_ pattern: [Unicode.Scalar], at index: Int, _ character: Unicode.Scalar) -> (Bool, Int)? {
        var cursor = index + 1
        let negated = cursor < pattern.count && (pattern[cursor] == "!" || pattern[cursor] == "^")
        if negated { cursor += 1 }
        var found = false
        var first = true
        while cursor < pattern.count, pattern[cursor] != "]" || first {
            first = false
            var low = pattern[cursor]
            if low == "\\", cursor + 1 < pattern.count {
                cursor += 1
                low = pattern[cursor]
            }
            if cursor + 2 < pattern.count, pattern[cursor + 1] == "-", pattern[cursor + 2] != "]" {
                if (low.value...pattern[cursor + 2].value).contains(character.value) { found = true }
                cursor += 3
            } else {
                if low == character { found = true }
                cursor += 1
            }
        }
        guard cursor < pattern.count else { return nil }
        return (found != negated, cursor + 1 - index)
    }
}
