/// Two texts a failure shows side by side that read the same but differ in their code points: a
/// composed `é` beside `e` and a combining accent (canonically equivalent, so Swift's `==` holds),
/// or a text beside the same with a zero-width space or another invisible character. Shown as
/// they are, `expected "café", actual "café"` says nothing; each is shown with every code point
/// past ASCII, and every ASCII control, written `\u{...}`.
enum LookAlikeText {
    /// `expected` and `actual`, each escaped when the two differ in their code points but read
    /// alike; as they are otherwise.
    static func distinguished(_ expected: String, _ actual: String) -> (expected: String, actual: String) {
        guard !expected.unicodeScalars.elementsEqual(actual.unicodeScalars), readsAlike(expected, actual) else { return (expected, actual) }
        return (escaped(expected), escaped(actual))
    }

    /// Whether the texts are the same once canonical equivalence is allowed for and invisible
    /// code points (default-ignorable ones: zero-width spaces and joiners, soft hyphens, variation
    /// selectors) are left out.
    private static func readsAlike(_ first: String, _ second: String) -> Bool {
        if first == second { return true }
        func visible(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint }))
        }
        return visible(first) == visible(second)
    }

    /// `text` with each code point past ASCII, and each ASCII control, written `\u{HEX}`.
    static func escaped(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.value >= 0x20, scalar.value != 0x7F {
                shown.unicodeScalars.append(scalar)
            } else {
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return shown
    }
}
